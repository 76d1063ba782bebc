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
  // Each group exists from the release its switch names (npu/core/TorchCompat.h).
#if NPU_HOOKS_HAS_PRIMARY_CONTEXT
  bool hasPrimaryContext(c10::DeviceIndex device_index) const override;
  void resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize) const override;
  // Pinned host memory: the caching host allocator (tensor.pin_memory(), is_pinned()).
  at::Allocator* getPinnedMemoryAllocator() const override;
#endif
#if NPU_HOOKS_HAS_DEVICE_INDEX
  c10::DeviceIndex deviceCount() const override;
  void setCurrentDevice(c10::DeviceIndex device) const override;
  c10::DeviceIndex getCurrentDevice() const override;
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex device) const override;
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex device) const override;
#endif
#if NPU_HOOKS_HAS_PINNED_PTR
  bool isPinnedPtr(const void* data) const override;
#endif
#if NPU_HOOKS_HAS_INIT
  void init() const override;
  at::Generator getNewGenerator(c10::DeviceIndex device_index = -1) const override;
#elif NPU_HOOKS_HAS_PRIMARY_CONTEXT
  void initPrivateUse1() const override;
#endif
#if NPU_HOOKS_HAS_AVAILABILITY
  bool isBuilt() const override { return true; }
  bool isAvailable() const override;
#endif
};

}  // namespace c10_npu
