// Element arithmetic shared by the vector instructions: each element type has a
// storage type (what sits in memory) and a compute type (what the ALU uses:
// float for half/bfloat16_t). Integer arithmetic wraps (two's complement), as
// on the device; bool add/mul are logical or/and.
#ifndef ASCENDC_SIM_KERNEL_ARITH_H
#define ASCENDC_SIM_KERNEL_ARITH_H

#include <math.h>
#include <stdint.h>

#include <cmath>

#include <limits>
#include <type_traits>

#include "ascendc_sim/kernel/fp_types.h"

namespace AscendC {

enum class RoundMode : uint8_t { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

namespace detail {

template <typename T>
struct Arith {
  using Storage = T;
  using Compute = T;
  static inline Compute Load(Storage s) { return s; }
  static inline Storage Store(Compute c) { return c; }
};

template <>
struct Arith<half> {
  using Storage = uint16_t;
  using Compute = float;
  static inline Compute Load(Storage s) { return ascendc_sim::HalfBitsToFloat(s); }
  static inline Storage Store(Compute c) { return ascendc_sim::FloatToHalfBits(c); }
};

template <>
struct Arith<bfloat16_t> {
  using Storage = uint16_t;
  using Compute = float;
  static inline Compute Load(Storage s) { return ascendc_sim::Bf16BitsToFloat(s); }
  static inline Storage Store(Compute c) { return ascendc_sim::FloatToBf16Bits(c); }
};

template <typename T>
constexpr bool kIsFloatLike = std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                              std::is_same<T, bfloat16_t>::value;

template <typename T>
constexpr bool kIsWrappingInt = std::is_integral<T>::value && !std::is_same<T, bool>::value;

// Unsigned type wide enough that products of two values do not promote to int.
template <typename T>
using WrapUnsigned =
    typename std::conditional<(sizeof(T) < sizeof(uint32_t)), uint32_t, typename std::make_unsigned<T>::type>::type;

template <typename C>
inline C AddValues(C a, C b) {
  if constexpr (std::is_same<C, bool>::value) {
    return a || b;
  } else if constexpr (kIsWrappingInt<C>) {
    using U = WrapUnsigned<C>;
    return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename C>
inline C SubValues(C a, C b) {
  static_assert(!std::is_same<C, bool>::value, "Sub is not defined for bool");
  if constexpr (kIsWrappingInt<C>) {
    using U = WrapUnsigned<C>;
    return static_cast<C>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

template <typename C>
inline C MulValues(C a, C b) {
  if constexpr (std::is_same<C, bool>::value) {
    return a && b;
  } else if constexpr (kIsWrappingInt<C>) {
    using U = WrapUnsigned<C>;
    return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <typename C>
inline C AbsValue(C a) {
  if constexpr (std::is_floating_point<C>::value) {
    return fabs(a);
  } else if constexpr (std::is_unsigned<C>::value) {
    return a;
  } else {
    using U = WrapUnsigned<C>;
    return a < 0 ? static_cast<C>(U(0) - static_cast<U>(a)) : a;
  }
}

// a rounded to an integral value as RoundMode kMode says (CAST_RINT: nearest, ties to even;
// CAST_FLOOR, CAST_CEIL, CAST_TRUNC), as nearbyint/floor/ceil/trunc give it. For float, branch-free
// so that loops over it vectorise: below 2^23 (x + 2^23) - 2^23 rounds |x| to nearest even, the
// others are integral, infinite or NaN already; the sign is a's (floor(-0.5) is -1, ceil(-0.5) -0).
template <RoundMode kMode, typename C>
inline C RoundToIntegral(C a) {
  if constexpr (std::is_same<C, float>::value) {
    const float magic = 8388608.0f;
    const float m = fabsf(a);
    float r = (m + magic) - magic;
    if constexpr (kMode == RoundMode::CAST_TRUNC) r = r > m ? r - 1.0f : r;
    r = copysignf(r, a);
    if constexpr (kMode == RoundMode::CAST_FLOOR) r = copysignf(r > a ? r - 1.0f : r, a);
    if constexpr (kMode == RoundMode::CAST_CEIL) r = copysignf(r < a ? r + 1.0f : r, a);
    return m < magic ? r : a;
  } else if constexpr (kMode == RoundMode::CAST_FLOOR) {
    return floor(a);
  } else if constexpr (kMode == RoundMode::CAST_CEIL) {
    return ceil(a);
  } else if constexpr (kMode == RoundMode::CAST_TRUNC) {
    return trunc(a);
  } else {
    return nearbyint(a);
  }
}

// Floor division of floats as Python's //: the quotient of a - fmod(a, b), corrected by one when
// the remainder's sign differs from b's and rounded to the nearest integer; a zero quotient takes
// the sign of a / b, division by zero is IEEE's a / b. `round` rounds each step to the stored type.
template <typename C, typename R>
inline C FloorDivideFloat(C a, C b, R round) {
  if (b == 0) return a / b;
  const C mod = round(std::fmod(a, b));
  C quotient = round(round(a - mod) / b);
  if (mod != 0 && ((b < 0) != (mod < 0))) quotient = round(quotient - C(1));
  if (quotient == 0) return std::copysign(C(0), a / b);
  C floored = std::floor(quotient);
  if (round(quotient - floored) > C(0.5)) floored += C(1);
  return round(floored);
}

// Whether FloorDivideFast covers (a, b): b finite and non-zero, |a / b| < 2^29 (so a too).
inline bool IsFastFloorDivision(float a, float b) {
  const double q = static_cast<double>(a) / static_cast<double>(b);
  return fabs(q) < 536870912.0 && fabsf(b) <= 3.40282347e38f;
}

// FloorDivideFloat's value where IsFastFloorDivision, branch-free so that loops vectorise: fmod is
// a - q b in double with q = trunc(a / b) (q b exact below 2^29; a quotient rounded up to the next
// integer leaves a remainder of the wrong sign, which one b corrects).
template <typename R>
inline float FloorDivideFast(float a, float b, R round) {
  const double ad = a;
  const double bd = b;
  double q = ad / bd;
  q = fabs(q) < 536870912.0 ? q : 0.0;
  const double whole = static_cast<double>(static_cast<int32_t>(q));
  double r = ad - whole * bd;
  r = (r != 0 && ((r < 0) != (ad < 0))) ? r + copysign(fabs(bd), ad) : r;
  const float mod = r == 0 ? copysignf(0.0f, a) : static_cast<float>(r);
  float quotient = round(round(a - mod) / b);
  quotient = (mod != 0 && ((b < 0) != (mod < 0))) ? round(quotient - 1.0f) : quotient;
  float floored = RoundToIntegral<RoundMode::CAST_FLOOR>(quotient);
  floored = round(quotient - floored) > 0.5f ? floored + 1.0f : floored;
  return quotient == 0 ? copysignf(0.0f, a / b) : round(floored);
}

// Any scalar value -> the compute type of T.
template <typename T, typename U>
inline typename Arith<T>::Compute ToCompute(U value) {
  using C = typename Arith<T>::Compute;
  if constexpr (std::is_same<C, bool>::value) {
    return static_cast<float>(value) != 0.0f;
  } else {
    return static_cast<C>(value);
  }
}

// float/double -> integer D with the given rounding; NaN gives 0, out-of-range
// values saturate at the int32 (narrow types: then wrap, as C on x86 does) or
// int64 limits.
template <typename D, typename F>
inline D FloatToInt(F v, RoundMode mode) {
  F r;
  switch (mode) {
    case RoundMode::CAST_RINT: r = rint(v); break;
    case RoundMode::CAST_FLOOR: r = floor(v); break;
    case RoundMode::CAST_CEIL: r = ceil(v); break;
    case RoundMode::CAST_ROUND: r = round(v); break;
    default: r = trunc(v); break;
  }
  if constexpr (sizeof(D) == 8) {
    using W = typename std::conditional<std::is_signed<D>::value, int64_t, uint64_t>::type;
    const F hi = static_cast<F>(std::numeric_limits<W>::max());
    const F lo = static_cast<F>(std::numeric_limits<W>::min());
    if (r != r) return D(0);
    if (r >= hi) return static_cast<D>(std::numeric_limits<W>::max());
    if (r <= lo) return static_cast<D>(std::numeric_limits<W>::min());
    return static_cast<D>(static_cast<W>(r));
  } else {
    if (r != r) return D(0);
    if (r >= F(2147483647.0)) return static_cast<D>(INT32_MAX);
    if (r <= F(-2147483648.0)) return static_cast<D>(INT32_MIN);
    return static_cast<D>(static_cast<int32_t>(r));
  }
}

// One element of S -> D (torch semantics: to bool is `!= 0`, float to integer
// truncates by default).
template <typename D, typename S>
inline typename Arith<D>::Storage ConvertValue(typename Arith<S>::Storage stored, RoundMode mode) {
  using Src = typename Arith<S>::Compute;
  const Src v = Arith<S>::Load(stored);
  if constexpr (std::is_same<D, bool>::value) {
    return v != Src(0);
  } else if constexpr (std::is_same<D, half>::value) {
    return ascendc_sim::FloatToHalfBits(static_cast<float>(v));
  } else if constexpr (std::is_same<D, bfloat16_t>::value) {
    return ascendc_sim::FloatToBf16Bits(static_cast<float>(v));
  } else if constexpr (std::is_floating_point<D>::value) {
    return static_cast<D>(v);
  } else if constexpr (std::is_floating_point<Src>::value) {
    return FloatToInt<D>(v, mode);
  } else {
    return static_cast<D>(v);
  }
}

}  // namespace detail
}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_ARITH_H
