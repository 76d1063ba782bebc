// Random number generator of the npu device: a counter-based Philox state
// (seed, offset), as torch's CUDA generator. The device's random kernels
// (aclnnInplaceUniform, aclnnInplaceNormal, aclnnInplaceBernoulli, ...) take the
// pair as arguments; each launch reserves a fresh offset, so the values depend
// only on the seed and on how many random launches came before.
//
// State tensor (get_state/set_state): 16 uint8 bytes, seed then offset (uint64,
// native byte order).
#pragma once

#include <cstdint>
#include <mutex>
#include <utility>

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

  // (seed, offset) for one kernel launch; the offset advances by `increment`.
  // Thread-safe (locks the generator's mutex_).
  std::pair<uint64_t, uint64_t> philox_engine_inputs(uint64_t increment);

  static c10::DeviceType device_type() { return c10::DeviceType::PrivateUse1; }

  static constexpr size_t kStateBytes = 2 * sizeof(uint64_t);

 private:
  NPUGeneratorImpl* clone_impl() const override;

  uint64_t seed_;
  uint64_t philox_offset_ = 0;
};

// The default generator of `device_index` (-1: current device), created on first use.
const at::Generator& getDefaultNPUGenerator(c10::DeviceIndex device_index = -1);

// A new generator for `device_index` (-1: current device).
at::Generator createNPUGenerator(c10::DeviceIndex device_index = -1);

// `gen` when it is an npu generator, else the default generator of `device`
// (what random op kernels use); raises naming `op` for a generator of another device type.
NPUGeneratorImpl* npuGeneratorOrDefault(const c10::optional<at::Generator>& gen, c10::Device device, const char* op);

// (seed, offset) for one random launch of `op` on `device` from `gen` or the device's default.
std::pair<uint64_t, uint64_t> philoxInputsFor(const c10::optional<at::Generator>& gen, c10::Device device,
                                              const char* op);

// For the CPU fallback of random ops without an npu kernel: a new CPU generator
// seeded from the npu generator's next (seed, offset), which it consumes, so
// fallback random ops are seedable and advance the npu generator too.
at::Generator cpuGeneratorOf(const at::Generator& gen);

}  // namespace c10_npu
