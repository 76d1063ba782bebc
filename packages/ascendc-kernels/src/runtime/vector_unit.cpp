// The simulated vector unit: float32 exp, elementwise arithmetic and sums that
// the kernels' header code calls, so that they run with the host's widest SIMD
// (AVX-512, AVX2, else the baseline SSE2 the library is built for; chosen once
// at run time). Each loop is written once (always inlined into the per-ISA
// functions, so no code compiled for a wider ISA is shared with baseline code).
#include <stdint.h>

#include "ascendc_sim/kernel/vector_ops.h"
#include "ascendc_sim/launch.h"
#include "runtime/config.h"

namespace ascendc_sim {
namespace {

#define ACLSIM_INLINE __attribute__((always_inline)) inline

ACLSIM_INLINE void ExpLoop(float* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = AscendC::detail::ExpFloat(s[i]);
}

template <int Op>
ACLSIM_INLINE float Apply(float a, float b) {
  if constexpr (Op == ACLSIM_VEC_ADD) return a + b;
  if constexpr (Op == ACLSIM_VEC_SUB) return a - b;
  if constexpr (Op == ACLSIM_VEC_MUL) return a * b;
  if constexpr (Op == ACLSIM_VEC_DIV) return a / b;
  if constexpr (Op == ACLSIM_VEC_MAX) return a > b ? a : b;
  return a < b ? a : b;
}

template <int Op>
ACLSIM_INLINE void BinaryLoop(float* d, const float* a, const float* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = Apply<Op>(a[i], b[i]);
}

template <int Op>
ACLSIM_INLINE void ScalarLoop(float* d, const float* a, float s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = Apply<Op>(a[i], s);
}

ACLSIM_INLINE void BinaryAny(int op, float* d, const float* a, const float* b, uint32_t n) {
  switch (op) {
    case ACLSIM_VEC_ADD: BinaryLoop<ACLSIM_VEC_ADD>(d, a, b, n); break;
    case ACLSIM_VEC_SUB: BinaryLoop<ACLSIM_VEC_SUB>(d, a, b, n); break;
    case ACLSIM_VEC_MUL: BinaryLoop<ACLSIM_VEC_MUL>(d, a, b, n); break;
    case ACLSIM_VEC_DIV: BinaryLoop<ACLSIM_VEC_DIV>(d, a, b, n); break;
    case ACLSIM_VEC_MAX: BinaryLoop<ACLSIM_VEC_MAX>(d, a, b, n); break;
    default: BinaryLoop<ACLSIM_VEC_MIN>(d, a, b, n); break;
  }
}

ACLSIM_INLINE void ScalarAny(int op, float* d, const float* a, float s, uint32_t n) {
  if (op == ACLSIM_VEC_ADD) {
    ScalarLoop<ACLSIM_VEC_ADD>(d, a, s, n);
  } else {
    ScalarLoop<ACLSIM_VEC_MUL>(d, a, s, n);
  }
}

// 64 lanes in four independent 16-lane accumulators (a GCC vector type: one
// zmm, two ymm or four xmm each; the plain lane loop is not vectorised well,
// and one accumulator is bound by the add latency), then a fixed pairwise tree.
typedef float Lanes16 __attribute__((vector_size(64)));
typedef float Lanes16Unaligned __attribute__((vector_size(64), aligned(4), may_alias));

ACLSIM_INLINE float SumLoop(const float* a, uint32_t n) {
  Lanes16 acc0 = {}, acc1 = {}, acc2 = {}, acc3 = {};
  uint32_t i = 0;
  for (; i + 64 <= n; i += 64) {
    acc0 += *reinterpret_cast<const Lanes16Unaligned*>(a + i);
    acc1 += *reinterpret_cast<const Lanes16Unaligned*>(a + i + 16);
    acc2 += *reinterpret_cast<const Lanes16Unaligned*>(a + i + 32);
    acc3 += *reinterpret_cast<const Lanes16Unaligned*>(a + i + 48);
  }
  float lanes[64];
  for (uint32_t l = 0; l < 16; ++l) {
    lanes[l] = acc0[l];
    lanes[16 + l] = acc1[l];
    lanes[32 + l] = acc2[l];
    lanes[48 + l] = acc3[l];
  }
  for (uint32_t l = 0; i + l < n; ++l) lanes[l] += a[i + l];
  for (uint32_t w = 32; w > 0; w /= 2) {
    for (uint32_t l = 0; l < w; ++l) lanes[l] += lanes[l + w];
  }
  return lanes[0];
}

// Max/min in 16 lanes of selects that skip NaN (v > m ? v : m keeps m for a
// NaN v); a probe accumulates v - v, which turns NaN after a NaN or infinity.
// Four independent accumulators take 64 values at a time (one is bound by the
// select's latency), folded before the 16-lane loop: the extreme is order-free.
ACLSIM_INLINE float ExtremeLoop(const float* a, uint32_t n, bool isMax, int* sawNan) {
  Lanes16 m, probe = {};
  for (uint32_t l = 0; l < 16; ++l) m[l] = a[0];
  uint32_t i = 0;
  if (n >= 64) {
    Lanes16 m1 = m, m2 = m, m3 = m, probe1 = {};
    for (; i + 64 <= n; i += 64) {
      const Lanes16 v0 = *reinterpret_cast<const Lanes16Unaligned*>(a + i);
      const Lanes16 v1 = *reinterpret_cast<const Lanes16Unaligned*>(a + i + 16);
      const Lanes16 v2 = *reinterpret_cast<const Lanes16Unaligned*>(a + i + 32);
      const Lanes16 v3 = *reinterpret_cast<const Lanes16Unaligned*>(a + i + 48);
      m = isMax ? (v0 > m ? v0 : m) : (v0 < m ? v0 : m);
      m1 = isMax ? (v1 > m1 ? v1 : m1) : (v1 < m1 ? v1 : m1);
      m2 = isMax ? (v2 > m2 ? v2 : m2) : (v2 < m2 ? v2 : m2);
      m3 = isMax ? (v3 > m3 ? v3 : m3) : (v3 < m3 ? v3 : m3);
      probe += (v0 - v0) + (v1 - v1);
      probe1 += (v2 - v2) + (v3 - v3);
    }
    m = isMax ? (m1 > m ? m1 : m) : (m1 < m ? m1 : m);
    m2 = isMax ? (m3 > m2 ? m3 : m2) : (m3 < m2 ? m3 : m2);
    m = isMax ? (m2 > m ? m2 : m) : (m2 < m ? m2 : m);
    probe += probe1;
  }
  for (; i + 16 <= n; i += 16) {
    const Lanes16 v = *reinterpret_cast<const Lanes16Unaligned*>(a + i);
    m = isMax ? (v > m ? v : m) : (v < m ? v : m);
    probe += v - v;
  }
  float best = a[0];
  bool nan = false;
  for (uint32_t l = 0; l < 16; ++l) {
    best = isMax ? (m[l] > best ? m[l] : best) : (m[l] < best ? m[l] : best);
    nan |= probe[l] != probe[l];
  }
  for (; i < n; ++i) {
    best = isMax ? (a[i] > best ? a[i] : best) : (a[i] < best ? a[i] : best);
    nan |= a[i] != a[i];
  }
  *sawNan = nan || best != best;
  return best;
}

struct VectorUnit {
  void (*exp)(float*, const float*, uint32_t);
  void (*binary)(int, float*, const float*, const float*, uint32_t);
  void (*scalar)(int, float*, const float*, float, uint32_t);
  float (*sum)(const float*, uint32_t);
  float (*extreme)(const float*, uint32_t, int, int*);
};

#define ACLSIM_VECTOR_UNIT(NAME, ATTR)                                                                           \
  ATTR void NAME##Exp(float* d, const float* s, uint32_t n) { ExpLoop(d, s, n); }                                \
  ATTR void NAME##Binary(int op, float* d, const float* a, const float* b, uint32_t n) { BinaryAny(op, d, a, b, n); } \
  ATTR void NAME##Scalar(int op, float* d, const float* a, float s, uint32_t n) { ScalarAny(op, d, a, s, n); }  \
  ATTR float NAME##Sum(const float* a, uint32_t n) { return SumLoop(a, n); }                                     \
  ATTR float NAME##Extreme(const float* a, uint32_t n, int isMax, int* nan) { return ExtremeLoop(a, n, isMax, nan); } \
  constexpr VectorUnit k##NAME{NAME##Exp, NAME##Binary, NAME##Scalar, NAME##Sum, NAME##Extreme};

ACLSIM_VECTOR_UNIT(Baseline, )
#if defined(__x86_64__)
ACLSIM_VECTOR_UNIT(Avx2, __attribute__((target("avx2,fma"))))
ACLSIM_VECTOR_UNIT(Avx512, __attribute__((target("avx512f"))))
#endif

const VectorUnit& Unit() {
  static const VectorUnit* unit = [] {
#if defined(__x86_64__)
    const int32_t level = HostSimdLevel();
    if (level >= 2) return &kAvx512;
    if (level >= 1) return &kAvx2;
#endif
    return &kBaseline;
  }();
  return *unit;
}

// Float32 values summed in double (variance moments): 32 lanes in four
// independent 8-lane accumulators, then a fixed pairwise tree, so the result does
// not depend on the SIMD width.
typedef float Lanes8Unaligned __attribute__((vector_size(32), aligned(4), may_alias));
typedef double Lanes8d __attribute__((vector_size(64)));

template <bool kDeviation>
ACLSIM_INLINE double DoubleSumLoop(const float* a, uint32_t n, double mean) {
  Lanes8d acc[4] = {};
  const Lanes8d m = {mean, mean, mean, mean, mean, mean, mean, mean};
  uint32_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (uint32_t k = 0; k < 4; ++k) {
      Lanes8d v = __builtin_convertvector(*reinterpret_cast<const Lanes8Unaligned*>(a + i + 8 * k), Lanes8d);
      if constexpr (kDeviation) {
        v -= m;
        v *= v;
      }
      acc[k] += v;
    }
  }
  double lanes[32];
  for (uint32_t l = 0; l < 32; ++l) lanes[l] = acc[l / 8][l % 8];
  for (uint32_t l = 0; i + l < n; ++l) {
    const double v = kDeviation ? (static_cast<double>(a[i + l]) - mean) : static_cast<double>(a[i + l]);
    lanes[l] += kDeviation ? v * v : v;
  }
  for (uint32_t w = 16; w > 0; w /= 2) {
    for (uint32_t l = 0; l < w; ++l) lanes[l] += lanes[l + w];
  }
  return lanes[0];
}

struct MomentsUnit {
  double (*sum)(const float*, uint32_t, double);
  double (*deviation)(const float*, uint32_t, double);
};

#define ACLSIM_MOMENTS_UNIT(NAME, ATTR)                                                                          \
  ATTR double NAME##DoubleSum(const float* a, uint32_t n, double m) { return DoubleSumLoop<false>(a, n, m); }   \
  ATTR double NAME##Deviation(const float* a, uint32_t n, double m) { return DoubleSumLoop<true>(a, n, m); }    \
  constexpr MomentsUnit k##NAME##Moments{NAME##DoubleSum, NAME##Deviation};

ACLSIM_MOMENTS_UNIT(Baseline, )
#if defined(__x86_64__)
ACLSIM_MOMENTS_UNIT(Avx2, __attribute__((target("avx2,fma"))))
ACLSIM_MOMENTS_UNIT(Avx512, __attribute__((target("avx512f"))))
#endif

// The ISA Unit() chose.
const MomentsUnit& Moments() {
#if defined(__x86_64__)
  if (&Unit() == &kAvx512) return kAvx512Moments;
  if (&Unit() == &kAvx2) return kAvx2Moments;
#endif
  return kBaselineMoments;
}

// Normalization rows: layer norm's affine output and softmax's shifted exponentials with
// their sum, one pass each, every step rounded to float as by the separate instructions
// they replace (Adds, Muls, Mul, Add; Adds, Exp, ReduceSum), so the bits stay the same.
ACLSIM_INLINE void NormalizeLoop(float* d, const float* s, float mean, float rstd, const float* g, const float* b,
                                 uint32_t n) {
  if (g != nullptr && b != nullptr) {
    for (uint32_t i = 0; i < n; ++i) d[i] = (s[i] - mean) * rstd * g[i] + b[i];
  } else if (g != nullptr) {
    for (uint32_t i = 0; i < n; ++i) d[i] = (s[i] - mean) * rstd * g[i];
  } else if (b != nullptr) {
    for (uint32_t i = 0; i < n; ++i) d[i] = (s[i] - mean) * rstd + b[i];
  } else {
    for (uint32_t i = 0; i < n; ++i) d[i] = (s[i] - mean) * rstd;
  }
}

ACLSIM_INLINE float ExpShiftSumLoop(float* d, const float* s, float shift, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = AscendC::detail::ExpFloat(s[i] - shift);
  return SumLoop(d, n);
}

struct NormRowUnit {
  void (*normalize)(float*, const float*, float, float, const float*, const float*, uint32_t);
  float (*expShiftSum)(float*, const float*, float, uint32_t);
};

#define ACLSIM_NORM_ROW_UNIT(NAME, ATTR)                                                                      \
  ATTR void NAME##Normalize(float* d, const float* s, float m, float r, const float* g, const float* b,       \
                            uint32_t n) {                                                                     \
    NormalizeLoop(d, s, m, r, g, b, n);                                                                       \
  }                                                                                                           \
  ATTR float NAME##ExpShiftSum(float* d, const float* s, float shift, uint32_t n) {                           \
    return ExpShiftSumLoop(d, s, shift, n);                                                                   \
  }                                                                                                           \
  constexpr NormRowUnit k##NAME##NormRows{NAME##Normalize, NAME##ExpShiftSum};

