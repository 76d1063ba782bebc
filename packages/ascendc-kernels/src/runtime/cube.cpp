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
#include "runtime/config.h"

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

// AVX-512 path: b packed in strips of 32 columns (pb[(jb * k + p) * 32 + c],
// zero padded) so the inner loop streams it with unmasked loads; per p, two zmm
// of b and kMr broadcasts of a (read in place from its rows) feed 2 * kMr
// accumulators. (Packing a as well measured slower: its strided gather costs
// more than the broadcasts save.)
constexpr uint32_t kMr = 12;
constexpr uint32_t kNr = 32;

__attribute__((target("avx512f,fma"))) void KernelAvx512(const Gemm& g, const float* pb, uint32_t i0, uint32_t rows,
                                                         uint32_t j0, uint32_t cols) {
  // Rows past m repeat the last row (their results are not stored).
  const float* arow[kMr];
  for (uint32_t r = 0; r < kMr; ++r) arow[r] = g.a + static_cast<uint64_t>(i0 + (r < rows ? r : rows - 1)) * g.lda;
  const __mmask16 m0 = static_cast<__mmask16>(cols >= 16 ? 0xffffu : (1u << cols) - 1u);
  const __mmask16 m1 = static_cast<__mmask16>(cols >= 32 ? 0xffffu : cols <= 16 ? 0u : (1u << (cols - 16)) - 1u);
  __m512 c0[kMr], c1[kMr];
  for (uint32_t r = 0; r < kMr; ++r) {
    c0[r] = _mm512_setzero_ps();
    c1[r] = _mm512_setzero_ps();
  }
  for (uint32_t p = 0; p < g.k; ++p) {
    const __m512 b0 = _mm512_loadu_ps(pb);
    const __m512 b1 = _mm512_loadu_ps(pb + 16);
    for (uint32_t r = 0; r < kMr; ++r) {
      const __m512 av = _mm512_set1_ps(arow[r][p]);
      c0[r] = _mm512_fmadd_ps(av, b0, c0[r]);
      c1[r] = _mm512_fmadd_ps(av, b1, c1[r]);
    }
    pb += kNr;
  }
  for (uint32_t r = 0; r < rows; ++r) {
    float* crow = g.c + static_cast<uint64_t>(i0 + r) * g.ldc + j0;
    if (g.accumulate) {
      c0[r] = _mm512_add_ps(c0[r], _mm512_maskz_loadu_ps(m0, crow));
      c1[r] = _mm512_add_ps(c1[r], _mm512_maskz_loadu_ps(m1, crow + 16));
    }
    _mm512_mask_storeu_ps(crow, m0, c0[r]);
    _mm512_mask_storeu_ps(crow + 16, m1, c1[r]);
  }
}

// Packing runs in baseline code; only the kernel uses AVX-512.
void GemmAvx512(const Gemm& g) {
  const uint32_t mb = (g.m + kMr - 1) / kMr, nb = (g.n + kNr - 1) / kNr;
  thread_local std::vector<float> pb;
  pb.resize(static_cast<size_t>(nb) * kNr * g.k);
  // b: strips of kNr columns (columns past n are zeros).
  const uint32_t fullStrips = g.n / kNr;
  for (uint32_t p = 0; p < g.k; ++p) {
    const float* src = g.b + static_cast<uint64_t>(p) * g.ldb;
    for (uint32_t jb = 0; jb < fullStrips; ++jb) {  // an inline copy: memcpy calls of 128 bytes cost more
      float* __restrict dst = pb.data() + (static_cast<size_t>(jb) * g.k + p) * kNr;
      const float* __restrict s = src + jb * kNr;
      for (uint32_t c = 0; c < kNr; ++c) dst[c] = s[c];
    }
    if (fullStrips < nb) {
      const uint32_t cols = g.n - fullStrips * kNr;
      float* dst = pb.data() + (static_cast<size_t>(fullStrips) * g.k + p) * kNr;
      for (uint32_t c = 0; c < kNr; ++c) dst[c] = c < cols ? src[fullStrips * kNr + c] : 0.0f;
    }
  }
  for (uint32_t jb = 0; jb < nb; ++jb) {
    const uint32_t cols = g.n - jb * kNr < kNr ? g.n - jb * kNr : kNr;
    for (uint32_t ib = 0; ib < mb; ++ib) {
      const uint32_t rows = g.m - ib * kMr < kMr ? g.m - ib * kMr : kMr;
      KernelAvx512(g, pb.data() + static_cast<size_t>(jb) * g.k * kNr, ib * kMr, rows, jb * kNr, cols);
    }
  }
}
#endif

using GemmFn = void (*)(const Gemm&);

GemmFn SelectGemm() {
#if defined(__x86_64__)
  const int32_t level = HostSimdLevel();
  if (level >= 2) return GemmAvx512;
  if (level >= 1) return GemmAvx2;
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
    const uint16_t* __restrict in = s + static_cast<size_t>(r) * ld;
    float* __restrict out = scratch.data() + static_cast<size_t>(r) * cols;
    for (uint32_t c = 0; c < cols; ++c) out[c] = convert(in[c]);
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
    // Lambdas (not function pointers) so that the conversion inlines and vectorises.
    if (abType == ACL_FLOAT16) {
      const auto convert = [](uint16_t h) { return HalfBitsToFloat(h); };
      g.a = Widen(wa, a, m, k, lda, convert);
      g.b = Widen(wb, b, k, n, ldb, convert);
    } else {
      const auto convert = [](uint16_t h) { return Bf16BitsToFloat(h); };
      g.a = Widen(wa, a, m, k, lda, convert);
      g.b = Widen(wb, b, k, n, ldb, convert);
    }
    g.lda = k;
    g.ldb = n;
  } else {
    return ACL_ERROR_INVALID_PARAM;
  }
  gemm(g);
  return ACL_SUCCESS;
}
