// The aclnn entry points of the elementwise family, each a thin two-phase
// function over the generic elementwise kernel (kernels/elementwise_api.h):
// arguments are checked (null, dtype, broadcast to out's shape, PyTorch's type
// promotion and the cast of the result to out's dtype), every input is brought
// to a dense tile of the compute dtype broadcast to out's shape (view-copy l0
// step), the kernel runs, and a non-contiguous or differently typed out is
// written back by a final view-copy. In-place variants use selfRef as out.
#include <string.h>

#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/aclnn_complex.h"
#include "aclnn/l0_ops.h"
#include "aclnn/type_promotion.h"
#include "aclnnop/aclnn_activation_backward.h"
#include "aclnnop/aclnn_binary_elementwise.h"
#include "aclnnop/aclnn_binary_math.h"
#include "aclnnop/aclnn_compare.h"
#include "aclnnop/aclnn_select.h"
#include "aclnnop/aclnn_unary_math.h"
#include "common/dtype.h"
#include "common/error.h"
#include "ascendc_sim/kernel/fp_types.h"
#include "kernels/elementwise_api.h"
#include "meta/executor.h"

using ascendc_sim::kernels::EwOp;
using ascendc_sim::kernels::ScalarValue;

namespace ascendc_sim {
namespace aclnn {
namespace {

struct Operand {
  const aclTensor* tensor;
  const char* name;
};

// How the compute dtype follows from the promoted input type.
enum class Promotion {
  kKeep,         // the promoted type itself
  kIntToFloat,   // integral and bool inputs compute in float32 (torch's "int to float" ops)
};

ScalarValue ToScalarValue(const aclScalar* s) {
  return s->IsFloating() ? ScalarValue::Floating(s->ToDouble()) : ScalarValue::Integral(s->ToInt64());
}

// torch.result_type(tensor, python scalar): a scalar of a higher category gives
// that category's default type.
aclDataType ScalarResultType(aclDataType self, const aclScalar* s) {
  if (s->IsFloating() && !IsFloatingType(self)) return ACL_FLOAT;
  if (self == ACL_BOOL && !s->IsBool()) return ACL_INT64;
  return self;
}

aclnnStatus CheckScalar(const char* api, const aclScalar* s, const char* name) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, s, name)) != ACLNN_SUCCESS) return rc;
  if (!IsKernelType(s->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has unsupported dtype %s", api, name, DataTypeName(s->dtype));
  }
  return ACLNN_SUCCESS;
}

