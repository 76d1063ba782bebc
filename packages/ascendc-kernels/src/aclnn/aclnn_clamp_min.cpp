// aclnnClampMin / aclnnInplaceClampMin: out = max(self, clipValueMin), any
// layout; computed in the result type (self's, or float32 for an integral self
// and a floating bound), cast to out's dtype.
#include "aclnnop/aclnn_clamp_min.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

aclnnStatus ClampMinWorkspace(const char* api, const aclTensor* self, const char* selfName, const aclScalar* min,
                              const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, selfName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, min, "clipValueMin")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, outName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, selfName, kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if (out != self && (rc = CheckTensor(api, out, outName, kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if (min->dtype == ACL_BOOL || !IsKernelType(min->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: clipValueMin has unsupported dtype %s", api,
                      DataTypeName(min->dtype));
  }
  if (self->viewDims != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from %s shape %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), selfName, ShapeToString(self->viewDims).c_str());
  }
  const aclDataType result = (!IsFloatingType(self->dtype) && min->IsFloating()) ? ACL_FLOAT : self->dtype;
  const std::string inputs = std::string(selfName) + " and clipValueMin";
  if ((rc = CheckResultCast(api, result, out, outName, inputs.c_str())) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const DenseBuffer x = plan.Input(self, selfName, out->viewDims, result);
    const DenseBuffer y = plan.Output(out, outName, result);
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    const kernels::ScalarValue bound = min->IsFloating() ? kernels::ScalarValue::Floating(min->ToDouble())
                                                         : kernels::ScalarValue::Integral(min->ToInt64());
    plan.AddStep([x, y, n, result, bound](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchElementwise(kernels::EwOp::kClampMinScalar, result, x.Resolve(ws), nullptr, y.Resolve(ws), n,
                                        bound, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ascendc_sim::aclnn::ClampMinWorkspace("aclnnClampMin", self, "self", clipValueMin, out, "out",
                                               workspaceSize, executor);
}

aclnnStatus aclnnClampMin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnClampMin", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceClampMinGetWorkspaceSize(aclTensor* selfRef, const aclScalar* clipValueMin,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ascendc_sim::aclnn::ClampMinWorkspace("aclnnInplaceClampMin", selfRef, "selfRef", clipValueMin, selfRef,
                                               "selfRef", workspaceSize, executor);
}

aclnnStatus aclnnInplaceClampMin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceClampMin", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