ACLSIM_NORM_ROW_UNIT(Baseline, )
#if defined(__x86_64__)
ACLSIM_NORM_ROW_UNIT(Avx2, __attribute__((target("avx2,fma"))))
ACLSIM_NORM_ROW_UNIT(Avx512, __attribute__((target("avx512f"))))
#endif

// The ISA Unit() chose.
const NormRowUnit& NormRows() {
#if defined(__x86_64__)
  if (&Unit() == &kAvx512) return kAvx512NormRows;
  if (&Unit() == &kAvx2) return kAvx2NormRows;
#endif
  return kBaselineNormRows;
}

}  // namespace
}  // namespace ascendc_sim

extern "C" {

void aclsimVectorExpF32(float* dst, const float* src, uint32_t n) { ascendc_sim::Unit().exp(dst, src, n); }

void aclsimVectorBinaryF32(aclsimVectorOp op, float* dst, const float* src0, const float* src1, uint32_t n) {
  ascendc_sim::Unit().binary(op, dst, src0, src1, n);
}

void aclsimVectorScalarF32(aclsimVectorOp op, float* dst, const float* src, float scalar, uint32_t n) {
  ascendc_sim::Unit().scalar(op, dst, src, scalar, n);
}

float aclsimVectorReduceSumF32(const float* src, uint32_t n) { return ascendc_sim::Unit().sum(src, n); }

float aclsimVectorReduceExtremeF32(const float* src, uint32_t n, int isMax, int* sawNan) {
  return ascendc_sim::Unit().extreme(src, n, isMax, sawNan);
}

double aclsimVectorSumF32AsF64(const float* src, uint32_t n) { return ascendc_sim::Moments().sum(src, n, 0.0); }

double aclsimVectorSquaredDeviationF32(const float* src, uint32_t n, double mean) {
  return ascendc_sim::Moments().deviation(src, n, mean);
}

void aclsimVectorNormalizeF32(float* dst, const float* src, float mean, float rstd, const float* gamma,
                              const float* beta, uint32_t n) {
  ascendc_sim::NormRows().normalize(dst, src, mean, rstd, gamma, beta, n);
}

float aclsimVectorExpShiftSumF32(float* dst, const float* src, float shift, uint32_t n) {
  return ascendc_sim::NormRows().expShiftSum(dst, src, shift, n);
}

}  // extern "C"

