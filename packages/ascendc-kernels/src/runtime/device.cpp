// Devices and the aclInit/aclrt*Device entry points.
#include "runtime/device.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <shared_mutex>
#include <unordered_set>

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/config.h"
#include "runtime/core_pool.h"

namespace ascendc_sim {
namespace {

thread_local int32_t tls_current_device = 0;

std::vector<Device*>& AllDevices() {
  // Never destroyed: worker threads may outlive static destruction at exit.
  static std::vector<Device*>* devices = [] {
    auto* list = new std::vector<Device*>();
    for (int32_t i = 0; i < Config().deviceCount; ++i) list->push_back(new Device(i));
    return list;
  }();
  return *devices;
}

// Handles of the live streams (default streams included). A handle is looked up here
// before it is dereferenced, so a destroyed or foreign handle is reported as an error
// instead of being read after it was freed.
struct LiveStreams {
  std::shared_mutex mu;
  std::unordered_set<const void*> handles;
};

LiveStreams& Live() {
  static LiveStreams* live = new LiveStreams();  // outlives static destruction
  return *live;
}

void AddLiveStream(const void* handle) {
  std::unique_lock<std::shared_mutex> lock(Live().mu);
  Live().handles.insert(handle);
}

}  // namespace

bool IsLiveStream(const void* handle) {
  std::shared_lock<std::shared_mutex> lock(Live().mu);
  return Live().handles.count(handle) != 0;
}

Device::Device(int32_t id) : id_(id), totalBytes_(Config().memoryBytes) {}

Device::~Device() = default;

Stream* Device::DefaultStream() {
  std::call_once(defaultOnce_, [this] {
    defaultStream_ = std::make_shared<Stream>(id_, true);
    AddLiveStream(defaultStream_.get());
  });
  return defaultStream_.get();
}

std::shared_ptr<Stream> Device::CreateStream() {
  auto stream = std::make_shared<Stream>(id_, false);
  AddLiveStream(stream.get());
  std::lock_guard<std::mutex> lock(streamsMu_);
  streams_.push_back(stream);
  return stream;
}

bool Device::RemoveStream(Stream* stream, std::shared_ptr<Stream>* removed) {
  std::lock_guard<std::mutex> lock(streamsMu_);
  auto it = std::find_if(streams_.begin(), streams_.end(),
                         [stream](const std::shared_ptr<Stream>& s) { return s.get() == stream; });
  if (it == streams_.end()) return false;
  {
    std::unique_lock<std::shared_mutex> live(Live().mu);
    Live().handles.erase(stream);
  }
  *removed = std::move(*it);
  streams_.erase(it);
  return true;
}

std::vector<std::shared_ptr<Stream>> Device::Streams() {
  std::vector<std::shared_ptr<Stream>> out;
  DefaultStream();
  out.push_back(defaultStream_);
  std::lock_guard<std::mutex> lock(streamsMu_);
  out.insert(out.end(), streams_.begin(), streams_.end());
  return out;
}

void Device::WaitIdle() {
  for (const auto& stream : Streams()) stream->WaitAll();
}

StreamError Device::Synchronize() {
  const auto streams = Streams();
  for (const auto& stream : streams) stream->WaitAll();
  StreamError first;
  Stream* owner = nullptr;
  for (const auto& stream : streams) {
    StreamError e;
    if (stream->PeekError(&e) && (owner == nullptr || e.id < first.id)) {
      first = e;
      owner = stream.get();
    }
  }
  // Every pending error is consumed by a device-wide synchronisation.
  for (const auto& stream : streams) {
    StreamError e;
    if (stream->PeekError(&e)) stream->TakeErrorIf(e.id, nullptr);
  }
  return first;
}

CorePool& Device::Cores() {
  std::call_once(coresOnce_, [this] { cores_ = std::make_unique<CorePool>(id_, Config().aivCoreNum); });
  return *cores_;
}

bool Device::ReserveMemory(uint64_t bytes) {
  uint64_t used = usedBytes_.load(std::memory_order_relaxed);
  do {
    if (bytes > totalBytes_ || used > totalBytes_ - bytes) return false;
  } while (!usedBytes_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void Device::ReleaseMemory(uint64_t bytes) { usedBytes_.fetch_sub(bytes, std::memory_order_relaxed); }

namespace {

constexpr uint64_t kUtilizationWindowNs = 1000000000ull;  // torch.cuda.utilization: "the past sample period"

uint64_t SteadyNowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

}  // namespace

void Device::BeginKernel() {
  std::lock_guard<std::mutex> lock(busyMu_);
  if (runningKernels_++ == 0) busySinceNs_ = SteadyNowNs();
}

void Device::EndKernel() {
  std::lock_guard<std::mutex> lock(busyMu_);
  if (--runningKernels_ > 0) return;
  const uint64_t now = SteadyNowNs();
  busyNs_.emplace_back(busySinceNs_, now);
  while (!busyNs_.empty() && busyNs_.front().second + kUtilizationWindowNs < now) busyNs_.pop_front();
}

void Device::ReleasePrimary() {
  int32_t users = primaryUsers_.load(std::memory_order_relaxed);
  while (users > 0 && !primaryUsers_.compare_exchange_weak(users, users - 1, std::memory_order_relaxed)) {
  }
}

int32_t Device::BusyPercent() {
  std::lock_guard<std::mutex> lock(busyMu_);
  const uint64_t now = SteadyNowNs();
  const uint64_t start = now > kUtilizationWindowNs ? now - kUtilizationWindowNs : 0;
  uint64_t busy = 0;
  for (const auto& [from, to] : busyNs_) {
    if (to > start) busy += to - std::max(from, start);
  }
  if (runningKernels_ > 0) busy += now - std::max(busySinceNs_, start);
  return static_cast<int32_t>(std::min<uint64_t>(100, busy * 100 / kUtilizationWindowNs));
}

int32_t DeviceCount() { return static_cast<int32_t>(AllDevices().size()); }

Device* FindDevice(int32_t id) {
  auto& devices = AllDevices();
  if (id < 0 || id >= static_cast<int32_t>(devices.size())) return nullptr;
  return devices[static_cast<size_t>(id)];
}

int32_t CurrentDeviceId() { return tls_current_device; }

void SetCurrentDeviceId(int32_t id) { tls_current_device = id; }

Device& CurrentDevice() { return *AllDevices()[static_cast<size_t>(tls_current_device)]; }

aclError ResolveStream(aclrtStream handle, const char* api, Stream** out) {
  if (handle == nullptr) {
    *out = CurrentDevice().DefaultStream();
    return ACL_SUCCESS;
  }
  auto* stream = static_cast<Stream*>(handle);
  if (!IsLiveStream(handle) || !stream->Valid()) {
    return RaiseError(ACL_ERROR_INVALID_RESOURCE_HANDLE, "%s: %p is not a live stream (destroyed or never created)",
                      api, handle);
  }
  *out = stream;
  return ACL_SUCCESS;
}

}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

extern "C" {

aclError aclInit(const char* configPath) {
  (void)configPath;  // the simulator has no configuration file
  ascendc_sim::DeviceCount();
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  for (int32_t i = 0; i < ascendc_sim::DeviceCount(); ++i) ascendc_sim::FindDevice(i)->WaitIdle();
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
  *count = static_cast<uint32_t>(ascendc_sim::DeviceCount());
  return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
  if (ascendc_sim::FindDevice(deviceId) == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclrtSetDevice: device %d does not exist (device count %d)",
                      deviceId, ascendc_sim::DeviceCount());
  }
  ascendc_sim::SetCurrentDeviceId(deviceId);
  ascendc_sim::FindDevice(deviceId)->RetainPrimary();
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
  if (deviceId == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is null");
  *deviceId = ascendc_sim::CurrentDeviceId();
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  ascendc_sim::Device* device = ascendc_sim::FindDevice(deviceId);
  if (device == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclrtResetDevice: device %d does not exist (device count %d)",
                      deviceId, ascendc_sim::DeviceCount());
  }
  device->WaitIdle();
  device->ReleasePrimary();
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  ascendc_sim::StreamError error = ascendc_sim::CurrentDevice().Synchronize();
  if (error.code != ACL_SUCCESS) ascendc_sim::SetRecentError(error.message);
  return error.code;
}

const char* aclrtGetSocName(void) { return ascendc_sim::Config().socName.c_str(); }

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  if (canAccessPeer == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer: canAccessPeer is null");
  for (const int32_t id : {deviceId, peerDeviceId}) {
    if (ascendc_sim::FindDevice(id) == nullptr) {
      return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclrtDeviceCanAccessPeer: device %d does not exist (device count %d)",
                        id, ascendc_sim::DeviceCount());
    }
  }
  // The simulated devices share one address space: each reads the others' memory (aclrtMemcpy
  // between devices), but a device is not its own peer.
  *canAccessPeer = deviceId != peerDeviceId ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  if (flags != 0) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtDeviceEnablePeerAccess: flags must be 0, got %u", flags);
  if (ascendc_sim::FindDevice(peerDeviceId) == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclrtDeviceEnablePeerAccess: device %d does not exist (device count %d)",
                      peerDeviceId, ascendc_sim::DeviceCount());
  }
  if (peerDeviceId == ascendc_sim::CurrentDeviceId()) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtDeviceEnablePeerAccess: device %d is the current device",
                      peerDeviceId);
  }
  return ACL_SUCCESS;  // simulated devices share one address space
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
  if (pid == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetBareTgid: pid is null");
  *pid = static_cast<int32_t>(getpid());
  return ACL_SUCCESS;
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
  if (active == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetPrimaryCtxState: active is null");
  const ascendc_sim::Device* device = ascendc_sim::FindDevice(deviceId);
  if (device == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclrtGetPrimaryCtxState: device %d does not exist (device count %d)",
                      deviceId, ascendc_sim::DeviceCount());
  }
  if (flags != nullptr) *flags = 0;  // reserved
  *active = device->PrimaryActive() ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (context == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is null");
  *context = &ascendc_sim::CurrentDevice();  // the device's primary context
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  for (int32_t id = 0; id < ascendc_sim::DeviceCount(); ++id) {
    if (context != nullptr && context == ascendc_sim::FindDevice(id)) {
      ascendc_sim::SetCurrentDeviceId(id);
      return ACL_SUCCESS;
    }
  }
  return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: %p is not a context of a simulated device", context);
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
  if (value == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: value is null");
  if (ascendc_sim::FindDevice(static_cast<int32_t>(deviceId)) == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclGetDeviceCapability: device %u does not exist (device count %d)",
                      deviceId, ascendc_sim::DeviceCount());
  }
  switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
      *value = static_cast<int64_t>(ascendc_sim::Config().socCubeCores);
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      *value = static_cast<int64_t>(ascendc_sim::Config().socVectorCores);
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
      return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED, "aclGetDeviceCapability: the simulator has no L2 cache model");
    default:
      return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: unknown device info %d",
                        static_cast<int>(deviceInfo));
  }
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
  if (utilizationInfo == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceUtilizationRate: utilizationInfo is null");
  }
  if (utilizationInfo->utilizationExtend != nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceUtilizationRate: utilizationExtend must be null");
  }
  ascendc_sim::Device* device = ascendc_sim::FindDevice(deviceId);
  if (device == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclrtGetDeviceUtilizationRate: device %d does not exist (device count %d)",
                      deviceId, ascendc_sim::DeviceCount());
  }
  // One kind of simulated AI core runs vector and cube instructions alike.
  const int32_t busy = device->BusyPercent();
  utilizationInfo->cubeUtilization = busy;
  utilizationInfo->vectorUtilization = busy;
  utilizationInfo->aicpuUtilization = 0;  // nothing runs on an AI CPU here
  const uint64_t total = device->TotalMemory();
  utilizationInfo->memoryUtilization =
      total == 0 ? 0 : static_cast<int32_t>(std::min(device->UsedMemory(), total) * 100 / total);
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: free and total must not be null");
  }
  switch (attr) {
    case ACL_HBM_MEM: case ACL_HBM_MEM_HUGE: case ACL_HBM_MEM_NORMAL: case ACL_HBM_MEM_P2P_HUGE:
    case ACL_HBM_MEM_P2P_NORMAL: case ACL_HBM_MEM_HUGE1G: case ACL_HBM_MEM_P2P_HUGE1G:
    case ACL_MEM_NORMAL: case ACL_MEM_HUGE: case ACL_MEM_HUGE1G:
      break;  // the device's one memory
    case ACL_DDR_MEM: case ACL_DDR_MEM_HUGE: case ACL_DDR_MEM_NORMAL: case ACL_DDR_MEM_P2P_HUGE:
    case ACL_DDR_MEM_P2P_NORMAL:
      return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtGetMemInfo: the simulated device has no DDR memory (attr %d)",
                        static_cast<int>(attr));
    default:
      return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: unknown memory attribute %d", static_cast<int>(attr));
  }
  ascendc_sim::Device& device = ascendc_sim::CurrentDevice();
  *total = device.TotalMemory();
  *free = device.TotalMemory() - std::min(device.UsedMemory(), device.TotalMemory());
  return ACL_SUCCESS;
}

}  // extern "C"