// The common two-phase body: `inputs` broadcast to out's shape, the kernel `op`
// computing in `compute` (the result: compute, or bool for compares).
aclnnStatus Elementwise(const char* api, EwOp op, std::initializer_list<Operand> inputs, aclDataType compute,
                        const aclTensor* out, const char* outName, ScalarValue s, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
  aclnnStatus rc;
  std::vector<int64_t> shape;
  bool first = true;
  std::string names;
  for (const Operand& in : inputs) {
    if (!first) names += " and ";
    names += in.name;
    if (first) {
      shape = in.tensor->viewDims;
      first = false;
    } else {
      std::vector<int64_t> merged;
      if (!BroadcastShapes(shape, in.tensor->viewDims, &merged)) {
        return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the shapes of %s (%s) cannot be broadcast together", api,
                          names.c_str(), ShapeToString(in.tensor->viewDims).c_str());
      }
      shape = merged;
    }
  }
  if (shape != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from the broadcast shape %s of %s", api,
                      outName, ShapeToString(out->viewDims).c_str(), ShapeToString(shape).c_str(), names.c_str());
  }
  if (compute == ACL_DT_UNDEFINED || !kernels::EwSupports(op, compute)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s of dtype %s is not supported", api, names.c_str(),
                      DataTypeName(compute));
  }
  const aclDataType result = kernels::EwIsCompare(op) ? ACL_BOOL : compute;
  if ((rc = CheckResultCast(api, result, out, outName, names.c_str())) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    kernels::EwArgs args;
    args.op = op;
    args.dtype = compute;
    args.n = static_cast<uint64_t>(out->Numel());
    args.s = s;
    DenseBuffer buffers[3];
    int count = 0;
    for (const Operand& in : inputs) buffers[count++] = plan.Input(in.tensor, in.name, out->viewDims, compute);
    const DenseBuffer y = plan.Output(out, outName, result);
    plan.AddStep([args, buffers, count, y](uint8_t* ws, aclrtStream stream) {
      kernels::EwArgs launch = args;
      for (int i = 0; i < count; ++i) launch.x[i] = buffers[i].Resolve(ws);
      launch.y = y.Resolve(ws);
      return kernels::LaunchElementwise(launch, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus CheckCommon(const char* api, std::initializer_list<Operand> tensors, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
  aclnnStatus rc;
  for (const Operand& t : tensors) {
    if ((rc = CheckNotNull(api, t.tensor, t.name)) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  for (const Operand& t : tensors) {
    if ((rc = CheckTensor(api, t.tensor, t.name, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  }
  return ACLNN_SUCCESS;
}

aclDataType Promote(aclDataType t, Promotion p) {
  if (p == Promotion::kIntToFloat && !IsFloatingType(t)) return ACL_FLOAT;
  return t;
}

// y = op(self)
aclnnStatus Unary(const char* api, EwOp op, Promotion p, const aclTensor* self, const char* selfName,
                  const aclTensor* out, const char* outName, uint64_t* ws, aclOpExecutor** ex) {
  kernels::CxOp cx;
  if (AnyComplex({self, out}) && ComplexOpOf(op, &cx)) {
    return ComplexUnary(api, cx, self, selfName, nullptr, out, outName, ws, ex);
  }
  aclnnStatus rc = CheckCommon(api, {{self, selfName}, {out, outName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  return Elementwise(api, op, {{self, selfName}}, Promote(self->dtype, p), out, outName, ScalarValue(), ws, ex);
}

// y = op(self, scalar)
aclnnStatus UnaryScalar(const char* api, EwOp op, Promotion p, const aclTensor* self, const char* selfName,
                        const aclScalar* s, const char* sName, const aclTensor* out, const char* outName,
                        uint64_t* ws, aclOpExecutor** ex) {
  kernels::CxOp cx;
  if (AnyComplex({self, out}, s) && ComplexOpOf(op, &cx)) {
    return ComplexUnary(api, cx, self, selfName, s, out, outName, ws, ex);
  }
  aclnnStatus rc = CheckCommon(api, {{self, selfName}, {out, outName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, s, sName)) != ACLNN_SUCCESS) return rc;
  return Elementwise(api, op, {{self, selfName}}, Promote(ScalarResultType(self->dtype, s), p), out, outName,
                     ToScalarValue(s), ws, ex);
}

// y = self <cmp> scalar: the scalar is first converted to the compared type (torch's common dtype), as
// ATen's comparison kernels do: a float16 tensor is compared with half(0.1), not with 0.1.
aclnnStatus CompareScalar(const char* api, EwOp op, const aclTensor* self, const aclScalar* s, const aclTensor* out,
                          uint64_t* ws, aclOpExecutor** ex) {
  aclnnStatus rc = CheckCommon(api, {{self, "self"}, {out, "out"}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, s, "other")) != ACLNN_SUCCESS) return rc;
  const aclDataType compared = ScalarResultType(self->dtype, s);
  ScalarValue value = ToScalarValue(s);
  if (value.isFloating) {
    const float f = static_cast<float>(value.f);
    switch (compared) {
      case ACL_FLOAT16: value = ScalarValue::Floating(HalfBitsToFloat(FloatToHalfBits(f))); break;
      case ACL_BF16: value = ScalarValue::Floating(Bf16BitsToFloat(FloatToBf16Bits(f))); break;
      case ACL_FLOAT: value = ScalarValue::Floating(f); break;
      default: break;
    }
  }
  return Elementwise(api, op, {{self, "self"}}, compared, out, "out", value, ws, ex);
}

// y = op(a, b[, c]) with an optional scalar; the compute type is the inputs' result type.
aclnnStatus Nary(const char* api, EwOp op, Promotion p, std::initializer_list<Operand> inputs, const aclScalar* s,
                 const char* sName, const aclTensor* out, const char* outName, uint64_t* ws, aclOpExecutor** ex) {
  std::vector<Operand> all(inputs);
  all.push_back({out, outName});
  kernels::CxOp cx;
  if (all.size() == 3 && AnyComplex({all[0].tensor, all[1].tensor, out}, s) && ComplexOpOf(op, &cx)) {
    return ComplexBinary(api, cx, all[0].tensor, all[0].name, all[1].tensor, all[1].name, s, out, outName, ws, ex);
  }
  aclnnStatus rc;
  for (const Operand& t : all) {
    if ((rc = CheckNotNull(api, t.tensor, t.name)) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckCommon(api, {}, ws, ex)) != ACLNN_SUCCESS) return rc;
  for (const Operand& t : all) {
    if ((rc = CheckTensor(api, t.tensor, t.name, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  }
  ScalarValue value;
  if (sName != nullptr) {
    if ((rc = CheckScalar(api, s, sName)) != ACLNN_SUCCESS) return rc;
    value = ToScalarValue(s);
  }
  std::vector<const aclTensor*> tensors;
  for (const Operand& in : inputs) tensors.push_back(in.tensor);
  aclDataType promoted = tensors[0]->dtype;
  if (tensors.size() == 2) promoted = ResultType({tensors[0], tensors[1]});
  if (tensors.size() == 3) promoted = ResultType({tensors[0], tensors[1], tensors[2]});
  if (op == EwOp::kSub) value = kernels::StoredAs(Promote(promoted, p), value);  // alpha in the dtype, as ATen
  return Elementwise(api, op, inputs, Promote(promoted, p), out, outName, value, ws, ex);
}

aclnnStatus CheckBoolMask(const char* api, const aclTensor* mask, const char* name) {
  if (mask != nullptr && mask->dtype != ACL_BOOL) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must be a bool tensor, got %s", api, name,
                      DataTypeName(mask->dtype));
  }
  return ACLNN_SUCCESS;
}

// The alpha of sub must be a number of the result's category (at::native::alpha_check).
aclnnStatus CheckAlpha(const char* api, const aclTensor* self, const aclTensor* other, const aclScalar* alpha) {
  if (AnyComplex({self, other}, alpha)) return ACLNN_SUCCESS;  // the complex path checks its operands
  aclnnStatus rc;
  if ((rc = CheckScalar(api, alpha, "alpha")) != ACLNN_SUCCESS) return rc;
  if (self == nullptr || other == nullptr) return ACLNN_SUCCESS;
  const aclDataType result = ResultType({self, other});
  if (result == ACL_BOOL) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: subtraction with two bool tensors is not supported", api);
  }
  if (!IsFloatingType(result) && alpha->IsFloating()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: alpha must be an integer for integral self and other", api);
  }
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim;
using namespace ascendc_sim::aclnn;

#define ACLNN_EW_LAUNCH(NAME)                                                                               \
  aclnnStatus NAME(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) { \
    return ascendc_sim::LaunchExecutor(#NAME, workspace, workspaceSize, executor, stream);               \
  }

// aclnnX(self, out) and aclnnInplaceX(selfRef)
#define ACLNN_EW_UNARY(NAME, OP, PROMOTION)                                                                     \
  aclnnStatus aclnn##NAME##GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,    \
                                            aclOpExecutor** executor) {                                         \
    return Unary("aclnn" #NAME, OP, PROMOTION, self, "self", out, "out", workspaceSize, executor);             \
  }                                                                                                             \
  ACLNN_EW_LAUNCH(aclnn##NAME)                                                                                  \
  aclnnStatus aclnnInplace##NAME##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,                 \
                                                   aclOpExecutor** executor) {                                  \
    return Unary("aclnnInplace" #NAME, OP, PROMOTION, selfRef, "selfRef", selfRef, "selfRef", workspaceSize,   \
                 executor);                                                                                     \
  }                                                                                                             \
  ACLNN_EW_LAUNCH(aclnnInplace##NAME)

// aclnnXTensor(self, other, out) and aclnnXScalar(self, other, out) -> bool
#define ACLNN_EW_COMPARE(NAME, OP, OPS)                                                                          \
  aclnnStatus aclnn##NAME##TensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, \
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {           \
    return Nary("aclnn" #NAME "Tensor", OP, Promotion::kKeep, {{self, "self"}, {other, "other"}}, nullptr,       \
                nullptr, out, "out", workspaceSize, executor);                                                   \
  }                                                                                                              \
  ACLNN_EW_LAUNCH(aclnn##NAME##Tensor)                                                                           \
  aclnnStatus aclnn##NAME##ScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out, \
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {           \
    return CompareScalar("aclnn" #NAME "Scalar", OPS, self, other, out, workspaceSize, executor);                 \
  }                                                                                                              \
  ACLNN_EW_LAUNCH(aclnn##NAME##Scalar)

extern "C" {

// ---- unary ----
ACLNN_EW_UNARY(Neg, EwOp::kNeg, Promotion::kKeep)
ACLNN_EW_UNARY(Exp, EwOp::kExp, Promotion::kIntToFloat)
ACLNN_EW_UNARY(Log, EwOp::kLog, Promotion::kIntToFloat)
ACLNN_EW_UNARY(Sqrt, EwOp::kSqrt, Promotion::kIntToFloat)
ACLNN_EW_UNARY(Rsqrt, EwOp::kRsqrt, Promotion::kIntToFloat)
ACLNN_EW_UNARY(Reciprocal, EwOp::kReciprocal, Promotion::kIntToFloat)
ACLNN_EW_UNARY(Tanh, EwOp::kTanh, Promotion::kIntToFloat)
ACLNN_EW_UNARY(Sigmoid, EwOp::kSigmoid, Promotion::kIntToFloat)
ACLNN_EW_UNARY(Relu, EwOp::kRelu, Promotion::kKeep)
ACLNN_EW_UNARY(Silu, EwOp::kSilu, Promotion::kKeep)

aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return Unary("aclnnGelu", EwOp::kGelu, Promotion::kKeep, self, "self", out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnGelu)

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* self, int64_t approximate, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (approximate != 0 && approximate != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "aclnnGeluV2: approximate must be 0 (none) or 1 (tanh), got %lld",
                      static_cast<long long>(approximate));
  }
  return Unary("aclnnGeluV2", approximate == 1 ? EwOp::kGeluTanh : EwOp::kGelu, Promotion::kKeep, self, "self",
               out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnGeluV2)

namespace {

// pow(self, exponent) into out; `api`, `selfName` name the entry point and argument in messages.
aclnnStatus PowTensorScalar(const char* api, const aclTensor* self, const char* selfName, const aclScalar* exponent,
                            aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self != nullptr && exponent != nullptr && !IsFloatingType(self->dtype) && !IsComplexType(self->dtype) &&
      !exponent->IsFloating() && !exponent->IsComplex() && exponent->ToInt64() < 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: integers to negative integer powers are not allowed", api);
  }
  return UnaryScalar(api, EwOp::kPowScalar, Promotion::kKeep, self, selfName, exponent, "exponent", out,
                     out == self ? selfName : "out", workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PowTensorScalar("aclnnPowTensorScalar", self, "self", exponent, out, workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnPowTensorScalar)

aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* exponent,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PowTensorScalar("aclnnInplacePowTensorScalar", selfRef, "selfRef", exponent, selfRef, workspaceSize,
                         executor);
}
ACLNN_EW_LAUNCH(aclnnInplacePowTensorScalar)

// ---- tensor and scalar (the scalar in the tensor's compute type, as ATen's wrapped numbers) ----
#define ACLNN_EW_SCALAR(NAME, OP, PROMOTION)                                                                     \
  aclnnStatus aclnn##NAME##GetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,      \
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {                \
    return UnaryScalar("aclnn" #NAME, OP, PROMOTION, self, "self", other, "other", out, "out", workspaceSize,  \
                       executor);                                                                               \
  }                                                                                                             \
  ACLNN_EW_LAUNCH(aclnn##NAME)                                                                                  \
  aclnnStatus aclnnInplace##NAME##GetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,                  \
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {         \
    return UnaryScalar("aclnnInplace" #NAME, OP, PROMOTION, selfRef, "selfRef", other, "other", selfRef,       \
                       "selfRef", workspaceSize, executor);                                                     \
  }                                                                                                             \
  ACLNN_EW_LAUNCH(aclnnInplace##NAME)

namespace {

// self + sign * alpha * other with scalars other and alpha: one scalar, alpha * other in the compute
// type (16-bit types compute in float32), added by the kernel.
aclnnStatus AddScaledScalar(const char* api, int sign, const aclTensor* self, const char* selfName,
                            const aclScalar* other, const aclScalar* alpha, const aclTensor* out, const char* outName,
                            uint64_t* ws, aclOpExecutor** ex) {
  aclnnStatus rc = CheckCommon(api, {{self, selfName}, {out, outName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, other, "other")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, alpha, "alpha")) != ACLNN_SUCCESS) return rc;
  const aclDataType compute = ScalarResultType(self->dtype, other);
  if (!IsFloatingType(compute) && alpha->IsFloating()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: alpha must be an integer for an integral self and other", api);
  }
  ScalarValue scaled;
  if (!IsFloatingType(compute)) {
    scaled = ScalarValue::Integral(sign * alpha->ToInt64() * other->ToInt64());
  } else if (compute == ACL_DOUBLE) {
    scaled = ScalarValue::Floating(sign * alpha->ToDouble() * other->ToDouble());
  } else {
    scaled = ScalarValue::Floating(static_cast<float>(sign) * static_cast<float>(alpha->ToDouble()) *
                                   static_cast<float>(other->ToDouble()));
  }
  return Elementwise(api, EwOp::kAddScalar, {{self, selfName}}, compute, out, outName, scaled, ws, ex);
}

}  // namespace

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddScaledScalar("aclnnAdds", 1, self, "self", other, alpha, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnAdds)

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddScaledScalar("aclnnInplaceAdds", 1, selfRef, "selfRef", other, alpha, selfRef, "selfRef", workspaceSize,
                         executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceAdds)

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddScaledScalar("aclnnSubs", -1, self, "self", other, alpha, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnSubs)

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddScaledScalar("aclnnInplaceSubs", -1, selfRef, "selfRef", other, alpha, selfRef, "selfRef",
                         workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceSubs)

ACLNN_EW_SCALAR(Muls, EwOp::kMulScalar, Promotion::kKeep)
ACLNN_EW_SCALAR(Divs, EwOp::kDivScalar, Promotion::kIntToFloat)

// ---- binary ----
aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckAlpha("aclnnSub", self, other, alpha);
  if (rc != ACLNN_SUCCESS) return rc;
  return Nary("aclnnSub", EwOp::kSub, Promotion::kKeep, {{self, "self"}, {other, "other"}}, alpha, "alpha", out,
              "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnSub)

aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckAlpha("aclnnInplaceSub", selfRef, other, alpha);
  if (rc != ACLNN_SUCCESS) return rc;
  return Nary("aclnnInplaceSub", EwOp::kSub, Promotion::kKeep, {{selfRef, "selfRef"}, {other, "other"}}, alpha,
              "alpha", selfRef, "selfRef", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceSub)

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnDiv", EwOp::kDiv, Promotion::kIntToFloat, {{self, "self"}, {other, "other"}}, nullptr, nullptr,
              out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnDiv)

aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return Nary("aclnnInplaceDiv", EwOp::kDiv, Promotion::kIntToFloat, {{selfRef, "selfRef"}, {other, "other"}},
              nullptr, nullptr, selfRef, "selfRef", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceDiv)

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnMaximum", EwOp::kMaximum, Promotion::kKeep, {{self, "self"}, {other, "other"}}, nullptr,
              nullptr, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnMaximum)

aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnMinimum", EwOp::kMinimum, Promotion::kKeep, {{self, "self"}, {other, "other"}}, nullptr,
              nullptr, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnMinimum)

// clamp_min with a tensor bound: max(self, min) with NaN propagating from either
// operand (as ATen's clamp_min.Tensor, which runs maximum).
aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* min, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnClampMinTensor", EwOp::kMaximum, Promotion::kKeep, {{self, "self"}, {min, "min"}}, nullptr,
              nullptr, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnClampMinTensor)

aclnnStatus aclnnAddcmulGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                                         const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return Nary("aclnnAddcmul", EwOp::kAddcmul, Promotion::kKeep,
              {{self, "self"}, {tensor1, "tensor1"}, {tensor2, "tensor2"}}, value, "value", out, "out",
              workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnAddcmul)

aclnnStatus aclnnInplaceAddcmulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* tensor1,
                                                const aclTensor* tensor2, const aclScalar* value,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnInplaceAddcmul", EwOp::kAddcmul, Promotion::kKeep,
              {{selfRef, "selfRef"}, {tensor1, "tensor1"}, {tensor2, "tensor2"}}, value, "value", selfRef,
              "selfRef", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceAddcmul)

aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                                         const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return Nary("aclnnAddcdiv", EwOp::kAddcdiv, Promotion::kKeep,
              {{self, "self"}, {tensor1, "tensor1"}, {tensor2, "tensor2"}}, value, "value", out, "out",
              workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnAddcdiv)

aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* tensor1,
                                                const aclTensor* tensor2, const aclScalar* value,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnInplaceAddcdiv", EwOp::kAddcdiv, Promotion::kKeep,
              {{selfRef, "selfRef"}, {tensor1, "tensor1"}, {tensor2, "tensor2"}}, value, "value", selfRef,
              "selfRef", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceAddcdiv)

aclnnStatus aclnnLerpGetWorkspaceSize(const aclTensor* self, const aclTensor* end, const aclTensor* weight,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnLerp", EwOp::kLerpTensor, Promotion::kKeep,
              {{self, "self"}, {end, "end"}, {weight, "weight"}}, nullptr, nullptr, out, "out", workspaceSize,
              executor);
}
ACLNN_EW_LAUNCH(aclnnLerp)

aclnnStatus aclnnInplaceLerpGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end, const aclTensor* weight,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnInplaceLerp", EwOp::kLerpTensor, Promotion::kKeep,
              {{selfRef, "selfRef"}, {end, "end"}, {weight, "weight"}}, nullptr, nullptr, selfRef, "selfRef",
              workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceLerp)

aclnnStatus aclnnLerpsGetWorkspaceSize(const aclTensor* self, const aclTensor* end, const aclScalar* weight,
                                       aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnLerps", EwOp::kLerpScalar, Promotion::kKeep, {{self, "self"}, {end, "end"}}, weight, "weight",
              out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnLerps)

aclnnStatus aclnnInplaceLerpsGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end, const aclScalar* weight,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnInplaceLerps", EwOp::kLerpScalar, Promotion::kKeep, {{selfRef, "selfRef"}, {end, "end"}},
              weight, "weight", selfRef, "selfRef", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceLerps)

// ---- binary and ternary math, bitwise and logical operators (abi/aclnn/binary_elementwise.decl) ----
namespace {

// One operand of a binary operator: a tensor, or a scalar filled into a workspace tile.
struct TensorOrScalar {
  const aclTensor* tensor;
  const aclScalar* scalar;
  const char* name;
};

// y = op(a, b) where one of a, b is a scalar: the scalar, cast to the compute type as PyTorch
// casts a wrapped number, fills a dense tile of out's shape, then the binary kernel runs.
aclnnStatus BinaryWithScalar(const char* api, EwOp op, Promotion p, TensorOrScalar a, TensorOrScalar b,
                             const aclTensor* out, const char* outName, ScalarValue s, uint64_t* ws,
                             aclOpExecutor** ex) {
  const TensorOrScalar& t = a.tensor != nullptr ? a : b;
  const TensorOrScalar& c = a.tensor != nullptr ? b : a;
  aclnnStatus rc = CheckCommon(api, {{t.tensor, t.name}, {out, outName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, c.scalar, c.name)) != ACLNN_SUCCESS) return rc;
  const aclDataType compute = Promote(ScalarResultType(t.tensor->dtype, c.scalar), p);
  if (t.tensor->viewDims != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from %s shape %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), t.name, ShapeToString(t.tensor->viewDims).c_str());
  }
  if (!kernels::EwSupports(op, compute)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s and %s of dtype %s is not supported", api, a.name, b.name,
                      DataTypeName(compute));
  }
  const aclDataType result = kernels::EwIsCompare(op) ? ACL_BOOL : compute;
  if ((rc = CheckResultCast(api, result, out, outName, t.name)) != ACLNN_SUCCESS) return rc;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    const DenseBuffer filled = plan.Scratch(out->Numel(), compute);
    const DenseBuffer x = plan.Input(t.tensor, t.name, out->viewDims, compute);
    const DenseBuffer y = plan.Output(out, outName, result);
    const ScalarValue fill = ToScalarValue(c.scalar);
    const bool scalarFirst = a.tensor == nullptr;
    plan.AddStep([compute, filled, n, fill](uint8_t* w, aclrtStream stream) {
      return kernels::LaunchFill(compute, filled.Resolve(w), n, fill, stream);
    });
    plan.AddStep([op, compute, filled, x, y, n, s, scalarFirst](uint8_t* w, aclrtStream stream) {
      kernels::EwArgs args;
      args.op = op;
      args.dtype = compute;
      args.x[0] = scalarFirst ? filled.Resolve(w) : x.Resolve(w);
      args.x[1] = scalarFirst ? x.Resolve(w) : filled.Resolve(w);
      args.y = y.Resolve(w);
      args.n = n;
      args.s = s;
      return kernels::LaunchElementwise(args, stream);
    });
  }
  return plan.Finish(ws, ex);
}

aclnnStatus TensorScalar(const char* api, EwOp op, Promotion p, const aclTensor* self, const char* selfName,
                         const aclScalar* other, const aclTensor* out, const char* outName, uint64_t* ws,
                         aclOpExecutor** ex) {
  return BinaryWithScalar(api, op, p, {self, nullptr, selfName}, {nullptr, other, "other"}, out, outName,
                          ScalarValue(), ws, ex);
}

aclnnStatus ScalarTensor(const char* api, EwOp op, Promotion p, const aclScalar* self, const aclTensor* other,
                         const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  return BinaryWithScalar(api, op, p, {nullptr, self, "self"}, {other, nullptr, "other"}, out, "out",
                          ScalarValue(), ws, ex);
}

aclnnStatus TensorTensor(const char* api, EwOp op, Promotion p, const aclTensor* self, const char* selfName,
                         const aclTensor* other, const char* otherName, const aclTensor* out, const char* outName,
                         uint64_t* ws, aclOpExecutor** ex) {
  return Nary(api, op, p, {{self, selfName}, {other, otherName}}, nullptr, nullptr, out, outName, ws, ex);
}

// clamp with scalar bounds: clamp_min then clamp_max on out's dense tile (a bound may be null).
aclnnStatus ClampScalars(const char* api, const aclTensor* self, const char* selfName, const aclScalar* min,
                         const aclScalar* max, const aclTensor* out, const char* outName, uint64_t* ws,
                         aclOpExecutor** ex) {
  aclnnStatus rc = CheckCommon(api, {{self, selfName}, {out, outName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  if (min == nullptr && max == nullptr) {
    return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "%s: at least one of clipValueMin and clipValueMax must not be null",
                      api);
  }
  aclDataType compute = self->dtype;
  for (const aclScalar* bound : {min, max}) {
    if (bound == nullptr) continue;
    if ((rc = CheckScalar(api, bound, bound == min ? "clipValueMin" : "clipValueMax")) != ACLNN_SUCCESS) return rc;
    compute = ScalarResultType(compute, bound);
  }
  if (self->viewDims != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from %s shape %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), selfName, ShapeToString(self->viewDims).c_str());
  }
  if (!kernels::EwSupports(EwOp::kClampMaxScalar, compute)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s of dtype %s is not supported", api, selfName,
                      DataTypeName(compute));
  }
  if ((rc = CheckResultCast(api, compute, out, outName, selfName)) != ACLNN_SUCCESS) return rc;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    const DenseBuffer x = plan.Input(self, selfName, out->viewDims, compute);
    const DenseBuffer y = plan.Output(out, outName, compute);
    const bool hasMin = min != nullptr;
    const bool hasMax = max != nullptr;
    const ScalarValue lo = hasMin ? ToScalarValue(min) : ScalarValue();
    const ScalarValue hi = hasMax ? ToScalarValue(max) : ScalarValue();
    plan.AddStep([=](uint8_t* w, aclrtStream stream) {
      const void* source = x.Resolve(w);
      void* target = y.Resolve(w);
      if (hasMin && hasMax) {  // one pass instead of two
        kernels::EwArgs args;
        args.op = EwOp::kClampScalars;
        args.dtype = compute;
        args.x[0] = source;
        args.y = target;
        args.n = n;
        args.s = lo;
        args.s2 = hi;
        return kernels::LaunchElementwise(args, stream);
      }
      if (hasMin) {
        const aclError err =
            kernels::LaunchElementwise(EwOp::kClampMinScalar, compute, source, nullptr, target, n, lo, stream);
        if (err != ACL_SUCCESS) return err;
        source = target;
      }
      if (!hasMax) return ACL_SUCCESS;
      return kernels::LaunchElementwise(EwOp::kClampMaxScalar, compute, source, nullptr, target, n, hi, stream);
    });
  }
  return plan.Finish(ws, ex);
}

aclnnStatus ClampTensors(const char* api, const aclTensor* self, const aclTensor* min, const aclTensor* max,
                         const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  if (min == nullptr && max == nullptr) {
    return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "%s: at least one of clipValueMin and clipValueMax must not be null",
                      api);
  }
  if (max == nullptr) return TensorTensor(api, EwOp::kMaximum, Promotion::kKeep, self, "self", min, "clipValueMin",
                                          out, "out", ws, ex);
  if (min == nullptr) return TensorTensor(api, EwOp::kMinimum, Promotion::kKeep, self, "self", max, "clipValueMax",
                                          out, "out", ws, ex);
  return Nary(api, EwOp::kClampTensor, Promotion::kKeep,
              {{self, "self"}, {min, "clipValueMin"}, {max, "clipValueMax"}}, nullptr, nullptr, out, "out", ws, ex);
}

// aclnnDivMod's mode: 0 true division, 1 toward zero, 2 toward -inf.
aclnnStatus DivModOp(const char* api, int32_t mode, EwOp* op, Promotion* p) {
  switch (mode) {
    case 0: *op = EwOp::kDiv; *p = Promotion::kIntToFloat; return ACLNN_SUCCESS;
    case 1: *op = EwOp::kDivTrunc; *p = Promotion::kKeep; return ACLNN_SUCCESS;
    case 2: *op = EwOp::kDivFloor; *p = Promotion::kKeep; return ACLNN_SUCCESS;
    default:
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: mode must be 0 (none), 1 (trunc) or 2 (floor), got %d", api,
                        mode);
  }
}

// other - alpha * self with a scalar other: the kernel's x0 - s * x1 over (other, self).
aclnnStatus RsubScalar(const char* api, const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                       const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, other, "other")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, alpha, "alpha")) != ACLNN_SUCCESS) return rc;
  const aclDataType compute = ScalarResultType(self->dtype, other);
  if (compute == ACL_BOOL) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: subtraction with two bool operands is not supported", api);
  }
  if (!IsFloatingType(compute) && alpha->IsFloating()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: alpha must be an integer for an integral self and other", api);
  }
  return BinaryWithScalar(api, EwOp::kSub, Promotion::kKeep, {nullptr, other, "other"}, {self, nullptr, "self"}, out,
                          "out", ToScalarValue(alpha), ws, ex);
}