// ---- conversions to and from float16 / bfloat16, compares, selects, multiply-add ----
// Conversions: the baseline runs the branch-free bit conversions of fp_types.h; hosts with F16C
// convert float16 with vcvtph2ps / vcvtps2ph (IEEE, nearest even: the same values), whose NaN
// results are then given the baseline's sign | 0x7e00. Compares and selects: 8 lanes make one
// mask byte (SSE2 twice 4, AVX 8). The multiply-add is fused on every level (libm's fmaf on the
// baseline, vfmadd above), so its bits do not depend on the level either.
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ascendc_sim {
namespace {

ACLSIM_INLINE void HalfToFloatLoop(float* d, const uint16_t* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = HalfBitsToFloat(s[i]);
}

ACLSIM_INLINE void FloatToHalfLoop(uint16_t* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = FloatToHalfBits(s[i]);
}

ACLSIM_INLINE void Bf16ToFloatLoop(float* d, const uint16_t* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = Bf16BitsToFloat(s[i]);
}

ACLSIM_INLINE void FloatToBf16Loop(uint16_t* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = FloatToBf16Bits(s[i]);
}

ACLSIM_INLINE void MulAddDstLoop(float* d, const float* a, const float* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = __builtin_fmaf(a[i], b[i], d[i]);
}

template <int Op>
ACLSIM_INLINE void UnaryLoop(float* d, const float* a, float s, uint32_t n) {
  using AscendC::RoundMode;
  using AscendC::detail::RoundToIntegral;
  for (uint32_t i = 0; i < n; ++i) {
    if constexpr (Op == ACLSIM_VEC_MAXS) d[i] = a[i] < s ? s : a[i];
    if constexpr (Op == ACLSIM_VEC_MINS) d[i] = a[i] < s ? a[i] : s;
    if constexpr (Op == ACLSIM_VEC_RECIPROCAL) d[i] = 1.0f / a[i];
    if constexpr (Op == ACLSIM_VEC_CEIL) d[i] = RoundToIntegral<RoundMode::CAST_CEIL>(a[i]);
    if constexpr (Op == ACLSIM_VEC_FLOOR) d[i] = RoundToIntegral<RoundMode::CAST_FLOOR>(a[i]);
    if constexpr (Op == ACLSIM_VEC_ROUND) d[i] = RoundToIntegral<RoundMode::CAST_RINT>(a[i]);
    if constexpr (Op == ACLSIM_VEC_TRUNC) d[i] = RoundToIntegral<RoundMode::CAST_TRUNC>(a[i]);
    if constexpr (Op == ACLSIM_VEC_SIGMOID) d[i] = 1.0f / (AscendC::detail::ExpFloat(a[i] * s) + 1.0f);
  }
}

ACLSIM_INLINE void UnaryAny(int op, float* d, const float* a, float s, uint32_t n) {
  switch (op) {
    case ACLSIM_VEC_MAXS: UnaryLoop<ACLSIM_VEC_MAXS>(d, a, s, n); break;
    case ACLSIM_VEC_MINS: UnaryLoop<ACLSIM_VEC_MINS>(d, a, s, n); break;
    case ACLSIM_VEC_CEIL: UnaryLoop<ACLSIM_VEC_CEIL>(d, a, s, n); break;
    case ACLSIM_VEC_FLOOR: UnaryLoop<ACLSIM_VEC_FLOOR>(d, a, s, n); break;
    case ACLSIM_VEC_ROUND: UnaryLoop<ACLSIM_VEC_ROUND>(d, a, s, n); break;
    case ACLSIM_VEC_TRUNC: UnaryLoop<ACLSIM_VEC_TRUNC>(d, a, s, n); break;
    case ACLSIM_VEC_SIGMOID: UnaryLoop<ACLSIM_VEC_SIGMOID>(d, a, s, n); break;
    default: UnaryLoop<ACLSIM_VEC_RECIPROCAL>(d, a, s, n); break;
  }
}

// FloorDivide of n values of T in chunks of float: 2-byte types loaded and stored with the level's
// conversions (the same bits on every level), the results written after the reads (dst may be a source).
template <typename T, typename Load, typename Store>
ACLSIM_INLINE void FloorDivideLoop(void* d, const void* a, const void* b, uint32_t n, Load load, Store store) {
  constexpr uint32_t kChunk = 256;
  float fa[kChunk];
  float fb[kChunk];
  float out[kChunk];
  for (uint32_t start = 0; start < n; start += kChunk) {
    const uint32_t m = n - start < kChunk ? n - start : kChunk;
    if constexpr (std::is_same<T, float>::value) {
      AscendC::detail::FloorDivideChunk<T>(out, static_cast<const float*>(a) + start,
                                           static_cast<const float*>(b) + start, m);
      memcpy(static_cast<float*>(d) + start, out, m * sizeof(float));
    } else {
      load(fa, static_cast<const uint16_t*>(a) + start, m);
      load(fb, static_cast<const uint16_t*>(b) + start, m);
      AscendC::detail::FloorDivideChunk<T>(out, fa, fb, m);
      store(static_cast<uint16_t*>(d) + start, out, m);
    }
  }
}

// The compare of mode `Mode` (AscendC::CMPMODE's order: LT, GT, EQ, LE, GE, NE) on one pair.
template <int Mode>
ACLSIM_INLINE bool CompareOne(float a, float b) {
  if constexpr (Mode == 0) return a < b;
  if constexpr (Mode == 1) return a > b;
  if constexpr (Mode == 2) return a == b;
  if constexpr (Mode == 3) return a <= b;
  if constexpr (Mode == 4) return a >= b;
  return a != b;
}

// Mask bits from element `done` (a multiple of 8) on, the last byte's unused bits 0.
template <int Mode>
ACLSIM_INLINE void CompareTail(uint8_t* m, const float* a, const float* b, float s, uint32_t done, uint32_t n) {
  for (uint32_t i = done; i < n; i += 8) {
    uint8_t v = 0;
    for (uint32_t k = 0; k < 8 && i + k < n; ++k) {
      v |= static_cast<uint8_t>(CompareOne<Mode>(a[i + k], b != nullptr ? b[i + k] : s) ? 1u << k : 0u);
    }
    m[i / 8] = v;
  }
}

ACLSIM_INLINE void SelectTail(uint32_t* d, const uint8_t* m, const uint32_t* a, const uint32_t* b, uint32_t s,
                              uint32_t done, uint32_t n) {
  for (uint32_t i = done; i < n; ++i) d[i] = ((m[i / 8] >> (i % 8)) & 1u) ? a[i] : (b != nullptr ? b[i] : s);
}

#if defined(__x86_64__)
template <int Mode>
ACLSIM_INLINE __m128 CompareSse(__m128 a, __m128 b) {
  if constexpr (Mode == 0) return _mm_cmplt_ps(a, b);
  if constexpr (Mode == 1) return _mm_cmplt_ps(b, a);
  if constexpr (Mode == 2) return _mm_cmpeq_ps(a, b);
  if constexpr (Mode == 3) return _mm_cmple_ps(a, b);
  if constexpr (Mode == 4) return _mm_cmple_ps(b, a);
  return _mm_cmpneq_ps(a, b);  // true for NaN, as !=
}

template <int Mode>
void SseCompare(uint8_t* m, const float* a, const float* b, float s, uint32_t n) {
  const __m128 scalar = _mm_set1_ps(s);
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128 b0 = b != nullptr ? _mm_loadu_ps(b + i) : scalar;
    const __m128 b1 = b != nullptr ? _mm_loadu_ps(b + i + 4) : scalar;
    const int lo = _mm_movemask_ps(CompareSse<Mode>(_mm_loadu_ps(a + i), b0));
    const int hi = _mm_movemask_ps(CompareSse<Mode>(_mm_loadu_ps(a + i + 4), b1));
    m[i / 8] = static_cast<uint8_t>(lo | (hi << 4));
  }
  CompareTail<Mode>(m, a, b, s, i, n);
}

void SseSelect(uint32_t* d, const uint8_t* m, const uint32_t* a, const uint32_t* b, uint32_t s, uint32_t n) {
  const __m128i low = _mm_setr_epi32(1, 2, 4, 8);
  const __m128i high = _mm_setr_epi32(16, 32, 64, 128);
  const __m128i scalar = _mm_set1_epi32(static_cast<int>(s));
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i bits = _mm_set1_epi32(m[i / 8]);
    for (int half = 0; half < 2; ++half) {
      const __m128i lanes = half == 0 ? low : high;
      const __m128i take = _mm_cmpeq_epi32(_mm_and_si128(bits, lanes), lanes);
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i + 4 * half));
      const __m128i y = b != nullptr ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i + 4 * half)) : scalar;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i + 4 * half),
                       _mm_or_si128(_mm_and_si128(take, x), _mm_andnot_si128(take, y)));
    }
  }
  SelectTail(d, m, a, b, s, i, n);
}

