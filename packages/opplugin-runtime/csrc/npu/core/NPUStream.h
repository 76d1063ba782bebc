// Streams of the npu device: c10::Stream ids mapped to simulator aclrtStream
// handles, and a thread-local current stream per device.
//
// Ids per device: 0 is the default stream, 1..kStreamPoolSize the shared pool
// that every new stream comes from (torch.npu.Stream(), torch.Stream, the
// guard's getNewStream and getStreamFromGlobalPool: round robin, as CUDA's
// pool), so creating and dropping streams holds no resources. Handles are
// created lazily and live until process exit; the simulator stops an idle
// stream's worker thread.
#pragma once

#include <cstdint>
#include <ostream>

#include <c10/core/Device.h>
#include <c10/core/Stream.h>

#include "acl/acl_rt.h"

namespace c10_npu {

constexpr c10::StreamId kStreamPoolSize = 32;
constexpr c10::StreamId kMaxStreamsPerDevice = 1 + kStreamPoolSize;

class NPUStream {
 public:
  enum Unchecked { UNCHECKED };

  // `stream` must be a PrivateUse1 stream.
  explicit NPUStream(c10::Stream stream);
  NPUStream(Unchecked, c10::Stream stream) : stream_(stream) {}

  bool operator==(const NPUStream& other) const noexcept { return stream_ == other.stream_; }
  bool operator!=(const NPUStream& other) const noexcept { return !(*this == other); }

  operator aclrtStream() const { return stream(); }
  operator c10::Stream() const { return unwrap(); }

  c10::DeviceType device_type() const { return stream_.device_type(); }
  c10::DeviceIndex device_index() const { return stream_.device_index(); }
  c10::Device device() const { return stream_.device(); }
  c10::StreamId id() const { return stream_.id(); }

  // The simulator handle, created on first use.
  aclrtStream stream() const;
  // torch_npu spelling; there is no host task queue to drain, so the flag is unused.
  aclrtStream stream(bool need_empty) const {
    (void)need_empty;
    return stream();
  }

  c10::Stream unwrap() const { return stream_; }

  // True when all queued work has finished.
  bool query() const;
  // Waits for all queued work; reports errors raised by that work.
  void synchronize() const;

 private:
  c10::Stream stream_;
};

// The default stream of `device_index` (-1: current device).
NPUStream getDefaultNPUStream(c10::DeviceIndex device_index = -1);
// The calling thread's current stream on `device_index` (-1: current device).
NPUStream getCurrentNPUStream(c10::DeviceIndex device_index = -1);
// Makes `stream` current on its device for the calling thread.
void setCurrentNPUStream(NPUStream stream);
// A stream of the shared pool (round robin); priorities are not simulated.
NPUStream getStreamFromPool(bool isHighPriority = false, c10::DeviceIndex device_index = -1);
// The NPUStream for a raw id on a device (validated).
NPUStream NPUStreamForId(c10::DeviceIndex device_index, c10::StreamId id);

std::ostream& operator<<(std::ostream& stream, const NPUStream& s);

}  // namespace c10_npu
