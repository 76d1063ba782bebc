// aclrt*Stream entry points and aclrtLaunchCallback.
#include <memory>
#include <utility>

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/host_work.h"
#include "runtime/stream.h"

namespace ascendc_sim {
namespace {

class CallbackTask final : public Task {
 public:
  CallbackTask(aclrtCallback fn, void* userData) : fn_(fn), userData_(userData) {}
  aclError Run(Stream&, std::string*) override {
    fn_(userData_);
    return ACL_SUCCESS;
  }

 private:
  aclrtCallback fn_;
  void* userData_;
};

class HostWorkTask final : public Task {
 public:
  explicit HostWorkTask(HostWork work) : work_(std::move(work)) {}
  aclError Run(Stream&, std::string* message) override { return work_(message); }

 private:
  HostWork work_;
};

// Runs what is queued on the stream, then stops its worker and removes it.
aclError DestroyStream(aclrtStream stream, const char* api) {
  if (stream == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: the default stream (null) cannot be destroyed", api);
  auto* s = static_cast<Stream*>(stream);
  std::shared_ptr<Stream> removed;
  Device* device = IsLiveStream(s) ? FindDevice(s->device()) : nullptr;
  if (device == nullptr || !device->RemoveStream(s, &removed)) {
    return RaiseError(ACL_ERROR_INVALID_RESOURCE_HANDLE, "%s: %p is not a live stream", api, stream);
  }
  removed->Shutdown();
  return ACL_SUCCESS;
}

}  // namespace

aclError SubmitHostWork(aclrtStream stream, const char* api, HostWork work) {
  Stream* s = nullptr;
  aclError rc = ResolveStream(stream, api, &s);
  if (rc != ACL_SUCCESS) return rc;
  return s->Submit(std::make_unique<HostWorkTask>(std::move(work)));
}

}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
  if (stream == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
  *stream = ascendc_sim::CurrentDevice().CreateStream().get();
  return ACL_SUCCESS;
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  (void)priority;  // one scheduler for every queue of the simulator
  if (stream == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig: stream is null");
  const uint32_t known = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |
                         ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
  if ((flag & ~known) != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig: unknown flag bits 0x%x", flag & ~known);
  }
  *stream = ascendc_sim::CurrentDevice().CreateStream().get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) { return ascendc_sim::DestroyStream(stream, "aclrtDestroyStream"); }

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  return ascendc_sim::DestroyStream(stream, "aclrtDestroyStreamForce");
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  ascendc_sim::Stream* s = nullptr;
  aclError rc = ascendc_sim::ResolveStream(stream, "aclrtSynchronizeStream", &s);
  if (rc != ACL_SUCCESS) return rc;
  ascendc_sim::StreamError error = s->Synchronize();
  if (error.code != ACL_SUCCESS) ascendc_sim::SetRecentError(error.message);
  return error.code;
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  if (status == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status is null");
  ascendc_sim::Stream* s = nullptr;
  aclError rc = ascendc_sim::ResolveStream(stream, "aclrtStreamQuery", &s);
  if (rc != ACL_SUCCESS) return rc;
  *status = s->Idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
  (void)blockType;  // both kinds run in stream order on the simulator
  if (fn == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: fn is null");
  ascendc_sim::Stream* s = nullptr;
  aclError rc = ascendc_sim::ResolveStream(stream, "aclrtLaunchCallback", &s);
  if (rc != ACL_SUCCESS) return rc;
  return s->Submit(std::make_unique<ascendc_sim::CallbackTask>(fn, userData));
}

int32_t aclrtStreamGetDevice(aclrtStream stream) {
  if (stream == nullptr) return ascendc_sim::CurrentDeviceId();
  auto* s = static_cast<ascendc_sim::Stream*>(stream);
  return ascendc_sim::IsLiveStream(s) ? s->device() : -1;
}

}  // extern "C"