#define ACLSIM_AVX2 __attribute__((target("avx2")))

template <int Mode>
ACLSIM_INLINE ACLSIM_AVX2 __m256 CompareAvx(__m256 a, __m256 b) {
  if constexpr (Mode == 0) return _mm256_cmp_ps(a, b, _CMP_LT_OQ);
  if constexpr (Mode == 1) return _mm256_cmp_ps(a, b, _CMP_GT_OQ);
  if constexpr (Mode == 2) return _mm256_cmp_ps(a, b, _CMP_EQ_OQ);
  if constexpr (Mode == 3) return _mm256_cmp_ps(a, b, _CMP_LE_OQ);
  if constexpr (Mode == 4) return _mm256_cmp_ps(a, b, _CMP_GE_OQ);
  return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ);
}

template <int Mode>
ACLSIM_AVX2 void AvxCompare(uint8_t* m, const float* a, const float* b, float s, uint32_t n) {
  const __m256 scalar = _mm256_set1_ps(s);
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 rhs = b != nullptr ? _mm256_loadu_ps(b + i) : scalar;
    m[i / 8] = static_cast<uint8_t>(_mm256_movemask_ps(CompareAvx<Mode>(_mm256_loadu_ps(a + i), rhs)));
  }
  CompareTail<Mode>(m, a, b, s, i, n);
}

