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
ACLSIM_INLINE float ExtremeLoop(const float* a, uint32_t n, bool isMax, int* sawNan) {
  Lanes16 m, probe = {};
  for (uint32_t l = 0; l < 16; ++l) m[l] = a[0];
  uint32_t i = 0;
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
    __builtin_cpu_init();
    const int32_t limit = Config().simdLimit;
    if (limit >= 2 && __builtin_cpu_supports("avx512f")) return &kAvx512;
    if (limit >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &kAvx2;
#endif
    return &kBaseline;
  }();
  return *unit;
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

}  // extern "C"

// ---- float32 <-> float16 / bfloat16 conversions (AscendC::Cast) ----
// The baseline runs the branch-free bit conversions of fp_types.h; hosts with F16C convert
// float16 with vcvtph2ps / vcvtps2ph (IEEE, round to nearest even: the same values), whose
// NaN results are then given the baseline's sign | 0x7e00.
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

#if defined(__x86_64__)
#define ACLSIM_F16C __attribute__((target("avx2,f16c")))

ACLSIM_F16C void F16cHalfToFloat(float* d, const uint16_t* s, uint32_t n) {
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  }
  HalfToFloatLoop(d + i, s + i, n - i);
}

ACLSIM_F16C void F16cFloatToHalf(uint16_t* d, const float* s, uint32_t n) {
  const __m128i magnitude = _mm_set1_epi16(0x7fff);
  const __m128i inf = _mm_set1_epi16(0x7c00);
  const __m128i payload = _mm_set1_epi16(0x01ff);  // a converted NaN has 0x7e00 set: clearing these leaves it
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, magnitude), inf);
    h = _mm_andnot_si128(_mm_and_si128(nan, payload), h);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), h);
  }
  FloatToHalfLoop(d + i, s + i, n - i);
}
#endif

struct ConversionUnit {
  void (*halfToFloat)(float*, const uint16_t*, uint32_t);
  void (*floatToHalf)(uint16_t*, const float*, uint32_t);
  void (*bf16ToFloat)(float*, const uint16_t*, uint32_t);
  void (*floatToBf16)(uint16_t*, const float*, uint32_t);
};

#define ACLSIM_CONVERSION_UNIT(NAME, ATTR, HALF_TO_FLOAT, FLOAT_TO_HALF)                                          \
  ATTR void NAME##Bf16ToFloat(float* d, const uint16_t* s, uint32_t n) { Bf16ToFloatLoop(d, s, n); }             \
  ATTR void NAME##FloatToBf16(uint16_t* d, const float* s, uint32_t n) { FloatToBf16Loop(d, s, n); }             \
  constexpr ConversionUnit k##NAME##Conversions{HALF_TO_FLOAT, FLOAT_TO_HALF, NAME##Bf16ToFloat, NAME##FloatToBf16};

void BaselineHalfToFloat(float* d, const uint16_t* s, uint32_t n) { HalfToFloatLoop(d, s, n); }
void BaselineFloatToHalf(uint16_t* d, const float* s, uint32_t n) { FloatToHalfLoop(d, s, n); }
ACLSIM_CONVERSION_UNIT(Baseline, , BaselineHalfToFloat, BaselineFloatToHalf)
#if defined(__x86_64__)
ACLSIM_CONVERSION_UNIT(Avx2, __attribute__((target("avx2"))), F16cHalfToFloat, F16cFloatToHalf)
ACLSIM_CONVERSION_UNIT(Avx512, __attribute__((target("avx512f"))), F16cHalfToFloat, F16cFloatToHalf)
#endif

const ConversionUnit& Conversions() {
  static const ConversionUnit* unit = [] {
#if defined(__x86_64__)
    __builtin_cpu_init();
    const int32_t limit = Config().simdLimit;
    const bool f16c = __builtin_cpu_supports("f16c");
    if (limit >= 2 && f16c && __builtin_cpu_supports("avx512f")) return &kAvx512Conversions;
    if (limit >= 1 && f16c && __builtin_cpu_supports("avx2")) return &kAvx2Conversions;
#endif
    return &kBaselineConversions;
  }();
  return *unit;
}

}  // namespace
}  // namespace ascendc_sim

extern "C" {

void aclsimVectorCastToF32(aclDataType type, float* dst, const uint16_t* src, uint32_t n) {
  const ascendc_sim::ConversionUnit& unit = ascendc_sim::Conversions();
  (type == ACL_BF16 ? unit.bf16ToFloat : unit.halfToFloat)(dst, src, n);
}

void aclsimVectorCastFromF32(aclDataType type, uint16_t* dst, const float* src, uint32_t n) {
  const ascendc_sim::ConversionUnit& unit = ascendc_sim::Conversions();
  (type == ACL_BF16 ? unit.floatToBf16 : unit.floatToHalf)(dst, src, n);
}

}  // extern "C"
