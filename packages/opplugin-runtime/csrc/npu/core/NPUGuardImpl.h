// c10's device-guard interface for the npu device: current device, streams and
// events, registered for PrivateUse1.
#pragma once

#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "npu/core/TorchCompat.h"

namespace c10_npu::impl {

struct NPUGuardImpl final : public c10::impl::DeviceGuardImplInterface {
  static constexpr c10::DeviceType static_type = c10::DeviceType::PrivateUse1;

  NPUGuardImpl() = default;
  explicit NPUGuardImpl(c10::DeviceType t);

  c10::DeviceType type() const override { return static_type; }
  c10::Device exchangeDevice(c10::Device d) const override;
  c10::Device getDevice() const override;
  void setDevice(c10::Device d) const override;
  void uncheckedSetDevice(c10::Device d) const noexcept override;
  c10::Stream getStream(c10::Device d) const noexcept override;
  c10::Stream getDefaultStream(c10::Device d) const override;
  c10::Stream getStreamFromGlobalPool(c10::Device d, bool isHighPriority = false) const override;
  c10::Stream getNewStream(c10::Device d, int priority = 0) const NPU_GUARD_STREAM_EVENT_OVERRIDE;
  c10::Stream exchangeStream(c10::Stream s) const noexcept override;
  c10::DeviceIndex deviceCount() const noexcept override;

  void destroyEvent(void* event, const c10::DeviceIndex device_index) const noexcept override;
  void record(void** event, const c10::Stream& stream, const c10::DeviceIndex device_index,
              const c10::EventFlag flag) const override;
  void block(void* event, const c10::Stream& stream) const override;
  bool queryEvent(void* event) const override;
  void synchronizeEvent(void* event) const NPU_GUARD_STREAM_EVENT_OVERRIDE;
  double elapsedTime(void* start_event, void* end_event,
                     const c10::DeviceIndex device_index) const NPU_GUARD_STREAM_EVENT_OVERRIDE;

  bool queryStream(const c10::Stream& stream) const override;
  void synchronizeStream(const c10::Stream& stream) const override;
  void synchronizeDevice(const c10::DeviceIndex device_index) const NPU_GUARD_STREAM_EVENT_OVERRIDE;
  void recordDataPtrOnStream(const c10::DataPtr& data_ptr, const c10::Stream& stream) const override;
};

}  // namespace c10_npu::impl
