// aclOpExecutor: the launch phase of every aclnn two-phase API.
#include "meta/executor.h"

#include "acl/acl_rt.h"
#include "common/error.h"
#include "common/object_pool.h"
#include "runtime/launch_origin.h"
#include "runtime/memory.h"

namespace ascendc_sim {

namespace {
using ExecutorPool = ThreadObjectPool<aclOpExecutor>;
}  // namespace

aclOpExecutor* AcquireExecutor(const char* api) {
  aclOpExecutor* executor = ExecutorPool::Acquire();
  executor->api = api;
  executor->workspaceSize = 0;
  return executor;
}

void ReleaseExecutor(aclOpExecutor* executor) {
  if (executor == nullptr) return;
  // Drop what the steps captured now; the vectors keep their capacity.
  executor->steps.clear();
  executor->devicePointers.clear();
  ExecutorPool::Release(executor);
}

aclnnStatus LaunchExecutor(const char* api, void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                           aclrtStream stream) {
  if (executor == nullptr) return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "%s: executor is null", api);
  if (executor->api != api) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the executor was created by %sGetWorkspaceSize, not %sGetWorkspaceSize",
                      api, executor->api.c_str(), api);
  }
  if (workspaceSize < executor->workspaceSize) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: workspaceSize %llu is smaller than the %llu bytes required", api,
                      static_cast<unsigned long long>(workspaceSize),
                      static_cast<unsigned long long>(executor->workspaceSize));
  }
  const int32_t streamDevice = aclrtStreamGetDevice(stream);
  if (streamDevice < 0) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: stream %p is not a live stream", api, stream);
  if (executor->workspaceSize > 0) {
    int32_t device = -1;
    if (CheckDeviceRange(workspace, executor->workspaceSize, api, "workspace", &device) != ACL_SUCCESS) {
      return ACLNN_ERR_PARAM_INVALID;
    }
    if (device != streamDevice) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: workspace is on device %d but the stream belongs to device %d",
                        api, device, streamDevice);
    }
  }
  for (const auto& named : executor->devicePointers) {
    const int32_t device = aclrtPointerGetDevice(named.second);
    if (device != streamDevice) {
      if (device < 0) {
        return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s data (%p) is not device memory", api, named.first.c_str(),
                          named.second);
      }
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s is on device %d but the stream belongs to device %d", api,
                        named.first.c_str(), device, streamDevice);
    }
  }
  ScopedLaunchOrigin origin(executor->api.c_str());
  for (const auto& step : executor->steps) {
    const aclError rc = step(static_cast<uint8_t*>(workspace), stream);
    if (rc != ACL_SUCCESS) {
      std::string message = StrFormat("%s: launching a kernel failed: %s", api, aclGetRecentErrMsg());
      ReleaseExecutor(executor);
      SetRecentError(message);
      return ACLNN_ERR_RUNTIME_ERROR;
    }
  }
  ReleaseExecutor(executor);
  return ACLNN_SUCCESS;
}

}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  ascendc_sim::ReleaseExecutor(executor);
  return ACLNN_SUCCESS;
}

}  // extern "C"
