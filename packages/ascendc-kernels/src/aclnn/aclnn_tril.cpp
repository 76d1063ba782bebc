// aclnnTril / aclnnInplaceTril (aclnnTriu / aclnnInplaceTriu): self (any layout)
// is brought to a dense tile of its dtype, the row kernel tril_custom
// (triu_custom) keeps the lower (upper) triangle of each matrix of the last two
// dimensions, and a non-contiguous out is written back by a view-copy.
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

aclnnStatus TrilWorkspace(const char* api, const aclTensor* self, const char* selfName, int64_t diagonal,
                          const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                          aclOpExecutor** executor, bool upper = false) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, selfName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, outName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, selfName, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (out != self && (rc = CheckTensor(api, out, outName, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  const size_t rank = self->viewDims.size();
  if (rank < 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must have at least 2 dimensions, got %zu", api, selfName,
                      rank);
  }
  if (out->viewDims != self->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from %s shape %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), selfName, ShapeToString(self->viewDims).c_str());
  }
  if (out->dtype != self->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, expected %s's dtype %s", api, outName,
                      DataTypeName(out->dtype), selfName, DataTypeName(self->dtype));
  }
  ExecutorBuilder plan(api);
  if (self->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    const uint64_t m = static_cast<uint64_t>(self->viewDims[rank - 2]);
    const uint64_t n = static_cast<uint64_t>(self->viewDims[rank - 1]);
    const uint64_t batch = static_cast<uint64_t>(self->Numel()) / (m * n);
    const DenseBuffer x = plan.Input(self, selfName, self->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, outName, dtype);
    plan.AddStep([x, y, dtype, batch, m, n, diagonal, upper](uint8_t* ws, aclrtStream stream) {
      return upper ? kernels::LaunchTriu(dtype, x.Resolve(ws), y.Resolve(ws), batch, m, n, diagonal, stream)
                   : kernels::LaunchTril(dtype, x.Resolve(ws), y.Resolve(ws), batch, m, n, diagonal, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ascendc_sim::aclnn::TrilWorkspace("aclnnTril", self, "self", diagonal, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnTril", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceTrilGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return ascendc_sim::aclnn::TrilWorkspace("aclnnInplaceTril", selfRef, "selfRef", diagonal, selfRef, "selfRef",
                                           workspaceSize, executor);
}

aclnnStatus aclnnInplaceTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceTril", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ascendc_sim::aclnn::TrilWorkspace("aclnnTriu", self, "self", diagonal, out, "out", workspaceSize, executor,
                                           true);
}

aclnnStatus aclnnTriu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnTriu", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return ascendc_sim::aclnn::TrilWorkspace("aclnnInplaceTriu", selfRef, "selfRef", diagonal, selfRef, "selfRef",
                                           workspaceSize, executor, true);
}

aclnnStatus aclnnInplaceTriu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceTriu", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
