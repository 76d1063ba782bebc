// The activation entry points and their gradients (abi/aclnn/activation.decl): thin two-phase
// functions over the elementwise kernel's activation operators (aclnn/elementwise_plan.h).
// Forward ops take floating self (threshold: every numeric type) and compute in float32 for
// float16/bfloat16; gradients compute in the result type of gradOutput and self.
#include "aclnn/aclnn_common.h"
#include "aclnn/elementwise_plan.h"
#include "aclnn/type_promotion.h"
#include "aclnnop/aclnn_activation.h"
#include "common/dtype.h"
#include "common/error.h"
#include "aclnn/l0_ops.h"
#include "meta/executor.h"

using ascendc_sim::kernels::EwOp;
using ascendc_sim::kernels::ScalarValue;

namespace ascendc_sim {
namespace aclnn {
namespace {

struct NamedScalar {
  const aclScalar* scalar;
  const char* name;
};

// The scalars, checked, as the kernel's s, s2, s3.
aclnnStatus ReadScalars(const char* api, std::initializer_list<NamedScalar> scalars, EwScalars* out) {
  ScalarValue* slots[3] = {&out->s, &out->s2, &out->s3};
  int i = 0;
  for (const NamedScalar& s : scalars) {
    aclnnStatus rc = CheckEwScalar(api, s.scalar, s.name);
    if (rc != ACLNN_SUCCESS) return rc;
    *slots[i++] = ScalarOf(s.scalar);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckFloating(const char* api, const aclTensor* t, const char* name) {
  if (!IsFloatingType(t->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must be a floating tensor, got %s", api, name,
                      DataTypeName(t->dtype));
  }
  return ACLNN_SUCCESS;
}

// out = op(self; scalars)
aclnnStatus Activation(const char* api, EwOp op, const aclTensor* self, const char* selfName,
                       std::initializer_list<NamedScalar> scalars, const aclTensor* out, const char* outName,
                       uint64_t* ws, aclOpExecutor** ex) {
  aclnnStatus rc = CheckEwTensors(api, {{self, selfName}, {out, outName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  EwScalars values;
  if ((rc = ReadScalars(api, scalars, &values)) != ACLNN_SUCCESS) return rc;
  const bool numeric = op == EwOp::kThreshold || op == EwOp::kHardtanh;  // the others: floating only
  if (!numeric && (rc = CheckFloating(api, self, selfName)) != ACLNN_SUCCESS) return rc;
  if (numeric && self->dtype == ACL_BOOL) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s of dtype ACL_BOOL is not supported", api, selfName);
  }
  return PlanElementwise(api, op, {{self, selfName}}, self->dtype, out, outName, values, ws, ex);
}

// gradInput = op(gradOutput, self; scalars)
aclnnStatus Gradient(const char* api, EwOp op, const aclTensor* gradOutput, const aclTensor* self,
                     const char* selfName, std::initializer_list<NamedScalar> scalars, const aclTensor* gradInput,
                     const char* gradName, uint64_t* ws, aclOpExecutor** ex) {
  aclnnStatus rc =
      CheckEwTensors(api, {{gradOutput, "gradOutput"}, {self, selfName}, {gradInput, gradName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  EwScalars values;
  if ((rc = ReadScalars(api, scalars, &values)) != ACLNN_SUCCESS) return rc;
  const aclDataType compute = ResultType({gradOutput, self});
  if (!IsFloatingType(compute)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradOutput and %s must be floating tensors, got %s", api,
                      selfName, DataTypeName(compute));
  }
  return PlanElementwise(api, op, {{gradOutput, "gradOutput"}, {self, selfName}}, compute, gradInput, gradName,
                         values, ws, ex);
}

// The half [start, start + size of dim / 2) of t along dim: a view of the same storage.
aclTensor HalfOf(const aclTensor* t, int64_t dim, int64_t which) {
  aclTensor half = *t;
  half.viewDims[dim] = t->viewDims[dim] / 2;
  half.offset = t->offset + which * half.viewDims[dim] * t->strides[dim];
  return half;
}

// dim wrapped into [0, rank) and an even, non-empty size along it.
aclnnStatus GluDim(const char* api, const aclTensor* self, int64_t dim, int64_t* wrapped) {
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  if (rank == 0) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: glu does not support scalars", api);
  if (dim < -rank || dim >= rank) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-dimensional self", api,
                      static_cast<long long>(dim), static_cast<long long>(rank));
  }
  *wrapped = dim < 0 ? dim + rank : dim;
  if (self->viewDims[*wrapped] % 2 != 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: halving dimension must be even, but dimension %lld is size %lld",
                      api, static_cast<long long>(*wrapped), static_cast<long long>(self->viewDims[*wrapped]));
  }
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim;
using namespace ascendc_sim::aclnn;

#define ACLNN_ACTIVATION_LAUNCH(NAME)                                                                       \
  aclnnStatus NAME(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) { \
    return ascendc_sim::LaunchExecutor(#NAME, workspace, workspaceSize, executor, stream);               \
  }

extern "C" {

aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha, const aclScalar* scale,
                                     const aclScalar* inputScale, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return Activation("aclnnElu", EwOp::kElu, self, "self",
                    {{alpha, "alpha"}, {scale, "scale"}, {inputScale, "inputScale"}}, out, "out", workspaceSize,
                    executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnElu)

aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha, const aclScalar* scale,
                                            const aclScalar* inputScale, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return Activation("aclnnInplaceElu", EwOp::kElu, selfRef, "selfRef",
                    {{alpha, "alpha"}, {scale, "scale"}, {inputScale, "inputScale"}}, selfRef, "selfRef",
                    workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnInplaceElu)

aclnnStatus aclnnEluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclScalar* alpha,
                                             const aclScalar* scale, const aclScalar* inputScale, bool isResult,
                                             const aclTensor* selfOrResult, aclTensor* gradInput,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Gradient("aclnnEluBackward", isResult ? EwOp::kEluBackwardResult : EwOp::kEluBackward, gradOutput,
                  selfOrResult, "selfOrResult", {{alpha, "alpha"}, {scale, "scale"}, {inputScale, "inputScale"}},
                  gradInput, "gradInput", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnEluBackward)

aclnnStatus aclnnHardtanhGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                          const aclScalar* clipValueMax, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return Activation("aclnnHardtanh", EwOp::kHardtanh, self, "self",
                    {{clipValueMin, "clipValueMin"}, {clipValueMax, "clipValueMax"}}, out, "out", workspaceSize,
                    executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardtanh)

aclnnStatus aclnnInplaceHardtanhGetWorkspaceSize(aclTensor* selfRef, const aclScalar* clipValueMin,
                                                 const aclScalar* clipValueMax, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return Activation("aclnnInplaceHardtanh", EwOp::kHardtanh, selfRef, "selfRef",
                    {{clipValueMin, "clipValueMin"}, {clipValueMax, "clipValueMax"}}, selfRef, "selfRef",
                    workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnInplaceHardtanh)

aclnnStatus aclnnHardtanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                  const aclScalar* min, const aclScalar* max, aclTensor* gradInput,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Gradient("aclnnHardtanhBackward", EwOp::kHardtanhBackward, gradOutput, self, "self",
                  {{min, "min"}, {max, "max"}}, gradInput, "gradInput", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardtanhBackward)

aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Activation("aclnnLeakyRelu", EwOp::kLeakyRelu, self, "self", {{negativeSlope, "negativeSlope"}}, out,
                    "out", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnLeakyRelu)

aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* negativeSlope,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Activation("aclnnInplaceLeakyRelu", EwOp::kLeakyRelu, selfRef, "selfRef",
                    {{negativeSlope, "negativeSlope"}}, selfRef, "selfRef", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnInplaceLeakyRelu)

// With a positive slope, self > 0 exactly where leaky_relu(self) > 0: self or the result alike.
aclnnStatus aclnnLeakyReluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclScalar* negativeSlope, bool selfIsResult,
                                                   aclTensor* gradInput, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnLeakyReluBackward";
  if (selfIsResult && negativeSlope != nullptr && negativeSlope->ToDouble() < 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: in-place leakyReLu backward calculation is triggered with a negative slope which is not "
                      "supported",
                      api);
  }
  return Gradient(api, EwOp::kLeakyReluBackward, gradOutput, self, "self", {{negativeSlope, "negativeSlope"}},
                  gradInput, "gradInput", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnLeakyReluBackward)

aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return Activation("aclnnHardsigmoid", EwOp::kHardsigmoid, self, "self", {}, out, "out", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardsigmoid)

aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return Activation("aclnnInplaceHardsigmoid", EwOp::kHardsigmoid, selfRef, "selfRef", {}, selfRef, "selfRef",
                    workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnInplaceHardsigmoid)

aclnnStatus aclnnHardsigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return Gradient("aclnnHardsigmoidBackward", EwOp::kHardsigmoidBackward, gradOutput, self, "self", {}, out, "out",
                  workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardsigmoidBackward)

aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return Activation("aclnnHardswish", EwOp::kHardswish, self, "self", {}, out, "out", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardswish)

aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return Activation("aclnnInplaceHardswish", EwOp::kHardswish, selfRef, "selfRef", {}, selfRef, "selfRef",
                    workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnInplaceHardswish)

aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return Gradient("aclnnHardswishBackward", EwOp::kHardswishBackward, gradOutput, self, "self", {}, out, "out",
                  workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardswishBackward)

aclnnStatus aclnnHardshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Activation("aclnnHardshrink", EwOp::kHardshrink, self, "self", {{lambd, "lambd"}}, out, "out",
                    workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardshrink)

aclnnStatus aclnnHardshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclScalar* lambd, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Gradient("aclnnHardshrinkBackward", EwOp::kShrinkBackward, gradOutput, self, "self", {{lambd, "lambd"}},
                  gradInput, "gradInput", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnHardshrinkBackward)

aclnnStatus aclnnSoftshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Activation("aclnnSoftshrink", EwOp::kSoftshrink, self, "self", {{lambd, "lambd"}}, out, "out",
                    workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnSoftshrink)

aclnnStatus aclnnSoftshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclScalar* lambd, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Gradient("aclnnSoftshrinkBackward", EwOp::kShrinkBackward, gradOutput, self, "self", {{lambd, "lambd"}},
                  gradInput, "gradInput", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnSoftshrinkBackward)

aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta, const aclScalar* threshold,
                                          aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Activation("aclnnSoftplus", EwOp::kSmoothRelu, self, "self", {{beta, "beta"}, {threshold, "threshold"}}, out,
                    "out", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnSoftplus)

aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                  const aclScalar* beta, const aclScalar* threshold,
                                                  aclTensor* gradInput, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return Gradient("aclnnSoftplusBackward", EwOp::kSmoothReluBackward, gradOutput, self, "self",
                  {{beta, "beta"}, {threshold, "threshold"}}, gradInput, "gradInput", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnSoftplusBackward)

aclnnStatus aclnnMishGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return Activation("aclnnMish", EwOp::kMish, self, "self", {}, out, "out", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnMish)

aclnnStatus aclnnInplaceMishGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Activation("aclnnInplaceMish", EwOp::kMish, selfRef, "selfRef", {}, selfRef, "selfRef", workspaceSize,
                    executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnInplaceMish)

aclnnStatus aclnnMishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return Gradient("aclnnMishBackward", EwOp::kMishBackward, gradOutput, self, "self", {}, gradInput, "gradInput",
                  workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnMishBackward)

aclnnStatus aclnnLogSigmoidForwardGetWorkspaceSize(const aclTensor* self, aclTensor* out, aclTensor* buffer,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckNotNull("aclnnLogSigmoidForward", buffer, "buffer");
  if (rc != ACLNN_SUCCESS) return rc;
  return Activation("aclnnLogSigmoidForward", EwOp::kLogSigmoid, self, "self", {}, out, "out", workspaceSize,
                    executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnLogSigmoidForward)

aclnnStatus aclnnLogSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclTensor* buffer, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckNotNull("aclnnLogSigmoidBackward", buffer, "buffer");
  if (rc != ACLNN_SUCCESS) return rc;
  return Gradient("aclnnLogSigmoidBackward", EwOp::kLogSigmoidBackward, gradOutput, self, "self", {}, gradInput,
                  "gradInput", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnLogSigmoidBackward)

aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold, const aclScalar* value,
                                           aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Activation("aclnnThreshold", EwOp::kThreshold, self, "self", {{threshold, "threshold"}, {value, "value"}},
                    out, "out", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnThreshold)

aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
                                                  const aclScalar* value, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return Activation("aclnnInplaceThreshold", EwOp::kThreshold, selfRef, "selfRef",
                    {{threshold, "threshold"}, {value, "value"}}, selfRef, "selfRef", workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnInplaceThreshold)

aclnnStatus aclnnGluGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  const char* api = "aclnnGlu";
  aclnnStatus rc = CheckEwTensors(api, {{self, "self"}, {out, "out"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckFloating(api, self, "self")) != ACLNN_SUCCESS) return rc;
  int64_t d = 0;
  if ((rc = GluDim(api, self, dim, &d)) != ACLNN_SUCCESS) return rc;
  const aclTensor a = HalfOf(self, d, 0);
  const aclTensor b = HalfOf(self, d, 1);
  return PlanElementwise(api, EwOp::kGlu, {{&a, "self's first half"}, {&b, "self's second half"}}, self->dtype, out,
                         "out", EwScalars(), workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnGlu)

aclnnStatus aclnnGluBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self, int64_t dim,
                                             aclTensor* gradInput, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  const char* api = "aclnnGluBackward";
  aclnnStatus rc =
      CheckEwTensors(api, {{gradOut, "gradOut"}, {self, "self"}, {gradInput, "gradInput"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckFloating(api, self, "self")) != ACLNN_SUCCESS) return rc;
  int64_t d = 0;
  if ((rc = GluDim(api, self, dim, &d)) != ACLNN_SUCCESS) return rc;
  const aclTensor a = HalfOf(self, d, 0);
  const aclTensor b = HalfOf(self, d, 1);
  if (gradOut->viewDims != a.viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradOut shape %s differs from the half of self %s", api,
                      ShapeToString(gradOut->viewDims).c_str(), ShapeToString(a.viewDims).c_str());
  }
  if (gradInput->viewDims != self->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradInput shape %s differs from self shape %s", api,
                      ShapeToString(gradInput->viewDims).c_str(), ShapeToString(self->viewDims).c_str());
  }
  const aclDataType compute = ResultType({gradOut, self});
  if (!IsFloatingType(compute) || !CanCast(compute, gradInput->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradInput of dtype %s cannot hold the %s result", api,
                      DataTypeName(gradInput->dtype), DataTypeName(compute));
  }
  const aclTensor gradA = HalfOf(gradInput, d, 0);
  const aclTensor gradB = HalfOf(gradInput, d, 1);
  ExecutorBuilder plan(api);
  AddElementwiseStep(plan, EwOp::kGluBackwardFirst, {{gradOut, "gradOut"}, {&b, "self's second half"}}, compute,
                     &gradA, "gradInput", EwScalars());
  AddElementwiseStep(plan, EwOp::kGluBackwardSecond,
                     {{gradOut, "gradOut"}, {&a, "self's first half"}, {&b, "self's second half"}}, compute, &gradB,
                     "gradInput", EwScalars());
  return plan.Finish(workspaceSize, executor);
}
ACLNN_ACTIVATION_LAUNCH(aclnnGluBackward)

}  // extern "C"
