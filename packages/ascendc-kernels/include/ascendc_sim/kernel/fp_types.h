// IEEE binary16 (`half`) and bfloat16 (`bfloat16_t`) value types for kernels.
// Both are 2-byte, trivially copyable structs that convert to and from float;
// arithmetic happens in float (the conversions are implicit both ways, so
// `half z = x + y;` computes in float and rounds once to nearest-even).
// The bit-level conversions are branch-free so that loops over them vectorise.
#ifndef ASCENDC_SIM_KERNEL_FP_TYPES_H
#define ASCENDC_SIM_KERNEL_FP_TYPES_H

#include <stdint.h>
#include <string.h>

#include <type_traits>

namespace ascendc_sim {

inline uint32_t FloatToBits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}

inline float BitsToFloat(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}

// float -> binary16, round to nearest even; overflow gives inf, NaN stays NaN. The bits in the
// low half of a uint32 (no 16-bit lanes, so that loops over float values vectorise).
inline uint32_t FloatToHalfBitsWide(float f) {
  const float scale_to_inf = BitsToFloat(0x77800000u);   // 2^112
  const float scale_to_zero = BitsToFloat(0x08800000u);  // 2^-110
  const uint32_t w = FloatToBits(f);
  float base = (BitsToFloat(w & 0x7fffffffu) * scale_to_inf) * scale_to_zero;
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xff000000u;
  bias = bias < 0x71000000u ? 0x71000000u : bias;
  base = BitsToFloat((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = FloatToBits(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007c00u;
  const uint32_t mantissa_bits = bits & 0x00000fffu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return (sign >> 16) | (shl1_w > 0xff000000u ? 0x7e00u : nonsign);
}

inline uint16_t FloatToHalfBits(float f) { return static_cast<uint16_t>(FloatToHalfBitsWide(f)); }

// binary16 (in the low half of h) -> float (exact).
inline float HalfBitsToFloatWide(uint32_t h) {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xe0u << 23;
  const float exp_scale = BitsToFloat(0x07800000u);  // 2^-112
  const float normalized = BitsToFloat((two_w >> 4) + exp_offset) * exp_scale;
  const uint32_t magic_mask = 126u << 23;
  const float magic_bias = 0.5f;
  const float denormalized = BitsToFloat((two_w >> 17) | magic_mask) - magic_bias;
  const uint32_t denormalized_cutoff = 1u << 27;
  const uint32_t result =
      sign | (two_w < denormalized_cutoff ? FloatToBits(denormalized) : FloatToBits(normalized));
  return BitsToFloat(result);
}

inline float HalfBitsToFloat(uint16_t h) { return HalfBitsToFloatWide(h); }

// float -> bfloat16, round to nearest even; NaN stays (quiet) NaN. The bits in the low half of a uint32.
inline uint32_t FloatToBf16BitsWide(float f) {
  const uint32_t u = FloatToBits(f);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const bool is_nan = (u & 0x7fffffffu) > 0x7f800000u;
  return is_nan ? ((u >> 16) | 0x40u) : rounded;
}

inline uint16_t FloatToBf16Bits(float f) { return static_cast<uint16_t>(FloatToBf16BitsWide(f)); }

inline float Bf16BitsToFloat(uint16_t b) { return BitsToFloat(static_cast<uint32_t>(b) << 16); }

// f rounded to the nearest binary16 / bfloat16 value, as a float (in 32-bit lanes: loops vectorise).
inline float RoundToHalf(float f) { return HalfBitsToFloatWide(FloatToHalfBitsWide(f)); }
inline float RoundToBf16(float f) { return BitsToFloat(FloatToBf16BitsWide(f) << 16); }

struct Half {
  uint16_t bits;

  Half() = default;
  // Implicit from any arithmetic type, like the device type.
  template <typename U, typename = typename std::enable_if<std::is_arithmetic<U>::value>::type>
  Half(U v) : bits(FloatToHalfBits(static_cast<float>(v))) {}  // NOLINT
  operator float() const { return HalfBitsToFloat(bits); }  // NOLINT
  static Half FromBits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
};

struct BFloat16 {
  uint16_t bits;

  BFloat16() = default;
  // Implicit from any arithmetic type, like the device type.
  template <typename U, typename = typename std::enable_if<std::is_arithmetic<U>::value>::type>
  BFloat16(U v) : bits(FloatToBf16Bits(static_cast<float>(v))) {}  // NOLINT
  operator float() const { return Bf16BitsToFloat(bits); }  // NOLINT
  static BFloat16 FromBits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "2-byte float types");

}  // namespace ascendc_sim

// The spellings kernels use on hardware.
using half = ascendc_sim::Half;
using bfloat16_t = ascendc_sim::BFloat16;

#endif  // ASCENDC_SIM_KERNEL_FP_TYPES_H
