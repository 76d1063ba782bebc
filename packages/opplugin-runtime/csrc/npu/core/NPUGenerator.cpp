#include "npu/core/NPUGenerator.h"

#include <array>
#include <mutex>

#include <ATen/CPUGeneratorImpl.h>
#include <c10/util/Exception.h>

#include "npu/core/NPUFunctions.h"

namespace c10_npu {

NPUGeneratorImpl::NPUGeneratorImpl(c10::DeviceIndex device_index, uint64_t seed)
    : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, device_index),
                         c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)),
      cpu_generator_(at::detail::createCPUGenerator(seed)) {}

void NPUGeneratorImpl::set_current_seed(uint64_t seed) {
  cpu_generator_.set_current_seed(seed);
}

uint64_t NPUGeneratorImpl::current_seed() const {
  return cpu_generator_.current_seed();
}

uint64_t NPUGeneratorImpl::seed() {
  return cpu_generator_.seed();
}

#if NPU_GENERATOR_HAS_OFFSET
void NPUGeneratorImpl::set_offset(uint64_t offset) {
  cpu_generator_.set_offset(offset);
}

uint64_t NPUGeneratorImpl::get_offset() const {
  return cpu_generator_.get_offset();
}
#endif

void NPUGeneratorImpl::set_state(const c10::TensorImpl& new_state) {
  cpu_generator_.unsafeGetGeneratorImpl()->set_state(new_state);
}

c10::intrusive_ptr<c10::TensorImpl> NPUGeneratorImpl::get_state() const {
  return cpu_generator_.unsafeGetGeneratorImpl()->get_state();
}

NPUGeneratorImpl* NPUGeneratorImpl::clone_impl() const {
  auto* copy = new NPUGeneratorImpl(device().index());
  copy->cpu_generator_ = cpu_generator_.clone();
  return copy;
}

const at::Generator& getDefaultNPUGenerator(c10::DeviceIndex device_index) {
  static std::array<at::Generator, kMaxDevices> generators;
  static std::array<std::once_flag, kMaxDevices> created;
  const c10::DeviceIndex device = device_index < 0 ? current_device() : device_index;
  check_device_index(device, "getDefaultNPUGenerator");
  std::call_once(created[device], [device] {
    generators[device] = at::make_generator<NPUGeneratorImpl>(device);
  });
  return generators[device];
}

at::Generator createNPUGenerator(c10::DeviceIndex device_index) {
  const c10::DeviceIndex device = device_index < 0 ? current_device() : device_index;
  check_device_index(device, "createNPUGenerator");
  return at::make_generator<NPUGeneratorImpl>(device);
}

at::Generator cpuGeneratorOf(const at::Generator& gen) {
  auto* impl = dynamic_cast<NPUGeneratorImpl*>(gen.unsafeGetGeneratorImpl());
  TORCH_CHECK(impl != nullptr, "expected an npu generator, got a generator for ", gen.device());
  return impl->cpu_generator();
}

}  // namespace c10_npu
