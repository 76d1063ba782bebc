// An npu event (the c10_npu counterpart of at::cuda::CUDAEvent): created on
// first record, on the recording stream's device, through the device guard's
// event hooks, so torch.Event and torch.npu.Event share one implementation.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "npu/core/NPUStream.h"

namespace c10_npu {

class NPUEvent {
 public:
  explicit NPUEvent(bool enable_timing = false, bool blocking = false);
  ~NPUEvent();

  NPUEvent(const NPUEvent&) = delete;
  NPUEvent& operator=(const NPUEvent&) = delete;

  bool isCreated() const { return event_ != nullptr; }
  bool enableTiming() const { return flag_ == c10::EventFlag::BACKEND_DEFAULT; }
  bool blocking() const { return blocking_; }
  // The device of the first record (-1 before it).
  c10::DeviceIndex device_index() const { return device_index_; }
  // The simulator handle (null before the first record).
  aclrtEvent event() const { return static_cast<aclrtEvent>(event_); }

  // Records the event on `stream`: it completes when the stream reaches it.
  void record(const NPUStream& stream);
  // Makes `stream` wait (on the device, not the host) for the latest record.
  void block(const NPUStream& stream);
  // True when the latest record has completed (or the event was never recorded).
  bool query() const;
  // Waits on the host for the latest record; reports errors of the work before it.
  void synchronize() const;
  // Milliseconds between this event's latest record and `end`'s.
  float elapsed_time(const NPUEvent& end) const;

 private:
  c10::EventFlag flag_;
  bool blocking_;
  c10::DeviceIndex device_index_ = -1;
  void* event_ = nullptr;
};

}  // namespace c10_npu