ACLSIM_AVX2 void AvxSelect(uint32_t* d, const uint8_t* m, const uint32_t* a, const uint32_t* b, uint32_t s,
                           uint32_t n) {
  const __m256i lanes = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i scalar = _mm256_set1_epi32(static_cast<int>(s));
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i take = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(m[i / 8]), lanes), lanes);
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i y = b != nullptr ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i)) : scalar;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm256_blendv_epi8(y, x, take));
  }
  SelectTail(d, m, a, b, s, i, n);
}

#define ACLSIM_F16C __attribute__((target("avx2,f16c")))

ACLSIM_F16C void F16cHalfToFloat(float* d, const uint16_t* s, uint32_t n) {
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  }
  HalfToFloatLoop(d + i, s + i, n - i);
}

// Eight floats rounded to float16, a NaN made sign | 0x7e00 as the baseline's.
ACLSIM_INLINE ACLSIM_F16C __m128i F16cRoundToHalf(__m256 v) {
  const __m128i magnitude = _mm_set1_epi16(0x7fff);
  const __m128i inf = _mm_set1_epi16(0x7c00);
  const __m128i payload = _mm_set1_epi16(0x01ff);  // a converted NaN has 0x7e00 set: clearing these leaves it
  const __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, magnitude), inf);
  return _mm_andnot_si128(_mm_and_si128(nan, payload), h);
}

ACLSIM_F16C void F16cFloatToHalf(uint16_t* d, const float* s, uint32_t n) {
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), F16cRoundToHalf(_mm256_loadu_ps(s + i)));
  }
  FloatToHalfLoop(d + i, s + i, n - i);
}
#endif

typedef void (*CompareFn)(uint8_t*, const float*, const float*, float, uint32_t);
typedef void (*SelectFn)(uint32_t*, const uint8_t*, const uint32_t*, const uint32_t*, uint32_t, uint32_t);

struct ElementwiseUnit {
  void (*halfToFloat)(float*, const uint16_t*, uint32_t);
  void (*floatToHalf)(uint16_t*, const float*, uint32_t);
  void (*bf16ToFloat)(float*, const uint16_t*, uint32_t);
  void (*floatToBf16)(uint16_t*, const float*, uint32_t);
  void (*mulAddDst)(float*, const float*, const float*, uint32_t);
  void (*floorDivide)(aclDataType, void*, const void*, const void*, uint32_t);
  void (*unary)(int, float*, const float*, float, uint32_t);
  CompareFn compare[6];  // by mode
  SelectFn select;
};

