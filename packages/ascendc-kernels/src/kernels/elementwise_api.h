// Host entry point of the generic elementwise kernel (kernels/generic_elementwise.h):
// one kernel template for the unary, binary, ternary, compare and select
// operators of the aclnn elementwise family. Inputs are dense, of one dtype
// (the aclnn layer broadcasts and casts them first); the result is dtype or,
// for the compares, bool.
#ifndef ASCENDC_SIM_KERNELS_ELEMENTWISE_API_H
#define ASCENDC_SIM_KERNELS_ELEMENTWISE_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {

// x0, x1, x2 are the inputs in order; s (and s2) the scalar parameters.
enum class EwOp : int32_t {
  // unary, floating types (computed in float32 for float16/bfloat16)
  kExp,
  kLog,
  kSqrt,
  kRsqrt,
  kReciprocal,
  kTanh,
  kSigmoid,
  kGelu,      // x * Phi(x)
  kGeluTanh,  // the tanh approximation
  kSilu,
  kPowScalar,  // x ** s (integral s also for integer types)
  kDivScalar,  // x / s
  // unary, every numeric type
  kNeg,
  kRelu,
  kAddScalar,  // x + s
  kMulScalar,  // x * s
  // unary -> bool, every type: x <cmp> s
  kEqScalar,
  kNeScalar,
  kLtScalar,
  kLeScalar,
  kGtScalar,
  kGeScalar,
  // binary, every numeric type
  kSub,  // x0 - s * x1
  kMaximum,
  kMinimum,
  kThresholdBackward,  // x1 <= s ? 0 : x0
  kMaskedFill,         // x1 != 0 ? s : x0
  // binary, floating types
  kDiv,
  kGeluBackward,      // grad x0, self x1
  kGeluTanhBackward,  // grad x0, self x1
  kSigmoidBackward,   // grad x0, output x1
  kTanhBackward,      // grad x0, output x1
  kSiluBackward,      // grad x0, self x1
  kLerpScalar,        // x0 + s * (x1 - x0) (as ATen: from x1 when |s| >= 0.5)
  // binary -> bool, every type
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  // ternary
  kAddcmul,     // x0 + s * x1 * x2 (every numeric type)
  kAddcdiv,     // x0 + s * x1 / x2 (floating types)
  kWhere,       // x0 != 0 ? x1 : x2 (every type)
  kLerpTensor,  // x0 + x2 * (x1 - x0) (floating types)
};

// Inputs of the operator.
ASCENDC_SIM_INTERNAL_API int EwArity(EwOp op);
// Whether the result is bool (compares).
ASCENDC_SIM_INTERNAL_API bool EwIsCompare(EwOp op);
// Whether the operator is defined for integer / bool inputs of `dtype`.
ASCENDC_SIM_INTERNAL_API bool EwSupports(EwOp op, aclDataType dtype);
ASCENDC_SIM_INTERNAL_API const char* EwKernelName(EwOp op);

struct EwArgs {
  EwOp op = EwOp::kNeg;
  aclDataType dtype = ACL_DT_UNDEFINED;  // the inputs' dtype (and the result's, unless a compare)
  const void* x[3] = {nullptr, nullptr, nullptr};
  void* y = nullptr;
  uint64_t n = 0;
  ScalarValue s;
};

ASCENDC_SIM_INTERNAL_API aclError LaunchElementwise(const EwArgs& args, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_ELEMENTWISE_API_H
