// Vector instructions on LocalTensors: `calCount` elements from the start of
// each operand. dst may be one of the sources (same start); partial overlap is
// not allowed, as on hardware. Loops are written plainly over restrict
// pointers so that the compiler vectorises them; float Add/Sub/Mul/Div/Max/Min/
// Adds/Muls/Maxs/Mins/Exp/Reciprocal/Ceil/Floor/Round/Trunc/MulAddDst/FloorDivide, half/bfloat16_t
// Add/Sub/Mul/Div/Max/Min and Cast between float and half/bfloat16_t run on the simulated vector unit (aclsim* in
// libascendcl, the host's widest SIMD chosen at run time).
#ifndef ASCENDC_SIM_KERNEL_VECTOR_OPS_H
#define ASCENDC_SIM_KERNEL_VECTOR_OPS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "ascendc_sim/kernel/arith.h"
#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"

namespace AscendC {
namespace detail {

template <typename T>
inline void CheckOperand(const char* op, const char* role, const LocalTensor<T>& t, uint32_t count) {
  if (t.GetPhyAddr() == nullptr) ascendc_sim::KernelFail("%s: %s is not an allocated local tensor", op, role);
  if (count > t.GetSize()) {
    ascendc_sim::KernelFail("%s: calCount %u exceeds %s's %u elements", op, count, role, t.GetSize());
  }
}

template <typename T>
inline typename Arith<T>::Storage* Raw(const LocalTensor<T>& t) {
  return reinterpret_cast<typename Arith<T>::Storage*>(t.GetPhyAddr());
}

template <typename T, typename Op>
inline void BinaryLoop(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                       uint32_t n, Op op) {
  using A = Arith<T>;
  using S = typename A::Storage;
  S* __restrict d = Raw(dst);
  const S* __restrict a = Raw(src0);
  const S* __restrict b = Raw(src1);
  for (uint32_t i = 0; i < n; ++i) d[i] = A::Store(op(A::Load(a[i]), A::Load(b[i])));
}

template <typename T, typename Op>
inline void UnaryLoop(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n, Op op) {
  using A = Arith<T>;
  using S = typename A::Storage;
  S* __restrict d = Raw(dst);
  const S* __restrict a = Raw(src);
  for (uint32_t i = 0; i < n; ++i) d[i] = A::Store(op(A::Load(a[i])));
}

template <typename T>
inline void CheckBinary(const char* op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                        const LocalTensor<T>& src1, uint32_t n) {
  CheckOperand(op, "dst", dst, n);
  CheckOperand(op, "src0", src0, n);
  CheckOperand(op, "src1", src1, n);
}

template <typename T>
inline void CheckUnary(const char* op, const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n) {
  CheckOperand(op, "dst", dst, n);
  CheckOperand(op, "src", src, n);
}

template <typename T>
using ComputeOf = typename Arith<T>::Compute;

// half and bfloat16_t, which the vector unit converts to and from float; their ACL type.
template <typename T>
constexpr bool kIsTwoByteFloat = std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;
template <typename T>
constexpr aclDataType kTwoByteFloatType = std::is_same<T, half>::value ? ACL_FLOAT16 : ACL_BF16;

// The floating types whose Add/Sub/Mul/Div/Max/Min run on the vector unit (2-byte ones through float32).
template <typename T>
constexpr bool kBinaryOnVectorUnit = std::is_same<T, float>::value || kIsTwoByteFloat<T>;

template <typename T>
inline void VectorUnitBinary(aclsimVectorOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                             const LocalTensor<T>& src1, uint32_t n) {
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorBinaryF32(op, dst.GetPhyAddr(), src0.GetPhyAddr(), src1.GetPhyAddr(), n);
  } else {
    aclsimVectorBinaryB16(kTwoByteFloatType<T>, op, Raw(dst), Raw(src0), Raw(src1), n);
  }
}

// exp on float written so that loops over it vectorise (no libm call): Cody-Waite
// range reduction x = n ln2 + r, a degree-6 polynomial for e^r (about 1 ulp),
// 2^n applied in two halves so that subnormal results come out right.
__attribute__((always_inline)) inline float ExpFloat(float x) {
  float xc = x > 89.0f ? 89.0f : x;
  xc = xc < -104.0f ? -104.0f : xc;
  const float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  // round to nearest
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni / 2;
  const int32_t n2 = ni - n1;
  const uint32_t b1 = static_cast<uint32_t>(n1 + 127) << 23;
  const uint32_t b2 = static_cast<uint32_t>(n2 + 127) << 23;
  float s1, s2;
  memcpy(&s1, &b1, sizeof(s1));
  memcpy(&s2, &b2, sizeof(s2));
  float result = p * s1 * s2;
  result = x > 88.7228394f ? HUGE_VALF : result;
  return x != x ? x : result;
}

template <typename C>
inline C ExpValue(C a) {
  if constexpr (std::is_same<C, float>::value) {
    return ExpFloat(a);
  } else {
    return static_cast<C>(exp(a));
  }
}

// v rounded to T's precision, as a float (float: v itself).
template <typename T>
inline float RoundedTo(float v) {
  if constexpr (std::is_same<T, half>::value) {
    return ascendc_sim::RoundToHalf(v);
  } else if constexpr (std::is_same<T, bfloat16_t>::value) {
    return ascendc_sim::RoundToBf16(v);
  } else {
    return v;
  }
}

// FloorDivide of m float values of T (float, or half/bfloat16_t each step rounded to T) into out
// (not a source): the branch-free form for every element, then the general one for those it misses.
template <typename T>
__attribute__((always_inline)) inline void FloorDivideChunk(float* out, const float* a, const float* b, uint32_t m) {
  const auto round = [](float v) { return RoundedTo<T>(v); };
  uint32_t slow = 0;
  for (uint32_t i = 0; i < m; ++i) {
    out[i] = FloorDivideFast(a[i], b[i], round);
    slow |= IsFastFloorDivision(a[i], b[i]) ? 0u : 1u;
  }
  for (uint32_t i = 0; slow != 0 && i < m; ++i) {
    if (!IsFastFloorDivision(a[i], b[i])) out[i] = FloorDivideFloat(a[i], b[i], round);
  }
}

}  // namespace detail