#define ACLSIM_ELEMENTWISE_UNIT(NAME, ATTR, HALF_TO_FLOAT, FLOAT_TO_HALF, COMPARE, SELECT)                             \
  ATTR void NAME##Bf16ToFloat(float* d, const uint16_t* s, uint32_t n) { Bf16ToFloatLoop(d, s, n); }                   \
  ATTR void NAME##FloatToBf16(uint16_t* d, const float* s, uint32_t n) { FloatToBf16Loop(d, s, n); }                   \
  ATTR void NAME##MulAddDst(float* d, const float* a, const float* b, uint32_t n) { MulAddDstLoop(d, a, b, n); }       \
  ATTR void NAME##FloorDivide(aclDataType type, void* d, const void* a, const void* b, uint32_t n) {                  \
    if (type == ACL_FLOAT16) {                                                                                         \
      FloorDivideLoop<half>(d, a, b, n, HALF_TO_FLOAT, FLOAT_TO_HALF);                                                 \
    } else if (type == ACL_BF16) {                                                                                     \
      FloorDivideLoop<bfloat16_t>(d, a, b, n, NAME##Bf16ToFloat, NAME##FloatToBf16);                                   \
    } else {                                                                                                           \
      FloorDivideLoop<float>(d, a, b, n, HALF_TO_FLOAT, FLOAT_TO_HALF);                                                \
    }                                                                                                                  \
  }                                                                                                                    \
  ATTR void NAME##Unary(int op, float* d, const float* a, float s, uint32_t n) { UnaryAny(op, d, a, s, n); }           \
  constexpr ElementwiseUnit k##NAME##Elementwise{                                                                      \
      HALF_TO_FLOAT, FLOAT_TO_HALF, NAME##Bf16ToFloat, NAME##FloatToBf16, NAME##MulAddDst, NAME##FloorDivide,          \
      NAME##Unary,                                                                                                     \
      {COMPARE<0>, COMPARE<1>, COMPARE<2>, COMPARE<3>, COMPARE<4>, COMPARE<5>}, SELECT};

void BaselineHalfToFloat(float* d, const uint16_t* s, uint32_t n) { HalfToFloatLoop(d, s, n); }
void BaselineFloatToHalf(uint16_t* d, const float* s, uint32_t n) { FloatToHalfLoop(d, s, n); }
#if defined(__x86_64__)
ACLSIM_ELEMENTWISE_UNIT(Baseline, , BaselineHalfToFloat, BaselineFloatToHalf, SseCompare, SseSelect)
ACLSIM_ELEMENTWISE_UNIT(Avx2, __attribute__((target("avx2,fma"))), F16cHalfToFloat, F16cFloatToHalf, AvxCompare,
                        AvxSelect)
#define ACLSIM_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))
ACLSIM_ELEMENTWISE_UNIT(Avx512, ACLSIM_AVX512, F16cHalfToFloat, F16cFloatToHalf, AvxCompare, AvxSelect)
#else
template <int Mode>
void PlainCompare(uint8_t* m, const float* a, const float* b, float s, uint32_t n) {
  CompareTail<Mode>(m, a, b, s, 0, n);
}
void PlainSelect(uint32_t* d, const uint8_t* m, const uint32_t* a, const uint32_t* b, uint32_t s, uint32_t n) {
  SelectTail(d, m, a, b, s, 0, n);
}
ACLSIM_ELEMENTWISE_UNIT(Baseline, , BaselineHalfToFloat, BaselineFloatToHalf, PlainCompare, PlainSelect)
#endif

const ElementwiseUnit& Elementwise() {
  static const ElementwiseUnit* unit = [] {
#if defined(__x86_64__)
    __builtin_cpu_init();
    const int32_t limit = Config().simdLimit;
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                      __builtin_cpu_supports("f16c");
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    if (limit >= 2 && avx2 && avx512) return &kAvx512Elementwise;
    if (limit >= 1 && avx2) return &kAvx2Elementwise;
#endif
    return &kBaselineElementwise;
  }();
  return *unit;
}

}  // namespace
}  // namespace ascendc_sim

extern "C" {

void aclsimVectorCastToF32(aclDataType type, float* dst, const uint16_t* src, uint32_t n) {
  const ascendc_sim::ElementwiseUnit& unit = ascendc_sim::Elementwise();
  (type == ACL_BF16 ? unit.bf16ToFloat : unit.halfToFloat)(dst, src, n);
}

void aclsimVectorCastFromF32(aclDataType type, uint16_t* dst, const float* src, uint32_t n) {
  const ascendc_sim::ElementwiseUnit& unit = ascendc_sim::Elementwise();
  (type == ACL_BF16 ? unit.floatToBf16 : unit.floatToHalf)(dst, src, n);
}

void aclsimVectorMulAddDstF32(float* dst, const float* src0, const float* src1, uint32_t n) {
  ascendc_sim::Elementwise().mulAddDst(dst, src0, src1, n);
}

void aclsimVectorFloorDivide(aclDataType type, void* dst, const void* src0, const void* src1, uint32_t n) {
  ascendc_sim::Elementwise().floorDivide(type, dst, src0, src1, n);
}

void aclsimVectorUnaryF32(aclsimVectorUnaryOp op, float* dst, const float* src, float scalar, uint32_t n) {
  ascendc_sim::Elementwise().unary(op, dst, src, scalar, n);
}

void aclsimVectorCompareF32(int cmpMode, uint8_t* mask, const float* src0, const float* src1, float scalar,
                            uint32_t n) {
  ascendc_sim::Elementwise().compare[cmpMode >= 0 && cmpMode < 6 ? cmpMode : 5](mask, src0, src1, scalar, n);
}

void aclsimVectorSelectB32(void* dst, const uint8_t* mask, const void* src0, const void* src1, uint32_t scalarBits,
                           uint32_t n) {
  ascendc_sim::Elementwise().select(static_cast<uint32_t*>(dst), mask, static_cast<const uint32_t*>(src0),
                                    static_cast<const uint32_t*>(src1), scalarBits, n);
}

}  // extern "C"

