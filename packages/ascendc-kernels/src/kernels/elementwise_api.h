// Host entry point of the elementwise kernel (kernels/elementwise_kernel.cpp): one Ascend C
// kernel template for every unary, binary, ternary, compare and select operator, the
// operator an op code. The operators are the rows of kernels/elementwise_ops.def. Inputs
// are dense, of one dtype (callers broadcast and cast them first); the result is that
// dtype or, for the compares, bool.
#ifndef ASCENDC_SIM_KERNELS_ELEMENTWISE_API_H
#define ASCENDC_SIM_KERNELS_ELEMENTWISE_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {

// x0, x1, x2 are the inputs in order; s the scalar parameter (see elementwise_ops.def).
enum class EwOp : int32_t {
#define ASCENDC_SIM_EW_OP(name, kernel, inputs, scratch, types, result, tiles) k##name,
#include "kernels/elementwise_ops.def"
#undef ASCENDC_SIM_EW_OP
};

// Inputs of the operator.
ASCENDC_SIM_INTERNAL_API int EwArity(EwOp op);
// Whether the result is bool (compares).
ASCENDC_SIM_INTERNAL_API bool EwIsCompare(EwOp op);
// Whether the operator is defined for inputs of `dtype`.
ASCENDC_SIM_INTERNAL_API bool EwSupports(EwOp op, aclDataType dtype);
ASCENDC_SIM_INTERNAL_API const char* EwKernelName(EwOp op);

struct EwArgs {
  EwOp op = EwOp::kNeg;
  aclDataType dtype = ACL_DT_UNDEFINED;  // the inputs' dtype (and the result's, unless a compare)
  const void* x[3] = {nullptr, nullptr, nullptr};
  void* y = nullptr;
  uint64_t n = 0;
  ScalarValue s;
  ScalarValue s2;  // the second and third parameters of the operators that take them
  ScalarValue s3;
};

// Queues the operator over n elements (nothing for 0); an unsupported dtype is
// ACL_ERROR_UNSUPPORTED_DATA_TYPE naming the kernel.
ASCENDC_SIM_INTERNAL_API aclError LaunchElementwise(const EwArgs& args, aclrtStream stream);

// The same for the operators callers name directly: y = op(x...) over n elements of dtype.
ASCENDC_SIM_INTERNAL_API aclError LaunchElementwise(EwOp op, aclDataType dtype, const void* x0, const void* x1,
                                                    void* y, uint64_t n, ScalarValue s, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_ELEMENTWISE_API_H