// ---- binary ----
template <typename T>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  detail::CheckBinary("Add", dst, src0, src1, calCount);
  if constexpr (detail::kBinaryOnVectorUnit<T>) {
    detail::VectorUnitBinary(ACLSIM_VEC_ADD, dst, src0, src1, calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::BinaryLoop(dst, src0, src1, calCount, [](C a, C b) { return detail::AddValues(a, b); });
  }
}

template <typename T>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  detail::CheckBinary("Sub", dst, src0, src1, calCount);
  if constexpr (detail::kBinaryOnVectorUnit<T>) {
    detail::VectorUnitBinary(ACLSIM_VEC_SUB, dst, src0, src1, calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::BinaryLoop(dst, src0, src1, calCount, [](C a, C b) { return detail::SubValues(a, b); });
  }
}

template <typename T>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  detail::CheckBinary("Mul", dst, src0, src1, calCount);
  if constexpr (detail::kBinaryOnVectorUnit<T>) {
    detail::VectorUnitBinary(ACLSIM_VEC_MUL, dst, src0, src1, calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::BinaryLoop(dst, src0, src1, calCount, [](C a, C b) { return detail::MulValues(a, b); });
  }
}

// Floating types only, as on the vector unit.
template <typename T>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Div supports floating types");
  detail::CheckBinary("Div", dst, src0, src1, calCount);
  if constexpr (detail::kBinaryOnVectorUnit<T>) {
    detail::VectorUnitBinary(ACLSIM_VEC_DIV, dst, src0, src1, calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::BinaryLoop(dst, src0, src1, calCount, [](C a, C b) { return a / b; });
  }
}

template <typename T>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  detail::CheckBinary("Max", dst, src0, src1, calCount);
  if constexpr (detail::kBinaryOnVectorUnit<T>) {
    detail::VectorUnitBinary(ACLSIM_VEC_MAX, dst, src0, src1, calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::BinaryLoop(dst, src0, src1, calCount, [](C a, C b) { return a > b ? a : b; });
  }
}