// ---- arithmetic, clamp and rounding on float16 / bfloat16 ----
// Each value converted to float32, the float32 operation and the result rounded once, in registers:
// the bits of Cast, the float32 instructions and Cast back over whole tiles, on every level (F16C
// converts float16 on the AVX levels, the branch-free bit conversions elsewhere and for bfloat16).
namespace ascendc_sim {
namespace {

struct HalfBits {
  static float Load(uint16_t v) { return HalfBitsToFloat(v); }
  static uint16_t Store(float v) { return FloatToHalfBits(v); }
};
struct Bf16Bits {
  static float Load(uint16_t v) { return Bf16BitsToFloat(v); }
  static uint16_t Store(float v) { return FloatToBf16Bits(v); }
};

template <int Op, typename Bits>
ACLSIM_INLINE void TwoByteBinaryLoop(uint16_t* d, const uint16_t* a, const uint16_t* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = Bits::Store(Apply<Op>(Bits::Load(a[i]), Bits::Load(b[i])));
}

// Maxs(lo), Mins(hi), then a NaN of x selected back (the compute-type ClampScalars).
ACLSIM_INLINE float ClampOne(float x, float lo, float hi) {
  float m = x < lo ? lo : x;
  m = m < hi ? m : hi;
  return x != x ? x : m;
}

template <typename Bits>
ACLSIM_INLINE void TwoByteClampLoop(uint16_t* d, const uint16_t* a, float lo, float hi, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = Bits::Store(ClampOne(Bits::Load(a[i]), lo, hi));
}

// Ceil, Floor, Round and Trunc (aclsimVectorUnaryOp 3..6) as RoundToIntegral's modes.
template <int Op>
constexpr AscendC::RoundMode kRoundModeOf = Op == ACLSIM_VEC_CEIL    ? AscendC::RoundMode::CAST_CEIL
                                            : Op == ACLSIM_VEC_FLOOR ? AscendC::RoundMode::CAST_FLOOR
                                            : Op == ACLSIM_VEC_ROUND ? AscendC::RoundMode::CAST_RINT
                                                                     : AscendC::RoundMode::CAST_TRUNC;

template <int Op, typename Bits>
ACLSIM_INLINE void TwoByteRoundLoop(uint16_t* d, const uint16_t* a, uint32_t n) {
  using AscendC::detail::RoundToIntegral;
  for (uint32_t i = 0; i < n; ++i) d[i] = Bits::Store(RoundToIntegral<kRoundModeOf<Op>>(Bits::Load(a[i])));
}

typedef void (*TwoByteBinaryFn)(uint16_t*, const uint16_t*, const uint16_t*, uint32_t);
typedef void (*TwoByteClampFn)(uint16_t*, const uint16_t*, float, float, uint32_t);
typedef void (*TwoByteRoundFn)(uint16_t*, const uint16_t*, uint32_t);

struct TwoByteUnit {
  TwoByteBinaryFn half[6];  // by aclsimVectorOp
  TwoByteBinaryFn bf16[6];
  TwoByteClampFn halfClamp;
  TwoByteClampFn bf16Clamp;
  TwoByteRoundFn halfRound[4];  // by aclsimVectorUnaryOp - ACLSIM_VEC_CEIL
  TwoByteRoundFn bf16Round[4];
};

template <int Op>
void BaselineHalfBinary(uint16_t* d, const uint16_t* a, const uint16_t* b, uint32_t n) {
  TwoByteBinaryLoop<Op, HalfBits>(d, a, b, n);
}
void BaselineHalfClamp(uint16_t* d, const uint16_t* a, float lo, float hi, uint32_t n) {
  TwoByteClampLoop<HalfBits>(d, a, lo, hi, n);
}
template <int Op>
void BaselineHalfRound(uint16_t* d, const uint16_t* a, uint32_t n) {
  TwoByteRoundLoop<Op, HalfBits>(d, a, n);
}

#if defined(__x86_64__)
// Apply's operation on eight lanes (maxps/minps are `a > b ? a : b` and `a < b ? a : b`, NaN included);
// of two NaNs a sum or product is b, as the float32 instruction gives it (the compiler may swap operands).
template <int Op>
ACLSIM_INLINE ACLSIM_F16C __m256 ApplyAvx(__m256 a, __m256 b) {
  if constexpr (Op == ACLSIM_VEC_ADD || Op == ACLSIM_VEC_MUL) {
    const __m256 r = Op == ACLSIM_VEC_ADD ? _mm256_add_ps(a, b) : _mm256_mul_ps(a, b);
    return _mm256_blendv_ps(r, b, _mm256_and_ps(_mm256_cmp_ps(a, a, _CMP_UNORD_Q), _mm256_cmp_ps(b, b, _CMP_UNORD_Q)));
  }
  if constexpr (Op == ACLSIM_VEC_SUB) return _mm256_sub_ps(a, b);
  if constexpr (Op == ACLSIM_VEC_DIV) return _mm256_div_ps(a, b);
  if constexpr (Op == ACLSIM_VEC_MAX) return _mm256_max_ps(a, b);
  return _mm256_min_ps(a, b);
}

ACLSIM_INLINE ACLSIM_F16C __m256 LoadHalves(const uint16_t* s) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)));
}

template <int Op>
ACLSIM_F16C void F16cHalfBinary(uint16_t* d, const uint16_t* a, const uint16_t* b, uint32_t n) {
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 y = ApplyAvx<Op>(LoadHalves(a + i), LoadHalves(b + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), F16cRoundToHalf(y));
  }
  TwoByteBinaryLoop<Op, HalfBits>(d + i, a + i, b + i, n - i);
}

ACLSIM_F16C void F16cHalfClamp(uint16_t* d, const uint16_t* a, float lo, float hi, uint32_t n) {
  const __m256 low = _mm256_set1_ps(lo);
  const __m256 high = _mm256_set1_ps(hi);
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = LoadHalves(a + i);
    const __m256 m = _mm256_min_ps(_mm256_max_ps(low, x), high);  // lo > x ? lo : x, then m < hi ? m : hi
    const __m256 y = _mm256_blendv_ps(m, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), F16cRoundToHalf(y));
  }
  TwoByteClampLoop<HalfBits>(d + i, a + i, lo, hi, n - i);
}

