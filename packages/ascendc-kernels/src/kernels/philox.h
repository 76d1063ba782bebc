// Counter-based Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy
// as 1, 2, 3", SC'11) and the conversions of its words into the distributions
// of the random kernels.
//
// Element i of a random kernel launched with (seed, offset) reads the block
// Philox4x32-10(counter = {lo(i), hi(i), lo(offset), hi(offset)},
//               key     = {lo(seed), hi(seed)}),
// so a value depends only on (seed, offset, i): never on the number of cores,
// the tiling, or which core computes it. Successive launches of one generator
// advance `offset` (the torch-side generator hands out (seed, offset) pairs).
#ifndef ASCENDC_SIM_KERNELS_PHILOX_H
#define ASCENDC_SIM_KERNELS_PHILOX_H

#include <math.h>
#include <stdint.h>

#include "kernel_operator.h"
#include "kernels/philox_args.h"

namespace ascendc_sim {
namespace kernels {

struct PhiloxBlock {
  uint32_t w[4];
};

__aicore__ inline PhiloxBlock Philox4x32_10(uint64_t index, const PhiloxArgs& args) {
  constexpr uint32_t kMul0 = 0xD2511F53u;
  constexpr uint32_t kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u;
  constexpr uint32_t kWeyl1 = 0xBB67AE85u;
  uint32_t c0 = static_cast<uint32_t>(index);
  uint32_t c1 = static_cast<uint32_t>(index >> 32);
  uint32_t c2 = static_cast<uint32_t>(args.offset);
  uint32_t c3 = static_cast<uint32_t>(args.offset >> 32);
  uint32_t k0 = static_cast<uint32_t>(args.seed);
  uint32_t k1 = static_cast<uint32_t>(args.seed >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(kMul0) * c0;
    const uint64_t p1 = static_cast<uint64_t>(kMul1) * c2;
    const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c1 = static_cast<uint32_t>(p1);
    c3 = static_cast<uint32_t>(p0);
    c0 = n0;
    c2 = n2;
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  return PhiloxBlock{{c0, c1, c2, c3}};
}

// [0, 1) with 24 random bits (float) or 53 (double), as torch's CUDA generator does.
__aicore__ inline float UniformFloat(uint32_t w) { return static_cast<float>(w >> 8) * (1.0f / 16777216.0f); }
__aicore__ inline double UniformDouble(uint32_t hi, uint32_t lo) {
  const uint64_t bits = (static_cast<uint64_t>(hi) << 32 | lo) >> 11;
  return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}

// One standard normal value by Box-Muller from the block (the first word pair,
// or all four words for double precision); 1 - u keeps the log argument in (0, 1].
__aicore__ inline float NormalFloat(const PhiloxBlock& b) {
  const float u1 = 1.0f - UniformFloat(b.w[0]);
  const float u2 = UniformFloat(b.w[1]);
  return sqrtf(-2.0f * logf(u1)) * cosf(6.2831853071795864769f * u2);
}
__aicore__ inline double NormalDouble(const PhiloxBlock& b) {
  const double u1 = 1.0 - UniformDouble(b.w[0], b.w[1]);
  const double u2 = UniformDouble(b.w[2], b.w[3]);
  return sqrt(-2.0 * log(u1)) * cos(6.2831853071795864769 * u2);
}

// A Bernoulli draw: u < p with u in [0, 1) from 32 bits (p = 0 never, p = 1 always).
__aicore__ inline bool BernoulliDraw(uint32_t w, double p) {
  return static_cast<double>(w) * (1.0 / 4294967296.0) < p;
}

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_PHILOX_H
