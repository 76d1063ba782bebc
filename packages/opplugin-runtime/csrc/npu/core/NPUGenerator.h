// Random number generator of the npu device. The simulated device has no RNG
// kernels, so the generator owns a CPU generator that does the work: the CPU
// fallback hands it to CPU kernels in place of the npu generator, which gives
// per-device, seedable, deterministic randomness for every random op.
#pragma once

#include <ATen/core/Generator.h>
#include <c10/core/GeneratorImpl.h>

#include "npu/core/TorchCompat.h"

namespace c10_npu {

struct NPUGeneratorImpl final : public c10::GeneratorImpl {
  explicit NPUGeneratorImpl(c10::DeviceIndex device_index, uint64_t seed = c10::default_rng_seed_val);
  ~NPUGeneratorImpl() override = default;

  void set_current_seed(uint64_t seed) override;
  uint64_t current_seed() const override;
  uint64_t seed() override;
#if NPU_GENERATOR_HAS_OFFSET
  void set_offset(uint64_t offset) override;
  uint64_t get_offset() const override;
#endif
  void set_state(const c10::TensorImpl& new_state) override;
  c10::intrusive_ptr<c10::TensorImpl> get_state() const override;

  static c10::DeviceType device_type() { return c10::DeviceType::PrivateUse1; }

  // The CPU generator doing the work (what CPU kernels receive).
  const at::Generator& cpu_generator() const { return cpu_generator_; }

 private:
  NPUGeneratorImpl* clone_impl() const override;

  at::Generator cpu_generator_;
};

// The default generator of `device_index` (-1: current device), created on first use.
const at::Generator& getDefaultNPUGenerator(c10::DeviceIndex device_index = -1);

// A new generator for `device_index` (-1: current device).
at::Generator createNPUGenerator(c10::DeviceIndex device_index = -1);

// The CPU generator behind an npu generator; `gen` must be an npu generator.
at::Generator cpuGeneratorOf(const at::Generator& gen);

}  // namespace c10_npu
