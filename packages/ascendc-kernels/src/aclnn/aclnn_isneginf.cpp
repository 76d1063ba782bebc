// aclnnIsNegInf: out = (self == -inf). A floating self runs the generic
// elementwise kernel's scalar compare (eqs_custom against -inf) in its dtype;
// integer and bool values are never -inf, so out is filled with false. A
// non-contiguous out is written back by a view-copy.
#include "aclnnop/aclnn_isneginf.h"

#include <math.h>

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

aclnnStatus IsNegInfWorkspace(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
  const char* api = "aclnnIsNegInf";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_BOOL})) != ACLNN_SUCCESS) return rc;
  if (out->viewDims != self->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out shape %s differs from self shape %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(self->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    const DenseBuffer y = plan.Output(out, "out", ACL_BOOL);
    if (IsFloatingType(self->dtype)) {
      kernels::EwArgs args;
      args.op = kernels::EwOp::kEqScalar;
      args.dtype = self->dtype;
      args.n = n;
      args.s.isFloating = true;
      args.s.f = -INFINITY;
      const DenseBuffer x = plan.Input(self, "self", out->viewDims, self->dtype);
      plan.AddStep([args, x, y](uint8_t* ws, aclrtStream stream) {
        kernels::EwArgs launch = args;
        launch.x[0] = x.Resolve(ws);
        launch.y = y.Resolve(ws);
        return kernels::LaunchElementwise(launch, stream);
      });
    } else {
      plan.AddStep([y, n](uint8_t* ws, aclrtStream stream) {
        return kernels::LaunchFill(ACL_BOOL, y.Resolve(ws), n, kernels::ScalarValue::Integral(0), stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclnnIsNegInfGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return ascendc_sim::aclnn::IsNegInfWorkspace(self, out, workspaceSize, executor);
}

aclnnStatus aclnnIsNegInf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIsNegInf", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