aclnnStatus SameDtypes(const char* api, const aclTensor* self, const aclTensor* values) {
  if (self != nullptr && values != nullptr && self->dtype != values->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self (%s) and values (%s) must have the same dtype", api,
                      DataTypeName(self->dtype), DataTypeName(values->dtype));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

// aclnnX(self, other, out) over tensors
#define ACLNN_EW_BINARY(NAME, OP, PROMOTION)                                                                    \
  aclnnStatus aclnn##NAME##GetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,     \
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {                \
    return TensorTensor("aclnn" #NAME, OP, PROMOTION, self, "self", other, "other", out, "out", workspaceSize,  \
                        executor);                                                                              \
  }                                                                                                             \
  ACLNN_EW_LAUNCH(aclnn##NAME)
// aclnnInplaceX(selfRef, other)
#define ACLNN_EW_BINARY_INPLACE(NAME, OP, PROMOTION)                                                            \
  aclnnStatus aclnnInplace##NAME##GetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,                  \
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {         \
    return TensorTensor("aclnnInplace" #NAME, OP, PROMOTION, selfRef, "selfRef", other, "other", selfRef,      \
                        "selfRef", workspaceSize, executor);                                                    \
  }                                                                                                             \
  ACLNN_EW_LAUNCH(aclnnInplace##NAME)
// aclnnX(self, scalar other, out) and aclnnInplaceX(selfRef, scalar other)
#define ACLNN_EW_TENSOR_SCALAR(NAME, INPLACE_NAME, OP, PROMOTION)                                                \
  aclnnStatus aclnn##NAME##GetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,      \
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {                 \
    return TensorScalar("aclnn" #NAME, OP, PROMOTION, self, "self", other, out, "out", workspaceSize, executor); \
  }                                                                                                              \
  ACLNN_EW_LAUNCH(aclnn##NAME)                                                                                   \
  aclnnStatus aclnn##INPLACE_NAME##GetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,                 \
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {        \
    return TensorScalar("aclnn" #INPLACE_NAME, OP, PROMOTION, selfRef, "selfRef", other, selfRef, "selfRef",    \
                        workspaceSize, executor);                                                                \
  }                                                                                                              \
  ACLNN_EW_LAUNCH(aclnn##INPLACE_NAME)

// clamp
aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                       const aclScalar* clipValueMax, aclTensor* out, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  return ClampScalars("aclnnClamp", self, "self", clipValueMin, clipValueMax, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnClamp)

aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
                                             const aclTensor* clipValueMax, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return ClampTensors("aclnnClampTensor", self, clipValueMin, clipValueMax, out, workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnClampTensor)

aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMax, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckNotNull("aclnnClampMax", clipValueMax, "clipValueMax");
  if (rc != ACLNN_SUCCESS) return rc;
  return ClampScalars("aclnnClampMax", self, "self", nullptr, clipValueMax, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnClampMax)

aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(aclTensor* selfRef, const aclScalar* clipValueMax,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckNotNull("aclnnInplaceClampMax", clipValueMax, "clipValueMax");
  if (rc != ACLNN_SUCCESS) return rc;
  return ClampScalars("aclnnInplaceClampMax", selfRef, "selfRef", nullptr, clipValueMax, selfRef, "selfRef",
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceClampMax)

aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* max, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TensorTensor("aclnnClampMaxTensor", EwOp::kMinimum, Promotion::kKeep, self, "self", max, "max", out, "out",
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnClampMaxTensor)

aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* max,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TensorTensor("aclnnInplaceClampMaxTensor", EwOp::kMinimum, Promotion::kKeep, selfRef, "selfRef", max, "max",
                      selfRef, "selfRef", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceClampMaxTensor)

// powers
ACLNN_EW_BINARY(PowTensorTensor, EwOp::kPowTensorTensor, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(PowTensorTensor, EwOp::kPowTensorTensor, Promotion::kKeep)

aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* exponent, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnPowScalarTensor";
  aclnnStatus rc = CheckCommon(api, {{exponent, "exponent"}, {out, "out"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, self, "self")) != ACLNN_SUCCESS) return rc;
  return Elementwise(api, EwOp::kPowScalarTensor, {{exponent, "exponent"}}, ScalarResultType(exponent->dtype, self),
                     out, "out", ToScalarValue(self), workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnPowScalarTensor)

// the division family
ACLNN_EW_BINARY(RemainderTensorTensor, EwOp::kRemainder, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(RemainderTensorTensor, EwOp::kRemainder, Promotion::kKeep)
ACLNN_EW_TENSOR_SCALAR(RemainderTensorScalar, InplaceRemainderTensorScalar, EwOp::kRemainder, Promotion::kKeep)

aclnnStatus aclnnRemainderScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* other, aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ScalarTensor("aclnnRemainderScalarTensor", EwOp::kRemainder, Promotion::kKeep, self, other, out,
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnRemainderScalarTensor)

ACLNN_EW_BINARY(FmodTensor, EwOp::kFmod, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(FmodTensor, EwOp::kFmod, Promotion::kKeep)
ACLNN_EW_TENSOR_SCALAR(FmodScalar, InplaceFmodScalar, EwOp::kFmod, Promotion::kKeep)

ACLNN_EW_BINARY(FloorDivide, EwOp::kDivFloor, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(FloorDivide, EwOp::kDivFloor, Promotion::kKeep)
ACLNN_EW_TENSOR_SCALAR(FloorDivides, InplaceFloorDivides, EwOp::kDivFloor, Promotion::kKeep)

aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor* self, const aclTensor* other, int32_t mode, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  EwOp op = EwOp::kDiv;
  Promotion p = Promotion::kKeep;
  aclnnStatus rc = DivModOp("aclnnDivMod", mode, &op, &p);
  if (rc != ACLNN_SUCCESS) return rc;
  return TensorTensor("aclnnDivMod", op, p, self, "self", other, "other", out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnDivMod)

aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, int32_t mode,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  EwOp op = EwOp::kDiv;
  Promotion p = Promotion::kKeep;
  aclnnStatus rc = DivModOp("aclnnInplaceDivMod", mode, &op, &p);
  if (rc != ACLNN_SUCCESS) return rc;
  return TensorTensor("aclnnInplaceDivMod", op, p, selfRef, "selfRef", other, "other", selfRef, "selfRef",
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceDivMod)

aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, int32_t mode, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  EwOp op = EwOp::kDiv;
  Promotion p = Promotion::kKeep;
  aclnnStatus rc = DivModOp("aclnnDivMods", mode, &op, &p);
  if (rc != ACLNN_SUCCESS) return rc;
  return TensorScalar("aclnnDivMods", op, p, self, "self", other, out, "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnDivMods)

aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, int32_t mode,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  EwOp op = EwOp::kDiv;
  Promotion p = Promotion::kKeep;
  aclnnStatus rc = DivModOp("aclnnInplaceDivMods", mode, &op, &p);
  if (rc != ACLNN_SUCCESS) return rc;
  return TensorScalar("aclnnInplaceDivMods", op, p, selfRef, "selfRef", other, selfRef, "selfRef", workspaceSize,
                      executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceDivMods)

aclnnStatus aclnnRsubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckAlpha("aclnnRsub", self, other, alpha);
  if (rc != ACLNN_SUCCESS) return rc;
  return Nary("aclnnRsub", EwOp::kSub, Promotion::kKeep, {{other, "other"}, {self, "self"}}, alpha, "alpha", out,
              "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnRsub)

aclnnStatus aclnnRsubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                       aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RsubScalar("aclnnRsubs", self, other, alpha, out, workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnRsubs)

// floating binary math
ACLNN_EW_BINARY(Atan2, EwOp::kAtan2, Promotion::kIntToFloat)
ACLNN_EW_BINARY_INPLACE(Atan2, EwOp::kAtan2, Promotion::kIntToFloat)
ACLNN_EW_BINARY(Hypot, EwOp::kHypot, Promotion::kKeep)
ACLNN_EW_BINARY(Copysign, EwOp::kCopysign, Promotion::kIntToFloat)
ACLNN_EW_BINARY(LogAddExp, EwOp::kLogAddExp, Promotion::kKeep)
ACLNN_EW_BINARY(LogAddExp2, EwOp::kLogAddExp2, Promotion::kKeep)
ACLNN_EW_BINARY(NextAfter, EwOp::kNextafter, Promotion::kKeep)
ACLNN_EW_BINARY(Igamma, EwOp::kIgamma, Promotion::kIntToFloat)
ACLNN_EW_BINARY(Igammac, EwOp::kIgammac, Promotion::kIntToFloat)
ACLNN_EW_BINARY(Zeta, EwOp::kZeta, Promotion::kIntToFloat)
// orthogonal polynomials (x, n)
ACLNN_EW_BINARY(ChebyshevPolynomialT, EwOp::kChebyshevPolynomialT, Promotion::kIntToFloat)
ACLNN_EW_BINARY(ChebyshevPolynomialU, EwOp::kChebyshevPolynomialU, Promotion::kIntToFloat)
ACLNN_EW_BINARY(ChebyshevPolynomialV, EwOp::kChebyshevPolynomialV, Promotion::kIntToFloat)
ACLNN_EW_BINARY(ChebyshevPolynomialW, EwOp::kChebyshevPolynomialW, Promotion::kIntToFloat)
ACLNN_EW_BINARY(ShiftedChebyshevPolynomialT, EwOp::kShiftedChebyshevPolynomialT, Promotion::kIntToFloat)
ACLNN_EW_BINARY(ShiftedChebyshevPolynomialU, EwOp::kShiftedChebyshevPolynomialU, Promotion::kIntToFloat)
ACLNN_EW_BINARY(ShiftedChebyshevPolynomialV, EwOp::kShiftedChebyshevPolynomialV, Promotion::kIntToFloat)
ACLNN_EW_BINARY(ShiftedChebyshevPolynomialW, EwOp::kShiftedChebyshevPolynomialW, Promotion::kIntToFloat)
ACLNN_EW_BINARY(HermitePolynomialH, EwOp::kHermitePolynomialH, Promotion::kIntToFloat)
ACLNN_EW_BINARY(HermitePolynomialHe, EwOp::kHermitePolynomialHe, Promotion::kIntToFloat)
ACLNN_EW_BINARY(LaguerrePolynomialL, EwOp::kLaguerrePolynomialL, Promotion::kIntToFloat)

ACLNN_EW_BINARY(XLogYTensor, EwOp::kXlogy, Promotion::kIntToFloat)
ACLNN_EW_BINARY_INPLACE(XLogYTensor, EwOp::kXlogy, Promotion::kIntToFloat)
ACLNN_EW_TENSOR_SCALAR(XLogYScalarOther, InplaceXLogYScalarOther, EwOp::kXlogy, Promotion::kIntToFloat)

aclnnStatus aclnnXLogYScalarSelfGetWorkspaceSize(const aclScalar* self, const aclTensor* other, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ScalarTensor("aclnnXLogYScalarSelf", EwOp::kXlogy, Promotion::kIntToFloat, self, other, out, workspaceSize,
                      executor);
}
ACLNN_EW_LAUNCH(aclnnXLogYScalarSelf)

ACLNN_EW_BINARY(XLog1pYTensor, EwOp::kXlog1py, Promotion::kIntToFloat)

aclnnStatus aclnnXLog1pYScalarSelfGetWorkspaceSize(const aclScalar* self, const aclTensor* other, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ScalarTensor("aclnnXLog1pYScalarSelf", EwOp::kXlog1py, Promotion::kIntToFloat, self, other, out,
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnXLog1pYScalarSelf)

aclnnStatus aclnnXLog1pYScalarOtherGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TensorScalar("aclnnXLog1pYScalarOther", EwOp::kXlog1py, Promotion::kIntToFloat, self, "self", other, out,
                      "out", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnXLog1pYScalarOther)

// every type
ACLNN_EW_BINARY(Fmax, EwOp::kFmax, Promotion::kKeep)
ACLNN_EW_BINARY(Fmin, EwOp::kFmin, Promotion::kKeep)

aclnnStatus aclnnHeavisideGetWorkspaceSize(const aclTensor* self, const aclTensor* values, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = SameDtypes("aclnnHeaviside", self, values);
  if (rc != ACLNN_SUCCESS) return rc;
  return TensorTensor("aclnnHeaviside", EwOp::kHeaviside, Promotion::kKeep, self, "self", values, "values", out, "out",
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnHeaviside)

// bitwise, shifts, logical, gcd / lcm
ACLNN_EW_BINARY(BitwiseAndTensor, EwOp::kBitwiseAnd, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(BitwiseAndTensor, EwOp::kBitwiseAnd, Promotion::kKeep)
ACLNN_EW_TENSOR_SCALAR(BitwiseAndScalar, InplaceBitwiseAndScalar, EwOp::kBitwiseAnd, Promotion::kKeep)
ACLNN_EW_BINARY(BitwiseOrTensor, EwOp::kBitwiseOr, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(BitwiseOrTensor, EwOp::kBitwiseOr, Promotion::kKeep)
ACLNN_EW_TENSOR_SCALAR(BitwiseOrScalar, InplaceBitwiseOrScalar, EwOp::kBitwiseOr, Promotion::kKeep)
ACLNN_EW_BINARY(BitwiseXorTensor, EwOp::kBitwiseXor, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(BitwiseXorTensor, EwOp::kBitwiseXor, Promotion::kKeep)
ACLNN_EW_TENSOR_SCALAR(BitwiseXorScalar, InplaceBitwiseXorScalar, EwOp::kBitwiseXor, Promotion::kKeep)

ACLNN_EW_BINARY(LeftShift, EwOp::kLeftShift, Promotion::kKeep)
ACLNN_EW_BINARY(RightShift, EwOp::kRightShift, Promotion::kKeep)

aclnnStatus aclnnLeftShiftsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TensorScalar("aclnnLeftShifts", EwOp::kLeftShift, Promotion::kKeep, self, "self", other, out, "out",
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnLeftShifts)

aclnnStatus aclnnRightShiftsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TensorScalar("aclnnRightShifts", EwOp::kRightShift, Promotion::kKeep, self, "self", other, out, "out",
                      workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnRightShifts)

ACLNN_EW_BINARY(LogicalAnd, EwOp::kLogicalAnd, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(LogicalAnd, EwOp::kLogicalAnd, Promotion::kKeep)
ACLNN_EW_BINARY(LogicalOr, EwOp::kLogicalOr, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(LogicalOr, EwOp::kLogicalOr, Promotion::kKeep)
ACLNN_EW_BINARY(LogicalXor, EwOp::kLogicalXor, Promotion::kKeep)
ACLNN_EW_BINARY_INPLACE(LogicalXor, EwOp::kLogicalXor, Promotion::kKeep)

ACLNN_EW_BINARY(Gcd, EwOp::kGcd, Promotion::kKeep)
ACLNN_EW_BINARY(Lcm, EwOp::kLcm, Promotion::kKeep)

// frexp: two launches over self, the exponent through a tile of self's dtype cast to exponentOut's.
aclnnStatus aclnnFrexpGetWorkspaceSize(const aclTensor* self, aclTensor* mantissaOut, aclTensor* exponentOut,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnFrexp";
  aclnnStatus rc = CheckCommon(api, {{self, "self"}, {mantissaOut, "mantissaOut"}, {exponentOut, "exponentOut"}},
                               workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!IsFloatingType(self->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self must be floating, got %s", api, DataTypeName(self->dtype));
  }
  if (exponentOut->dtype != ACL_INT32) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: exponentOut must be int32, got %s", api,
                      DataTypeName(exponentOut->dtype));
  }
  for (const aclTensor* out : {static_cast<const aclTensor*>(mantissaOut), static_cast<const aclTensor*>(exponentOut)}) {
    if (out->viewDims != self->viewDims) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: output shape %s differs from self shape %s", api,
                        ShapeToString(out->viewDims).c_str(), ShapeToString(self->viewDims).c_str());
    }
  }
  if ((rc = CheckResultCast(api, self->dtype, mantissaOut, "mantissaOut", "self")) != ACLNN_SUCCESS) return rc;
  ExecutorBuilder plan(api);
  if (self->Numel() > 0) {
    const uint64_t n = static_cast<uint64_t>(self->Numel());
    const aclDataType dtype = self->dtype;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
    const DenseBuffer mantissa = plan.Output(mantissaOut, "mantissaOut", dtype);
    const DenseBuffer exponent = plan.Output(exponentOut, "exponentOut", dtype);
    plan.AddStep([=](uint8_t* w, aclrtStream stream) {
      const aclError err = kernels::LaunchElementwise(EwOp::kFrexpMantissa, dtype, x.Resolve(w), nullptr,
                                                      mantissa.Resolve(w), n, ScalarValue(), stream);
      if (err != ACL_SUCCESS) return err;
      return kernels::LaunchElementwise(EwOp::kFrexpExponent, dtype, x.Resolve(w), nullptr, exponent.Resolve(w), n,
                                        ScalarValue(), stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnFrexp)

// ---- activation backward ----
aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclScalar* threshold, aclTensor* gradInput,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Nary("aclnnThresholdBackward", EwOp::kThresholdBackward, Promotion::kKeep,
              {{gradOutput, "gradOutput"}, {self, "self"}}, threshold, "threshold", gradInput, "gradInput",
              workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnThresholdBackward)

aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return Nary("aclnnGeluBackward", EwOp::kGeluBackward, Promotion::kKeep,
              {{gradOutput, "gradOutput"}, {self, "self"}}, nullptr, nullptr, gradInput, "gradInput", workspaceSize,
              executor);
}
ACLNN_EW_LAUNCH(aclnnGeluBackward)

aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, char* approximate,
                                                aclTensor* gradInput, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  if (approximate == nullptr) return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclnnGeluBackwardV2: approximate is null");
  const bool tanh = strcmp(approximate, "tanh") == 0;
  if (!tanh && strcmp(approximate, "none") != 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "aclnnGeluBackwardV2: approximate must be \"none\" or \"tanh\", got \"%s\"",
                      approximate);
  }
  return Nary("aclnnGeluBackwardV2", tanh ? EwOp::kGeluTanhBackward : EwOp::kGeluBackward,
              Promotion::kKeep, {{gradOutput, "gradOutput"}, {self, "self"}}, nullptr, nullptr, gradInput,
              "gradInput", workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnGeluBackwardV2)

aclnnStatus aclnnSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                 aclTensor* gradInput, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return Nary("aclnnSigmoidBackward", EwOp::kSigmoidBackward, Promotion::kKeep,
              {{gradOutput, "gradOutput"}, {output, "output"}}, nullptr, nullptr, gradInput, "gradInput",
              workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnSigmoidBackward)

aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return Nary("aclnnTanhBackward", EwOp::kTanhBackward, Promotion::kKeep,
              {{gradOutput, "gradOutput"}, {output, "output"}}, nullptr, nullptr, gradInput, "gradInput",
              workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnTanhBackward)

aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return Nary("aclnnSiluBackward", EwOp::kSiluBackward, Promotion::kKeep,
              {{gradOutput, "gradOutput"}, {self, "self"}}, nullptr, nullptr, gradInput, "gradInput", workspaceSize,
              executor);
}
ACLNN_EW_LAUNCH(aclnnSiluBackward)

// ---- comparisons ----
ACLNN_EW_COMPARE(Eq, EwOp::kEq, EwOp::kEqScalar)
ACLNN_EW_COMPARE(Ne, EwOp::kNe, EwOp::kNeScalar)
ACLNN_EW_COMPARE(Lt, EwOp::kLt, EwOp::kLtScalar)
ACLNN_EW_COMPARE(Le, EwOp::kLe, EwOp::kLeScalar)
ACLNN_EW_COMPARE(Gt, EwOp::kGt, EwOp::kGtScalar)
ACLNN_EW_COMPARE(Ge, EwOp::kGe, EwOp::kGeScalar)

aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  aclnnStatus rc = CheckCommon("aclnnLogicalNot", {{self, "self"}, {out, "out"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  return Elementwise("aclnnLogicalNot", EwOp::kEqScalar, {{self, "self"}}, self->dtype, out, "out",
                     ScalarValue::Integral(0), workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnLogicalNot)

// ---- select ----
aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self, const aclTensor* other,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnSWhere";
  aclnnStatus rc = CheckCommon(api, {{condition, "condition"}, {self, "self"}, {other, "other"}, {out, "out"}},
                               workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckBoolMask(api, condition, "condition")) != ACLNN_SUCCESS) return rc;
  return Elementwise(api, EwOp::kWhere, {{condition, "condition"}, {self, "self"}, {other, "other"}},
                     ResultType({self, other}), out, "out", ScalarValue(), workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnSWhere)

aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                         const aclScalar* value, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  const char* api = "aclnnInplaceMaskedFillScalar";
  aclnnStatus rc = CheckCommon(api, {{selfRef, "selfRef"}, {mask, "mask"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckBoolMask(api, mask, "mask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, value, "value")) != ACLNN_SUCCESS) return rc;
  return Elementwise(api, EwOp::kMaskedFill, {{selfRef, "selfRef"}, {mask, "mask"}}, selfRef->dtype, selfRef,
                     "selfRef", ToScalarValue(value), workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceMaskedFillScalar)

// selfRef = mask ? value : selfRef, value a 0-dim device tensor (read on the device).
aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                         const aclTensor* value, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  const char* api = "aclnnInplaceMaskedFillTensor";
  aclnnStatus rc = CheckCommon(api, {{selfRef, "selfRef"}, {mask, "mask"}, {value, "value"}}, workspaceSize,
                               executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckBoolMask(api, mask, "mask")) != ACLNN_SUCCESS) return rc;
  if (!value->viewDims.empty()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: value must be a 0-dimensional tensor, got shape %s", api,
                      ShapeToString(value->viewDims).c_str());
  }
  return Elementwise(api, EwOp::kWhere, {{mask, "mask"}, {value, "value"}, {selfRef, "selfRef"}}, selfRef->dtype,
                     selfRef, "selfRef", ScalarValue(), workspaceSize, executor);
}
ACLNN_EW_LAUNCH(aclnnInplaceMaskedFillTensor)

}  // extern "C"
