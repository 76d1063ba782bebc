#include "npu/core/NPUHooks.h"

#include <c10/util/Exception.h>
#if NPU_GENERATOR_FROM_REGISTRY
#include <ATen/core/GeneratorForPrivateuseone.h>
#endif

#include "acl/acl_rt.h"
#include "npu/core/NPUCachingHostAllocator.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUStorageImpl.h"

namespace c10_npu {

const at::Generator& NPUHooksInterface::getDefaultGenerator(c10::DeviceIndex device_index) NPU_HOOKS_GETDEFAULTGEN_CONST {
  return getDefaultNPUGenerator(device_index);
}

at::Device NPUHooksInterface::getDeviceFromPtr(void* data) const {
  const int32_t device = aclrtPointerGetDevice(data);
  TORCH_CHECK(device >= 0, "getDeviceFromPtr: pointer ", data, " is not npu device memory");
  return at::Device(c10::DeviceType::PrivateUse1, static_cast<c10::DeviceIndex>(device));
}

#if NPU_HOOKS_HAS_PRIMARY_CONTEXT
bool NPUHooksInterface::hasPrimaryContext(c10::DeviceIndex device_index) const {
  // The simulator has no lazily created contexts: a valid device is ready.
  return device_index >= 0 && device_index < device_count();
}

void NPUHooksInterface::resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize) const {
  resize_npu_storage_bytes(storage.unsafeGetStorageImpl(), newsize);
}

at::Allocator* NPUHooksInterface::getPinnedMemoryAllocator() const {
  return NPUCachingHostAllocator::get();
}
#endif

#if NPU_HOOKS_HAS_DEVICE_INDEX
c10::DeviceIndex NPUHooksInterface::deviceCount() const {
  return device_count();
}

void NPUHooksInterface::setCurrentDevice(c10::DeviceIndex device) const {
  set_device(device);
}

c10::DeviceIndex NPUHooksInterface::getCurrentDevice() const {
  return current_device();
}

c10::DeviceIndex NPUHooksInterface::exchangeDevice(c10::DeviceIndex device) const {
  const c10::DeviceIndex previous = current_device();
  set_device(device);
  return previous;
}

c10::DeviceIndex NPUHooksInterface::maybeExchangeDevice(c10::DeviceIndex device) const {
  return exchangeDevice(device);
}
#endif

#if NPU_HOOKS_HAS_PINNED_PTR
bool NPUHooksInterface::isPinnedPtr(const void* data) const {
  return NPUCachingHostAllocator::isPinned(data);
}
#endif

#if NPU_HOOKS_HAS_INIT
void NPUHooksInterface::init() const {
  EnsureAclInitialized();
}

at::Generator NPUHooksInterface::getNewGenerator(c10::DeviceIndex device_index) const {
  return createNPUGenerator(device_index);
}
#elif NPU_HOOKS_HAS_PRIMARY_CONTEXT
void NPUHooksInterface::initPrivateUse1() const {
  EnsureAclInitialized();
}
#endif

#if NPU_GENERATOR_FROM_REGISTRY
// Up to torch 2.6, torch.Generator("npu") asks the generator registry, not the hooks.
REGISTER_GENERATOR_PRIVATEUSE1(createNPUGenerator)
#endif

#if NPU_HOOKS_HAS_AVAILABILITY
bool NPUHooksInterface::isAvailable() const {
  return device_count() > 0;
}
#endif

namespace {
const bool kRegistered = [] {
  // Leaked on purpose: torch keeps the pointer for the life of the process.
  at::RegisterPrivateUse1HooksInterface(new NPUHooksInterface());
  return true;
}();
}  // namespace

}  // namespace c10_npu