template <typename T>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           uint32_t calCount) {
  detail::CheckBinary("Min", dst, src0, src1, calCount);
  if constexpr (detail::kBinaryOnVectorUnit<T>) {
    detail::VectorUnitBinary(ACLSIM_VEC_MIN, dst, src0, src1, calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::BinaryLoop(dst, src0, src1, calCount, [](C a, C b) { return a < b ? a : b; });
  }
}

// Clamp of half/bfloat16_t to float bounds (not NaN) in one vector-unit pass: the bits of Cast to
// float, Maxs(lo), Mins(hi), a NaN of src selected back, and Cast back.
template <typename T>
__aicore__ inline void ClampScalars(const LocalTensor<T>& dst, const LocalTensor<T>& src, float lo, float hi,
                                    uint32_t calCount) {
  static_assert(detail::kIsTwoByteFloat<T>, "ClampScalars is an instruction of half and bfloat16_t");
  detail::CheckUnary("ClampScalars", dst, src, calCount);
  aclsimVectorClampB16(detail::kTwoByteFloatType<T>, detail::Raw(dst), detail::Raw(src), lo, hi, calCount);
}

// ---- unary ----
template <typename T>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(!std::is_same<T, bool>::value, "Abs is not defined for bool");
  detail::CheckUnary("Abs", dst, src, calCount);
  if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
    uint16_t* __restrict d = detail::Raw(dst);
    const uint16_t* __restrict a = detail::Raw(src);
    for (uint32_t i = 0; i < calCount; ++i) d[i] = static_cast<uint16_t>(a[i] & 0x7fffu);  // exact: clear the sign
  } else {
    detail::UnaryLoop(dst, src, calCount, [](T a) { return detail::AbsValue(a); });
  }
}

template <typename T>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Exp supports floating types");
  detail::CheckUnary("Exp", dst, src, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorExpF32(dst.GetPhyAddr(), src.GetPhyAddr(), calCount);  // the simulator's vector unit
  } else {
    using C = detail::ComputeOf<T>;
    detail::UnaryLoop(dst, src, calCount, [](C a) { return detail::ExpValue(a); });
  }
}

// Sigmoid (Ascend C's activation library): 1 / (1 + e^-src) as Muls by -1, Exp, Adds 1 and Reciprocal;
// float in one pass on the vector unit (the same roundings; the -1 a run-time scalar, so that a NaN
// keeps its sign bit as through Muls).
template <typename T>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Sigmoid supports floating types");
  detail::CheckUnary("Sigmoid", dst, src, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorUnaryF32(ACLSIM_VEC_SIGMOID, dst.GetPhyAddr(), src.GetPhyAddr(), -1.0f, calCount);
  } else {
    Muls(dst, src, T(-1), calCount);
    Exp(dst, dst, calCount);
    Adds(dst, dst, T(1), calCount);
    Reciprocal(dst, dst, calCount);
  }
}

template <typename T>
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Ln supports floating types");
  detail::CheckUnary("Ln", dst, src, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorMathF32(ACLSIM_MATH_LOG, dst.GetPhyAddr(), src.GetPhyAddr(), calCount);  // the vector unit
  } else {
    using C = detail::ComputeOf<T>;
    detail::UnaryLoop(dst, src, calCount, [](C a) { return static_cast<C>(log(a)); });
  }
}

template <typename T>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Sqrt supports floating types");
  detail::CheckUnary("Sqrt", dst, src, calCount);
  using C = detail::ComputeOf<T>;
  detail::UnaryLoop(dst, src, calCount, [](C a) { return static_cast<C>(sqrt(a)); });
}

template <typename T>
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Rsqrt supports floating types");
  detail::CheckUnary("Rsqrt", dst, src, calCount);
  using C = detail::ComputeOf<T>;
  detail::UnaryLoop(dst, src, calCount, [](C a) { return C(1) / static_cast<C>(sqrt(a)); });
}

template <typename T>
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Reciprocal supports floating types");
  detail::CheckUnary("Reciprocal", dst, src, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorUnaryF32(ACLSIM_VEC_RECIPROCAL, dst.GetPhyAddr(), src.GetPhyAddr(), 0.0f, calCount);
    return;
  }
  using C = detail::ComputeOf<T>;
  detail::UnaryLoop(dst, src, calCount, [](C a) { return C(1) / a; });
}

template <typename T>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  detail::CheckUnary("Relu", dst, src, calCount);
  using C = detail::ComputeOf<T>;
  detail::UnaryLoop(dst, src, calCount, [](C a) { return a < C(0) ? C(0) : a; });  // NaN stays NaN
}

