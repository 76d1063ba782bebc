#include "npu/core/NPUStream.h"

#include <array>
#include <atomic>
#include <mutex>

#include <c10/util/Exception.h>

#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"

namespace c10_npu {
namespace {

struct DeviceStreams {
  std::array<std::atomic<aclrtStream>, kMaxStreamsPerDevice> handles{};
  std::atomic<uint32_t> pool_cursor{0};
  std::mutex create_mutex;
};

DeviceStreams& Streams(c10::DeviceIndex device) {
  static std::array<DeviceStreams, kMaxDevices> streams;
  return streams[device];
}

thread_local std::array<c10::StreamId, kMaxDevices> tls_current_stream_ids{};

c10::DeviceIndex ResolveDevice(c10::DeviceIndex device_index, const char* what) {
  if (device_index < 0) {
    return current_device();
  }
  check_device_index(device_index, what);
  return device_index;
}

// Creates the handle for (device, id) on first use, on that device.
aclrtStream CreateHandle(c10::DeviceIndex device, c10::StreamId id) {
  DeviceStreams& streams = Streams(device);
  std::lock_guard<std::mutex> lock(streams.create_mutex);
  aclrtStream handle = streams.handles[id].load(std::memory_order_acquire);
  if (handle != nullptr) {
    return handle;
  }
  const c10::DeviceIndex previous = current_device();
  set_device(device);
  const aclError err = aclrtCreateStream(&handle);
  set_device(previous);
  TORCH_CHECK(err == ACL_SUCCESS, "aclrtCreateStream on npu:", static_cast<int>(device), " (stream id ", id,
              ") failed with error code ", err, ": ", AclRecentErrorMessage());
  streams.handles[id].store(handle, std::memory_order_release);
  return handle;
}

c10::Stream MakeStream(c10::DeviceIndex device, c10::StreamId id) {
  return c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, device), id);
}

}  // namespace

NPUStream::NPUStream(c10::Stream stream) : stream_(stream) {
  TORCH_CHECK(stream_.device_type() == c10::DeviceType::PrivateUse1, "NPUStream: expected an npu stream, got a ",
              stream_.device_type(), " stream");
  TORCH_CHECK(stream_.id() >= 0 && stream_.id() < kMaxStreamsPerDevice, "NPUStream: invalid stream id ", stream_.id());
}

aclrtStream NPUStream::stream() const {
  const c10::DeviceIndex device = device_index();
  TORCH_CHECK(device >= 0 && device < kMaxDevices && id() >= 0 && id() < kMaxStreamsPerDevice,
              "NPUStream: ", stream_, " is not an npu stream of this runtime");
  aclrtStream handle = Streams(device).handles[id()].load(std::memory_order_acquire);
  if (C10_UNLIKELY(handle == nullptr)) {
    handle = CreateHandle(device, id());
  }
  return handle;
}

bool NPUStream::query() const {
  aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
  const aclError err = aclrtStreamQuery(stream(), &status);
  TORCH_CHECK(err == ACL_SUCCESS, "aclrtStreamQuery on ", *this, " failed with error code ", err, ": ",
              AclRecentErrorMessage());
  return status == ACL_STREAM_STATUS_COMPLETE;
}

void NPUStream::synchronize() const {
  const aclError err = aclrtSynchronizeStream(stream());
  TORCH_CHECK(err == ACL_SUCCESS, "aclrtSynchronizeStream on ", *this, " failed with error code ", err, ": ",
              AclRecentErrorMessage());
}

NPUStream getDefaultNPUStream(c10::DeviceIndex device_index) {
  return NPUStream(NPUStream::UNCHECKED, MakeStream(ResolveDevice(device_index, "getDefaultNPUStream"), 0));
}

NPUStream getCurrentNPUStream(c10::DeviceIndex device_index) {
  const c10::DeviceIndex device = ResolveDevice(device_index, "getCurrentNPUStream");
  return NPUStream(NPUStream::UNCHECKED, MakeStream(device, tls_current_stream_ids[device]));
}

void setCurrentNPUStream(NPUStream stream) {
  check_device_index(stream.device_index(), "setCurrentNPUStream");
  tls_current_stream_ids[stream.device_index()] = stream.id();
}

NPUStream getStreamFromPool(bool isHighPriority, c10::DeviceIndex device_index) {
  (void)isHighPriority;
  const c10::DeviceIndex device = ResolveDevice(device_index, "getStreamFromPool");
  const uint32_t slot = Streams(device).pool_cursor.fetch_add(1, std::memory_order_relaxed) % kStreamPoolSize;
  return NPUStream(NPUStream::UNCHECKED, MakeStream(device, 1 + static_cast<c10::StreamId>(slot)));
}

NPUStream NPUStreamForId(c10::DeviceIndex device_index, c10::StreamId id) {
  check_device_index(device_index, "NPUStreamForId");
  return NPUStream(MakeStream(device_index, id));
}

std::ostream& operator<<(std::ostream& stream, const NPUStream& s) {
  return stream << s.unwrap();
}

}  // namespace c10_npu
