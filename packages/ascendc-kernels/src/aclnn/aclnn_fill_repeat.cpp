// aclnnInplaceFillTensor (a view-copy of the 0-d value broadcast into selfRef, with the
// dtype conversion) and aclnnRepeatInterleaveTensor (repeat_interleave_custom).
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_repeat_interleave.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;

extern "C" {

aclnnStatus aclnnInplaceFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* value,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceFillTensor";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, selfRef, "selfRef")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, value, "value")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, selfRef, "selfRef", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, value, "value", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (!value->viewDims.empty()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: value must be 0-dimensional, got %s", api,
                      ascendc_sim::ShapeToString(value->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  if (selfRef->Numel() > 0) plan.CopyView(value, "value", selfRef, "selfRef");
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnInplaceFillTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceFillTensor", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnRepeatInterleaveTensorGetWorkspaceSize(const aclTensor* repeats, int64_t outputSize, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRepeatInterleaveTensor";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, repeats, "repeats")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, repeats, "repeats", {ACL_INT32, ACL_INT64})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_INT32, ACL_INT64})) != ACLNN_SUCCESS) return rc;
  if (repeats->viewDims.size() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: repeats must be 1-D, got %s", api,
                      ascendc_sim::ShapeToString(repeats->viewDims).c_str());
  }
  if (outputSize < 0 || out->viewDims != std::vector<int64_t>{outputSize} || out->dtype != repeats->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be 1-D [%lld] of repeats' dtype, got %s", api,
                      static_cast<long long>(outputSize), ascendc_sim::ShapeToString(out->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  const int64_t count = repeats->Numel();
  if (count > 0) {
    const aclDataType dtype = repeats->dtype;
    const DenseBuffer r = plan.Input(repeats, "repeats", repeats->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    plan.AddStep([r, y, dtype, count, outputSize](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchRepeatInterleave(dtype, r.Resolve(ws), count, y.Resolve(ws), outputSize,
                                                          stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnRepeatInterleaveTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnRepeatInterleaveTensor", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