// Ceil, Floor, Round (half to even) and Trunc (Ascend C's math library): float, half and bfloat16_t on the
// vector unit.
#define ASCENDC_SIM_ROUNDING(NAME, MODE, OP)                                                             \
  template <typename T>                                                                                  \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) { \
    static_assert(detail::kIsFloatLike<T>, #NAME " supports floating types");                           \
    detail::CheckUnary(#NAME, dst, src, calCount);                                                       \
    if constexpr (std::is_same<T, float>::value) {                                                       \
      aclsimVectorUnaryF32(OP, dst.GetPhyAddr(), src.GetPhyAddr(), 0.0f, calCount);                      \
    } else if constexpr (detail::kIsTwoByteFloat<T>) {                                                   \
      aclsimVectorRoundB16(detail::kTwoByteFloatType<T>, OP, detail::Raw(dst), detail::Raw(src), calCount); \
    } else {                                                                                             \
      using C = detail::ComputeOf<T>;                                                                    \
      detail::UnaryLoop(dst, src, calCount, [](C a) { return detail::RoundToIntegral<MODE>(a); });       \
    }                                                                                                    \
  }

ASCENDC_SIM_ROUNDING(Ceil, RoundMode::CAST_CEIL, ACLSIM_VEC_CEIL)
ASCENDC_SIM_ROUNDING(Floor, RoundMode::CAST_FLOOR, ACLSIM_VEC_FLOOR)
ASCENDC_SIM_ROUNDING(Round, RoundMode::CAST_RINT, ACLSIM_VEC_ROUND)
ASCENDC_SIM_ROUNDING(Trunc, RoundMode::CAST_TRUNC, ACLSIM_VEC_TRUNC)
#undef ASCENDC_SIM_ROUNDING

// ---- with a scalar (computed in the compute type: float for half/bfloat16_t) ----
template <typename T, typename U>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, U scalarValue, uint32_t calCount) {
  detail::CheckUnary("Adds", dst, src, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorScalarF32(ACLSIM_VEC_ADD, dst.GetPhyAddr(), src.GetPhyAddr(), detail::ToCompute<T>(scalarValue),
                          calCount);
  } else {
    using C = detail::ComputeOf<T>;
    const C s = detail::ToCompute<T>(scalarValue);
    detail::UnaryLoop(dst, src, calCount, [s](C a) { return detail::AddValues(a, s); });
  }
}

template <typename T, typename U>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, U scalarValue, uint32_t calCount) {
  detail::CheckUnary("Muls", dst, src, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorScalarF32(ACLSIM_VEC_MUL, dst.GetPhyAddr(), src.GetPhyAddr(), detail::ToCompute<T>(scalarValue),
                          calCount);
  } else {
    using C = detail::ComputeOf<T>;
    const C s = detail::ToCompute<T>(scalarValue);
    detail::UnaryLoop(dst, src, calCount, [s](C a) { return detail::MulValues(a, s); });
  }
}

template <typename T, typename U>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, U scalarValue, uint32_t calCount) {
  detail::CheckUnary("Maxs", dst, src, calCount);
  using C = detail::ComputeOf<T>;
  const C s = detail::ToCompute<T>(scalarValue);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorUnaryF32(ACLSIM_VEC_MAXS, dst.GetPhyAddr(), src.GetPhyAddr(), s, calCount);
    return;
  }
  detail::UnaryLoop(dst, src, calCount, [s](C a) { return a < s ? s : a; });  // NaN stays NaN
}

template <typename T, typename U>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, U scalarValue, uint32_t calCount) {
  detail::CheckUnary("Mins", dst, src, calCount);
  using C = detail::ComputeOf<T>;
  const C s = detail::ToCompute<T>(scalarValue);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorUnaryF32(ACLSIM_VEC_MINS, dst.GetPhyAddr(), src.GetPhyAddr(), s, calCount);
    return;
  }
  detail::UnaryLoop(dst, src, calCount, [s](C a) { return a < s ? a : s; });
}