// roundps rounds as RoundToIntegral does (IEEE: -0 kept, NaN quiet with its sign).
template <int Op>
ACLSIM_F16C void F16cHalfRound(uint16_t* d, const uint16_t* a, uint32_t n) {
  constexpr int kMode = (Op == ACLSIM_VEC_CEIL    ? _MM_FROUND_TO_POS_INF
                         : Op == ACLSIM_VEC_FLOOR ? _MM_FROUND_TO_NEG_INF
                         : Op == ACLSIM_VEC_ROUND ? _MM_FROUND_TO_NEAREST_INT
                                                  : _MM_FROUND_TO_ZERO) |
                        _MM_FROUND_NO_EXC;
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), F16cRoundToHalf(_mm256_round_ps(LoadHalves(a + i), kMode)));
  }
  TwoByteRoundLoop<Op, HalfBits>(d + i, a + i, n - i);
}
#endif

#define ACLSIM_TWO_BYTE_UNIT(NAME, ATTR, HALF_BINARY, HALF_CLAMP, HALF_ROUND)                              \
  template <int Op>                                                                                        \
  ATTR void NAME##Bf16Binary(uint16_t* d, const uint16_t* a, const uint16_t* b, uint32_t n) {              \
    TwoByteBinaryLoop<Op, Bf16Bits>(d, a, b, n);                                                           \
  }                                                                                                        \
  ATTR void NAME##Bf16Clamp(uint16_t* d, const uint16_t* a, float lo, float hi, uint32_t n) {              \
    TwoByteClampLoop<Bf16Bits>(d, a, lo, hi, n);                                                           \
  }                                                                                                        \
  template <int Op>                                                                                        \
  ATTR void NAME##Bf16Round(uint16_t* d, const uint16_t* a, uint32_t n) {                                  \
    TwoByteRoundLoop<Op, Bf16Bits>(d, a, n);                                                               \
  }                                                                                                        \
  constexpr TwoByteUnit k##NAME##TwoByte{                                                                  \
      {HALF_BINARY<0>, HALF_BINARY<1>, HALF_BINARY<2>, HALF_BINARY<3>, HALF_BINARY<4>, HALF_BINARY<5>},    \
      {NAME##Bf16Binary<0>, NAME##Bf16Binary<1>, NAME##Bf16Binary<2>, NAME##Bf16Binary<3>,                 \
       NAME##Bf16Binary<4>, NAME##Bf16Binary<5>},                                                          \
      HALF_CLAMP,                                                                                          \
      NAME##Bf16Clamp,                                                                                     \
      {HALF_ROUND<ACLSIM_VEC_CEIL>, HALF_ROUND<ACLSIM_VEC_FLOOR>, HALF_ROUND<ACLSIM_VEC_ROUND>,             \
       HALF_ROUND<ACLSIM_VEC_TRUNC>},                                                                      \
      {NAME##Bf16Round<ACLSIM_VEC_CEIL>, NAME##Bf16Round<ACLSIM_VEC_FLOOR>, NAME##Bf16Round<ACLSIM_VEC_ROUND>, \
       NAME##Bf16Round<ACLSIM_VEC_TRUNC>}};

ACLSIM_TWO_BYTE_UNIT(Baseline, , BaselineHalfBinary, BaselineHalfClamp, BaselineHalfRound)
#if defined(__x86_64__)
ACLSIM_TWO_BYTE_UNIT(Avx2, __attribute__((target("avx2,fma"))), F16cHalfBinary, F16cHalfClamp, F16cHalfRound)
ACLSIM_TWO_BYTE_UNIT(Avx512, ACLSIM_AVX512, F16cHalfBinary, F16cHalfClamp, F16cHalfRound)
#endif

// The level Elementwise() chose.
const TwoByteUnit& TwoByte() {
#if defined(__x86_64__)
  if (&Elementwise() == &kAvx512Elementwise) return kAvx512TwoByte;
  if (&Elementwise() == &kAvx2Elementwise) return kAvx2TwoByte;
#endif
  return kBaselineTwoByte;
}

}  // namespace
}  // namespace ascendc_sim

extern "C" {

void aclsimVectorBinaryB16(aclDataType type, aclsimVectorOp op, uint16_t* dst, const uint16_t* src0,
                           const uint16_t* src1, uint32_t n) {
  const ascendc_sim::TwoByteUnit& unit = ascendc_sim::TwoByte();
  const int k = op >= ACLSIM_VEC_ADD && op <= ACLSIM_VEC_MIN ? op : ACLSIM_VEC_MIN;
  (type == ACL_BF16 ? unit.bf16 : unit.half)[k](dst, src0, src1, n);
}

void aclsimVectorClampB16(aclDataType type, uint16_t* dst, const uint16_t* src, float lo, float hi, uint32_t n) {
  const ascendc_sim::TwoByteUnit& unit = ascendc_sim::TwoByte();
  (type == ACL_BF16 ? unit.bf16Clamp : unit.halfClamp)(dst, src, lo, hi, n);
}

void aclsimVectorRoundB16(aclDataType type, aclsimVectorUnaryOp op, uint16_t* dst, const uint16_t* src, uint32_t n) {
  const ascendc_sim::TwoByteUnit& unit = ascendc_sim::TwoByte();
  const int last = ACLSIM_VEC_TRUNC - ACLSIM_VEC_CEIL;
  const int k = op >= ACLSIM_VEC_CEIL && op <= ACLSIM_VEC_TRUNC ? op - ACLSIM_VEC_CEIL : last;
  (type == ACL_BF16 ? unit.bf16Round : unit.halfRound)[k](dst, src, n);
}

}  // extern "C"
