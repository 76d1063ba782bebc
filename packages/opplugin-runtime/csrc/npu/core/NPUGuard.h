// RAII device guards for the npu device (the c10_npu counterparts of CUDAGuard).
#pragma once

#include <c10/core/impl/InlineDeviceGuard.h>
#include <c10/core/impl/InlineStreamGuard.h>
#include <c10/util/Optional.h>

#include "npu/core/NPUGuardImpl.h"
#include "npu/core/NPUStream.h"

namespace c10_npu {

// Sets the current npu device for its scope and restores the previous one.
struct NPUGuard {
  explicit NPUGuard() = delete;
  explicit NPUGuard(c10::DeviceIndex device_index) : guard_(device_index) {}
  explicit NPUGuard(c10::Device device) : guard_(device) {}

  NPUGuard(const NPUGuard&) = delete;
  NPUGuard& operator=(const NPUGuard&) = delete;
  NPUGuard(NPUGuard&&) = delete;
  NPUGuard& operator=(NPUGuard&&) = delete;

  void set_device(c10::Device device) { guard_.set_device(device); }
  void reset_device(c10::Device device) { guard_.reset_device(device); }
  void set_index(c10::DeviceIndex device_index) { guard_.set_index(device_index); }
  c10::Device original_device() const { return guard_.original_device(); }
  c10::Device current_device() const { return guard_.current_device(); }

 private:
  c10::impl::InlineDeviceGuard<impl::NPUGuardImpl> guard_;
};

// Like NPUGuard, but may be empty (no device set until one is given).
struct OptionalNPUGuard {
  explicit OptionalNPUGuard() : guard_() {}
  explicit OptionalNPUGuard(c10::optional<c10::Device> device_opt) : guard_(device_opt) {}
  explicit OptionalNPUGuard(c10::optional<c10::DeviceIndex> device_index_opt) : guard_(device_index_opt) {}

  OptionalNPUGuard(const OptionalNPUGuard&) = delete;
  OptionalNPUGuard& operator=(const OptionalNPUGuard&) = delete;
  OptionalNPUGuard(OptionalNPUGuard&&) = delete;
  OptionalNPUGuard& operator=(OptionalNPUGuard&&) = delete;

  void set_device(c10::Device device) { guard_.set_device(device); }
  void reset_device(c10::Device device) { guard_.reset_device(device); }
  void set_index(c10::DeviceIndex device_index) { guard_.set_index(device_index); }
  c10::optional<c10::Device> original_device() const { return guard_.original_device(); }
  c10::optional<c10::Device> current_device() const { return guard_.current_device(); }
  void reset() { guard_.reset(); }

 private:
  c10::impl::InlineOptionalDeviceGuard<impl::NPUGuardImpl> guard_;
};

// Makes `stream` current (and its device current) for its scope.
struct NPUStreamGuard {
  explicit NPUStreamGuard() = delete;
  explicit NPUStreamGuard(c10::Stream stream) : guard_(stream) {}

  NPUStreamGuard(const NPUStreamGuard&) = delete;
  NPUStreamGuard& operator=(const NPUStreamGuard&) = delete;

  NPUStream original_stream() const { return NPUStream(NPUStream::UNCHECKED, guard_.original_stream()); }
  NPUStream current_stream() const { return NPUStream(NPUStream::UNCHECKED, guard_.current_stream()); }

 private:
  c10::impl::InlineStreamGuard<impl::NPUGuardImpl> guard_;
};

}  // namespace c10_npu