// dst = dst + src * scalarValue: one rounding for floating compute types (a fused multiply-add, as
// CPU's vectorized add with alpha and lerp), wrapping for integers.
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<T>& src, U scalarValue, uint32_t calCount) {
  detail::CheckUnary("Axpy", dst, src, calCount);
  using A = detail::Arith<T>;
  using C = typename A::Compute;
  using S = typename A::Storage;
  const C s = detail::ToCompute<T>(scalarValue);
  S* __restrict d = detail::Raw(dst);
  const S* __restrict a = detail::Raw(src);
  for (uint32_t i = 0; i < calCount; ++i) {
    if constexpr (detail::kIsFloatLike<C>) {
      d[i] = A::Store(std::fma(A::Load(a[i]), s, A::Load(d[i])));
    } else {
      d[i] = A::Store(detail::AddValues(A::Load(d[i]), detail::MulValues(A::Load(a[i]), s)));
    }
  }
}

// dst = src0 * src1 + dst (AscendC::MulAddDst): one rounding for floating compute types (a fused
// multiply-add, as the vector unit and CPU's vectorized kernels do), wrapping for integers.
template <typename T>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                 uint32_t calCount) {
  detail::CheckBinary("MulAddDst", dst, src0, src1, calCount);
  using A = detail::Arith<T>;
  using S = typename A::Storage;
  S* __restrict d = detail::Raw(dst);
  const S* __restrict a = detail::Raw(src0);
  const S* __restrict b = detail::Raw(src1);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorMulAddDstF32(d, a, b, calCount);  // the simulator's vector unit
    return;
  }
  for (uint32_t i = 0; i < calCount; ++i) {
    if constexpr (detail::kIsFloatLike<typename A::Compute>) {
      d[i] = A::Store(std::fma(A::Load(a[i]), A::Load(b[i]), A::Load(d[i])));
    } else {
      d[i] = A::Store(detail::AddValues(detail::MulValues(A::Load(a[i]), A::Load(b[i])), A::Load(d[i])));
    }
  }
}

// Python's floor division (the simulator's; Ascend C composes it): float, and half/bfloat16_t with
// each step rounded to T (CPU's results), on the simulated vector unit; double as FloorDivideFloat.
template <typename T>
__aicore__ inline void FloorDivide(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                   uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "FloorDivide supports floating types");
  detail::CheckBinary("FloorDivide", dst, src0, src1, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorFloorDivide(ACL_FLOAT, dst.GetPhyAddr(), src0.GetPhyAddr(), src1.GetPhyAddr(), calCount);
  } else if constexpr (detail::kIsTwoByteFloat<T>) {
    aclsimVectorFloorDivide(detail::kTwoByteFloatType<T>, dst.GetPhyAddr(), src0.GetPhyAddr(), src1.GetPhyAddr(),
                            calCount);
  } else {
    const auto exact = [](T v) { return v; };
    detail::BinaryLoop(dst, src0, src1, calCount, [exact](T a, T b) { return detail::FloorDivideFloat(a, b, exact); });
  }
}

// dst[i] = scalarValue
template <typename T, typename U>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, U scalarValue, uint32_t calCount) {
  detail::CheckOperand("Duplicate", "dst", dst, calCount);
  using A = detail::Arith<T>;
  using S = typename A::Storage;
  const S v = A::Store(detail::ToCompute<T>(scalarValue));
  S* __restrict d = detail::Raw(dst);
  for (uint32_t i = 0; i < calCount; ++i) d[i] = v;
}

// Element type conversion; `round` applies to floating -> integer (CAST_NONE truncates).
template <typename D, typename S>
__aicore__ inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode round, uint32_t calCount) {
  detail::CheckOperand("Cast", "dst", dst, calCount);
  detail::CheckOperand("Cast", "src", src, calCount);
  using DS = typename detail::Arith<D>::Storage;
  using SS = typename detail::Arith<S>::Storage;
  DS* __restrict d = detail::Raw(dst);
  const SS* __restrict a = detail::Raw(src);
  if constexpr (std::is_same<D, float>::value && detail::kIsTwoByteFloat<S>) {
    aclsimVectorCastToF32(detail::kTwoByteFloatType<S>, d, a, calCount);  // the simulator's vector unit
  } else if constexpr (std::is_same<S, float>::value && detail::kIsTwoByteFloat<D>) {
    aclsimVectorCastFromF32(detail::kTwoByteFloatType<D>, d, a, calCount);  // rounds to nearest even in every mode
  } else {
    for (uint32_t i = 0; i < calCount; ++i) d[i] = detail::ConvertValue<D, S>(a[i], round);
  }
}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_VECTOR_OPS_H
