// Simulated devices: the per-thread current device, each device's streams,
// memory accounting and its pool of simulated AI cores.
#ifndef ASCENDC_SIM_RUNTIME_DEVICE_H
#define ASCENDC_SIM_RUNTIME_DEVICE_H

#include <stdint.h>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "acl/acl_base.h"
#include "common/visibility.h"
#include "runtime/stream.h"

namespace ascendc_sim {

class CorePool;

class Device {
 public:
  explicit Device(int32_t id);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int32_t id() const { return id_; }

  // The implicit default stream (null handle), created on first use.
  Stream* DefaultStream();
  std::shared_ptr<Stream> CreateStream();
  // Removes `stream` from the device; false if it is not one of its streams.
  bool RemoveStream(Stream* stream, std::shared_ptr<Stream>* removed);
  // The default stream (if created) and every created stream.
  std::vector<std::shared_ptr<Stream>> Streams();

  // Waits for all queued work; returns and clears the earliest pending error.
  StreamError Synchronize();
  // Waits for all queued work, leaving errors pending.
  void WaitIdle();

  // The simulated AI cores, created on first multi-block launch.
  CorePool& Cores();

  bool ReserveMemory(uint64_t bytes);
  void ReleaseMemory(uint64_t bytes);
  uint64_t UsedMemory() const { return usedBytes_.load(std::memory_order_relaxed); }
  uint64_t TotalMemory() const { return totalBytes_; }

  // Kernel time, for aclrtGetDeviceUtilizationRate: every launch brackets its run
  // with BeginKernel/EndKernel (launches on several streams may overlap).
  void BeginKernel();
  void EndKernel();
  // Share of the last second (percent, 0-100) in which at least one kernel ran.
  int32_t BusyPercent();

  // The primary context's users: aclrtSetDevice adds one, aclrtResetDevice takes one away; the
  // context is active while it has any.
  void RetainPrimary() { primaryUsers_.fetch_add(1, std::memory_order_relaxed); }
  void ReleasePrimary();
  bool PrimaryActive() const { return primaryUsers_.load(std::memory_order_relaxed) > 0; }

 private:
  const int32_t id_;
  const uint64_t totalBytes_;
  std::atomic<uint64_t> usedBytes_{0};
  std::atomic<int32_t> primaryUsers_{0};
  std::once_flag defaultOnce_;
  std::shared_ptr<Stream> defaultStream_;
  std::mutex streamsMu_;
  std::vector<std::shared_ptr<Stream>> streams_;
  std::once_flag coresOnce_;
  std::unique_ptr<CorePool> cores_;
  std::mutex busyMu_;
  int32_t runningKernels_ = 0;
  uint64_t busySinceNs_ = 0;                            // start of the current busy interval
  std::deque<std::pair<uint64_t, uint64_t>> busyNs_;  // finished busy intervals, oldest first
};

int32_t DeviceCount();
// The device with `id`, or null when out of range.
Device* FindDevice(int32_t id);
// The calling thread's current device id (default 0) and its Device.
ASCENDC_SIM_INTERNAL_API int32_t CurrentDeviceId();
void SetCurrentDeviceId(int32_t id);
Device& CurrentDevice();

// Whether `handle` is a stream that was created and not destroyed (never dereferences it).
bool IsLiveStream(const void* handle);
// Resolves a stream handle (null: the current device's default stream).
// On failure sets the recent error (naming `api`) and returns the error code.
ASCENDC_SIM_INTERNAL_API aclError ResolveStream(aclrtStream handle, const char* api, Stream** out);

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_DEVICE_H
