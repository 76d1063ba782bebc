#include "npu/core/NPUGenerator.h"

#include <array>
#include <cstring>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/EmptyTensor.h>
#include <c10/core/TensorImpl.h>
#include <c10/util/Exception.h>

#include "npu/core/NPUFunctions.h"

namespace c10_npu {
namespace {

// splitmix64 finaliser: spreads (seed, offset) over a CPU generator's seed.
uint64_t MixSeed(uint64_t seed, uint64_t offset) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (offset + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

NPUGeneratorImpl::NPUGeneratorImpl(c10::DeviceIndex device_index, uint64_t seed)
    : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, device_index),
                         c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)),
      seed_(seed) {}

// The mutex_ of c10::GeneratorImpl is taken by torch's Python bindings around
// these calls (manual_seed, get_state, ...); kernels take it in philox_engine_inputs.
void NPUGeneratorImpl::set_current_seed(uint64_t seed) {
  seed_ = seed;
  philox_offset_ = 0;
}

uint64_t NPUGeneratorImpl::current_seed() const {
  return seed_;
}

uint64_t NPUGeneratorImpl::seed() {
  const uint64_t random = c10::detail::getNonDeterministicRandom(true);
  set_current_seed(random);
  return random;
}

#if NPU_GENERATOR_HAS_OFFSET
void NPUGeneratorImpl::set_offset(uint64_t offset) {
  philox_offset_ = offset;
}

uint64_t NPUGeneratorImpl::get_offset() const {
  return philox_offset_;
}
#endif

void NPUGeneratorImpl::set_state(const c10::TensorImpl& new_state) {
  TORCH_CHECK(new_state.dtype() == caffe2::TypeMeta::Make<uint8_t>() && new_state.device().is_cpu(),
              "npu generator set_state: expected a CPU torch.ByteTensor, got ", new_state.dtype(), " on ",
              new_state.device());
  TORCH_CHECK(static_cast<size_t>(new_state.numel()) == kStateBytes && new_state.is_contiguous(),
              "npu generator set_state: expected a contiguous state of ", kStateBytes, " bytes (seed, offset), got ",
              new_state.numel());
  const auto* bytes = static_cast<const uint8_t*>(new_state.data());
  std::memcpy(&seed_, bytes, sizeof(uint64_t));
  std::memcpy(&philox_offset_, bytes + sizeof(uint64_t), sizeof(uint64_t));
}

c10::intrusive_ptr<c10::TensorImpl> NPUGeneratorImpl::get_state() const {
  at::TensorBase state = at::detail::empty_cpu({static_cast<int64_t>(kStateBytes)}, c10::ScalarType::Byte);
  uint8_t* bytes = state.data_ptr<uint8_t>();
  std::memcpy(bytes, &seed_, sizeof(uint64_t));
  std::memcpy(bytes + sizeof(uint64_t), &philox_offset_, sizeof(uint64_t));
  return state.getIntrusivePtr();
}

std::pair<uint64_t, uint64_t> NPUGeneratorImpl::philox_engine_inputs(uint64_t increment) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t offset = philox_offset_;
  philox_offset_ += increment;
  return {seed_, offset};
}

NPUGeneratorImpl* NPUGeneratorImpl::clone_impl() const {
  auto* copy = new NPUGeneratorImpl(device().index(), seed_);
  copy->philox_offset_ = philox_offset_;
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

NPUGeneratorImpl* npuGeneratorOrDefault(const c10::optional<at::Generator>& gen, c10::Device device, const char* op) {
  if (gen.has_value() && gen->defined()) {
    auto* impl = dynamic_cast<NPUGeneratorImpl*>(gen->unsafeGetGeneratorImpl());
    TORCH_CHECK(impl != nullptr, op, ": expected a generator for device type npu, got a generator for ",
                gen->device());
    return impl;
  }
  const c10::DeviceIndex index = device.has_index() ? device.index() : current_device();
  return static_cast<NPUGeneratorImpl*>(getDefaultNPUGenerator(index).unsafeGetGeneratorImpl());
}

std::pair<uint64_t, uint64_t> philoxInputsFor(const c10::optional<at::Generator>& gen, c10::Device device,
                                              const char* op) {
  // One offset per launch: element i of a launch draws Philox block (i, offset).
  return npuGeneratorOrDefault(gen, device, op)->philox_engine_inputs(1);
}

at::Generator cpuGeneratorOf(const at::Generator& gen) {
  auto* impl = dynamic_cast<NPUGeneratorImpl*>(gen.unsafeGetGeneratorImpl());
  TORCH_CHECK(impl != nullptr, "expected an npu generator, got a generator for ", gen.device());
  const auto inputs = impl->philox_engine_inputs(1);
  return at::detail::createCPUGenerator(MixSeed(inputs.first, inputs.second));
}

}  // namespace c10_npu
