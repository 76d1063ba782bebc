// PrivateUse1 hooks: what torch asks the backend about devices, generators and
// pointers (autograd needs hasPrimaryContext), and for pinned host memory.
#pragma once

#include <ATen/detail/PrivateUse1HooksInterface.h>

#include "npu/core/TorchCompat.h"

namespace c10_npu {

struct NPUHooksInterface final : public at::PrivateUse1HooksInterface {
  ~NPUHooksInterface() override = default;

  const at::Generator& getDefaultGenerator(c10::DeviceIndex device_index) NPU_HOOKS_GETDEFAULTGEN_CONST override;
  at::Device getDeviceFromPtr(void* data) const override;
#if NPU_HOOKS_HAS_ACCEL_BASE
  bool isBuilt() const override { return true; }
  bool isAvailable() const override;
  bool hasPrimaryContext(c10::DeviceIndex device_index) const override;
  void init() const override;
  c10::DeviceIndex deviceCount() const override;
  void setCurrentDevice(c10::DeviceIndex device) const override;
  c10::DeviceIndex getCurrentDevice() const override;
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex device) const override;
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex device) const override;
  at::Generator getNewGenerator(c10::DeviceIndex device_index = -1) const override;
  void resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize) const override;
  // Pinned host memory: the caching host allocator (tensor.pin_memory(), is_pinned()).
  bool isPinnedPtr(const void* data) const override;
  at::Allocator* getPinnedMemoryAllocator() const override;
#endif
};

}  // namespace c10_npu
