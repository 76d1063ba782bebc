// GradScaler's two steps on the device. aclnnForeachNonFiniteCheckAndUnscale: one
// non_finite_check_unscale_custom launch per gradient, in place when the gradient is dense (else
// through a dense tile and a view-copy back); the launches read invScale and write foundInf on the
// device, so the host never waits. aclnnAmpUpdateScale: one amp_update_scale_custom launch.
#include "aclnnop/aclnn_amp_update_scale.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"

#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/amp_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

const std::initializer_list<aclDataType> kGradDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

aclnnStatus CheckOneElement(const char* api, const aclTensor* t, const char* name) {
  if (t->Numel() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must have one element, it has shape %s", api, name,
                      ShapeToString(t->viewDims).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus NonFiniteCheckAndUnscaleWorkspace(const aclTensorList* scaledGrads, const aclTensor* foundInf,
                                              const aclTensor* invScale, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  const char* api = "aclnnForeachNonFiniteCheckAndUnscale";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, scaledGrads, "scaledGrads")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, foundInf, "foundInf")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, invScale, "invScale")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  std::vector<std::string> names;
  names.reserve(scaledGrads->tensors.size());
  for (size_t i = 0; i < scaledGrads->tensors.size(); ++i) {
    names.push_back("scaledGrads[" + std::to_string(i) + "]");
    const aclTensor* t = scaledGrads->tensors[i];
    if ((rc = CheckNotNull(api, t, names[i].c_str())) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckTensor(api, t, names[i].c_str(), kGradDtypes)) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckTensor(api, foundInf, "foundInf", {ACL_FLOAT})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, invScale, "invScale", {ACL_FLOAT})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOneElement(api, foundInf, "foundInf")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOneElement(api, invScale, "invScale")) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  const DenseBuffer found = plan.Direct(foundInf, "foundInf");
  const DenseBuffer inv = plan.Direct(invScale, "invScale");
  for (size_t i = 0; i < scaledGrads->tensors.size(); ++i) {
    const aclTensor* t = scaledGrads->tensors[i];
    if (t->Numel() == 0) continue;
    const DenseBuffer x = plan.Input(t, names[i].c_str(), t->viewDims, t->dtype);
    const DenseBuffer y = plan.Output(t, names[i].c_str(), t->dtype);
    const aclDataType dtype = t->dtype;
    const uint64_t n = static_cast<uint64_t>(t->Numel());
    plan.AddStep([dtype, n, x, y, found, inv](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchNonFiniteCheckAndUnscale(dtype, x.Resolve(ws), y.Resolve(ws), n,
                                                     static_cast<const float*>(inv.Resolve(ws)),
                                                     static_cast<float*>(found.Resolve(ws)), stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus AmpUpdateScaleWorkspace(const aclTensor* currentScale, const aclTensor* growthTracker,
                                    const aclTensor* foundInf, double growthFactor, double backoffFactor,
                                    int64_t growthInterval, const aclTensor* updatedScaleOut,
                                    const aclTensor* updatedGrowthTrackerOut, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
  const char* api = "aclnnAmpUpdateScale";
  aclnnStatus rc;
  const struct {
    const aclTensor* t;
    const char* name;
    aclDataType dtype;
  } operands[] = {{currentScale, "currentScale", ACL_FLOAT},
                  {growthTracker, "growthTracker", ACL_INT32},
                  {foundInf, "foundInf", ACL_FLOAT},
                  {updatedScaleOut, "updatedScaleOut", ACL_FLOAT},
                  {updatedGrowthTrackerOut, "updatedGrowthTrackerOut", ACL_INT32}};
  for (const auto& o : operands) {
    if ((rc = CheckNotNull(api, o.t, o.name)) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  for (const auto& o : operands) {
    if ((rc = CheckTensor(api, o.t, o.name, {o.dtype})) != ACLNN_SUCCESS) return rc;
  }
  for (const auto& o : operands) {
    if ((rc = CheckOneElement(api, o.t, o.name)) != ACLNN_SUCCESS) return rc;
  }
  if (growthInterval <= 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: growthInterval must be positive, got %lld", api,
                      static_cast<long long>(growthInterval));
  }

  ExecutorBuilder plan(api);
  kernels::AmpUpdateScaleArgs args;
  args.growthFactor = growthFactor;
  args.backoffFactor = backoffFactor;
  args.growthInterval = growthInterval;
  const DenseBuffer scale = plan.Direct(currentScale, "currentScale");
  const DenseBuffer tracker = plan.Direct(growthTracker, "growthTracker");
  const DenseBuffer found = plan.Direct(foundInf, "foundInf");
  const DenseBuffer scaleOut = plan.Direct(updatedScaleOut, "updatedScaleOut");
  const DenseBuffer trackerOut = plan.Direct(updatedGrowthTrackerOut, "updatedGrowthTrackerOut");
  plan.AddStep([args, scale, tracker, found, scaleOut, trackerOut](uint8_t* ws, aclrtStream stream) {
    kernels::AmpUpdateScaleArgs launch = args;
    launch.scale = static_cast<const float*>(scale.Resolve(ws));
    launch.growthTracker = static_cast<const int32_t*>(tracker.Resolve(ws));
    launch.foundInf = static_cast<const float*>(found.Resolve(ws));
    launch.updatedScale = static_cast<float*>(scaleOut.Resolve(ws));
    launch.updatedGrowthTracker = static_cast<int32_t*>(trackerOut.Resolve(ws));
    return kernels::LaunchAmpUpdateScale(launch, stream);
  });
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(aclTensorList* scaledGrads, aclTensor* foundInf,
                                                                 const aclTensor* invScale, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  return ascendc_sim::aclnn::NonFiniteCheckAndUnscaleWorkspace(scaledGrads, foundInf, invScale, workspaceSize,
                                                               executor);
}

aclnnStatus aclnnForeachNonFiniteCheckAndUnscale(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnForeachNonFiniteCheckAndUnscale", workspace, workspaceSize, executor,
                                     stream);
}

aclnnStatus aclnnAmpUpdateScaleGetWorkspaceSize(const aclTensor* currentScale, const aclTensor* growthTracker,
                                                const aclTensor* foundInf, double growthFactor, double backoffFactor,
                                                int64_t growthInterval, aclTensor* updatedScaleOut,
                                                aclTensor* updatedGrowthTrackerOut, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return ascendc_sim::aclnn::AmpUpdateScaleWorkspace(currentScale, growthTracker, foundInf, growthFactor,
                                                     backoffFactor, growthInterval, updatedScaleOut,
                                                     updatedGrowthTrackerOut, workspaceSize, executor);
}

aclnnStatus aclnnAmpUpdateScale(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAmpUpdateScale", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
