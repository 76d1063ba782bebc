// aclnnAbs: out = |self|; computed in self's dtype, cast to out's.
#include "aclnnop/aclnn_abs.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/aclnn_complex.h"
#include "aclnn/l0_ops.h"
#include "aclnn/type_promotion.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

extern "C" {

aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  const char* api = "aclnnAbs";
  if (AnyComplex({self})) {
    return ComplexUnary(api, ascendc_sim::kernels::CxOp::kAbs, self, "self", nullptr, out, "out", workspaceSize,
                        executor);
  }
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if (self->viewDims != out->viewDims) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out shape %s differs from self shape %s", api,
                                   ascendc_sim::ShapeToString(out->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(self->viewDims).c_str());
  }
  if ((rc = CheckResultCast(api, self->dtype, out, "out", "self")) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer x = plan.Input(self, "self", out->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    plan.AddStep([x, y, n, dtype](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchElementwise(ascendc_sim::kernels::EwOp::kAbs, dtype, x.Resolve(ws), nullptr,
                                                     y.Resolve(ws), n, {}, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnAbs(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAbs", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
