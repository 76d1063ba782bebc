// aclnnInplaceCopy: selfRef[...] = src[...] with any strides on both sides, src
// broadcast to selfRef's shape and converted to selfRef's dtype - one view-copy.
#include "aclnnop/aclnn_copy.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/error.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

extern "C" {

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  const char* api = "aclnnInplaceCopy";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, selfRef, "selfRef")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, src, "src")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, selfRef, "selfRef", kCopyDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, src, "src", kCopyDtypes)) != ACLNN_SUCCESS) return rc;
  if (!BroadcastsTo(src->viewDims, selfRef->viewDims)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: src shape %s cannot broadcast to selfRef shape %s",
                                   api, ascendc_sim::ShapeToString(src->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(selfRef->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  if (selfRef->Numel() > 0) plan.CopyView(src, "src", selfRef, "selfRef");
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnInplaceCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceCopy", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
