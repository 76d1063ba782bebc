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

}  // extern "C"
