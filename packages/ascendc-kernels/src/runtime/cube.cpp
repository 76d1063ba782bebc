// The simulated cube unit (aclsimCubeMmad): a register-blocked float32 GEMM
// kernel, AVX-512 or AVX2+FMA when the host has them (chosen at run time, so
// the library stays portable), plain C++ otherwise. float16/bfloat16 operands
// are widened to float32 first (the cube accumulates in float32).
#include <stdint.h>
#include <string.h>

#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ascendc_sim/kernel/fp_types.h"
#include "ascendc_sim/launch.h"

namespace ascendc_sim {
namespace {

struct Gemm {
  float* c;
  const float* a;
  const float* b;
  uint32_t m, n, k, lda, ldb, ldc;
  bool accumulate;
};

void GemmGeneric(const Gemm& g) {
  for (uint32_t i = 0; i < g.m; ++i) {
    float* __restrict crow = g.c + static_cast<uint64_t>(i) * g.ldc;
    if (!g.accumulate) memset(crow, 0, sizeof(float) * g.n);
    for (uint32_t p = 0; p < g.k; ++p) {
      const float av = g.a[static_cast<uint64_t>(i) * g.lda + p];
      const float* __restrict brow = g.b + static_cast<uint64_t>(p) * g.ldb;
      for (uint32_t j = 0; j < g.n; ++j) crow[j] += av * brow[j];
    }
  }
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void GemmAvx2(const Gemm& g) {
  for (uint32_t i = 0; i < g.m; ++i) {
    float* __restrict crow = g.c + static_cast<uint64_t>(i) * g.ldc;
    if (!g.accumulate) memset(crow, 0, sizeof(float) * g.n);
    for (uint32_t p = 0; p < g.k; ++p) {
      const float av = g.a[static_cast<uint64_t>(i) * g.lda + p];
      const float* __restrict brow = g.b + static_cast<uint64_t>(p) * g.ldb;
      for (uint32_t j = 0; j < g.n; ++j) crow[j] += av * brow[j];
    }
  }
}

// MR rows x 32 columns of c in 2*MR zmm accumulators; k runs innermost so a
// 32-column panel of b is reused from L1 by every row block.
template <int MR>
__attribute__((target("avx512f,fma"))) inline void Block512(const Gemm& g, uint32_t i, uint32_t j, __mmask16 m0,
                                                             __mmask16 m1) {
  __m512 c0[MR], c1[MR];
  for (int r = 0; r < MR; ++r) {
    if (g.accumulate) {
      const float* crow = g.c + static_cast<uint64_t>(i + r) * g.ldc + j;
      c0[r] = _mm512_maskz_loadu_ps(m0, crow);
      c1[r] = _mm512_maskz_loadu_ps(m1, crow + 16);
    } else {
      c0[r] = _mm512_setzero_ps();
      c1[r] = _mm512_setzero_ps();
    }
  }
  const float* arow = g.a + static_cast<uint64_t>(i) * g.lda;
  const float* bcol = g.b + j;
  for (uint32_t p = 0; p < g.k; ++p) {
    const float* brow = bcol + static_cast<uint64_t>(p) * g.ldb;
    const __m512 b0 = _mm512_maskz_loadu_ps(m0, brow);
    const __m512 b1 = _mm512_maskz_loadu_ps(m1, brow + 16);
    for (int r = 0; r < MR; ++r) {
      const __m512 av = _mm512_set1_ps(arow[static_cast<uint64_t>(r) * g.lda + p]);
      c0[r] = _mm512_fmadd_ps(av, b0, c0[r]);
      c1[r] = _mm512_fmadd_ps(av, b1, c1[r]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    float* crow = g.c + static_cast<uint64_t>(i + r) * g.ldc + j;
    _mm512_mask_storeu_ps(crow, m0, c0[r]);
    _mm512_mask_storeu_ps(crow + 16, m1, c1[r]);
  }
}

__attribute__((target("avx512f,fma"))) void GemmAvx512(const Gemm& g) {
  constexpr int kMr = 12;
  for (uint32_t j = 0; j < g.n; j += 32) {
    const uint32_t cols = g.n - j < 32 ? g.n - j : 32;
    const __mmask16 m0 = static_cast<__mmask16>(cols >= 16 ? 0xffffu : (1u << cols) - 1u);
    const __mmask16 m1 = static_cast<__mmask16>(cols >= 32 ? 0xffffu : cols <= 16 ? 0u : (1u << (cols - 16)) - 1u);
    uint32_t i = 0;
    for (; i + kMr <= g.m; i += kMr) Block512<kMr>(g, i, j, m0, m1);
    for (; i + 4 <= g.m; i += 4) Block512<4>(g, i, j, m0, m1);
    for (; i < g.m; ++i) Block512<1>(g, i, j, m0, m1);
  }
}
#endif

using GemmFn = void (*)(const Gemm&);

GemmFn SelectGemm() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return GemmAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return GemmAvx2;
#endif
  return GemmGeneric;
}

// float16/bfloat16 rows widened into a float32 scratch (rows x cols, pitch cols).
template <typename Convert>
const float* Widen(std::vector<float>& scratch, const void* src, uint32_t rows, uint32_t cols, uint32_t ld,
                   Convert convert) {
  scratch.resize(static_cast<size_t>(rows) * cols);
  const uint16_t* s = static_cast<const uint16_t*>(src);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) scratch[static_cast<size_t>(r) * cols + c] = convert(s[static_cast<size_t>(r) * ld + c]);
  }
  return scratch.data();
}

}  // namespace
}  // namespace ascendc_sim

extern "C" aclError aclsimCubeMmad(float* c, const void* a, const void* b, uint32_t m, uint32_t n, uint32_t k,
                                   uint32_t lda, uint32_t ldb, uint32_t ldc, aclDataType abType, int accumulate) {
  using namespace ascendc_sim;
  static const GemmFn gemm = SelectGemm();
  if (c == nullptr || a == nullptr || b == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (m == 0 || n == 0) return ACL_SUCCESS;
  Gemm g{c, nullptr, nullptr, m, n, k, lda, ldb, ldc, accumulate != 0};
  if (k == 0) {
    if (!g.accumulate) {
      for (uint32_t i = 0; i < m; ++i) memset(c + static_cast<uint64_t>(i) * ldc, 0, sizeof(float) * n);
    }
    return ACL_SUCCESS;
  }
  if (abType == ACL_FLOAT) {
    g.a = static_cast<const float*>(a);
    g.b = static_cast<const float*>(b);
  } else if (abType == ACL_FLOAT16 || abType == ACL_BF16) {
    thread_local std::vector<float> wa, wb;
    const auto convert = abType == ACL_FLOAT16 ? HalfBitsToFloat : Bf16BitsToFloat;
    g.a = Widen(wa, a, m, k, lda, convert);
    g.b = Widen(wb, b, k, n, ldb, convert);
    g.lda = k;
    g.ldb = n;
  } else {
    return ACL_ERROR_INVALID_PARAM;
  }
  gemm(g);
  return ACL_SUCCESS;
}
