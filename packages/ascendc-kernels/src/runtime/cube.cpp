// The simulated cube unit (aclsimCubeMmad): a register-blocked float32 GEMM
// kernel, AVX-512 or AVX2+FMA when the host has them (chosen at run time, so
// the library stays portable), plain C++ otherwise. float16/bfloat16 operands
// are widened to float32 first (the cube accumulates in float32).
#include <stdint.h>
#include <string.h>

#include <array>
#include <utility>
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

// `Rows` rows (at most kMr) of a strip: a tail of fewer rows computes only those, and a strip of
// at most 16 columns (Wide false) only its first register.
template <uint32_t Rows, bool Wide>
__attribute__((target("avx512f,fma"))) void KernelAvx512(const Gemm& g, const float* pb, uint32_t i0, uint32_t j0,
                                                         uint32_t cols) {
  const float* arow[Rows];
  for (uint32_t r = 0; r < Rows; ++r) arow[r] = g.a + static_cast<uint64_t>(i0 + r) * g.lda;
  const __mmask16 m0 = static_cast<__mmask16>(cols >= 16 ? 0xffffu : (1u << cols) - 1u);
  const __mmask16 m1 = static_cast<__mmask16>(cols >= 32 ? 0xffffu : cols <= 16 ? 0u : (1u << (cols - 16)) - 1u);
  __m512 c0[Rows], c1[Rows];
  for (uint32_t r = 0; r < Rows; ++r) {
    c0[r] = _mm512_setzero_ps();
    c1[r] = _mm512_setzero_ps();
  }
  for (uint32_t p = 0; p < g.k; ++p) {
    const __m512 b0 = _mm512_loadu_ps(pb);
    const __m512 b1 = Wide ? _mm512_loadu_ps(pb + 16) : _mm512_setzero_ps();
    for (uint32_t r = 0; r < Rows; ++r) {
      const __m512 av = _mm512_set1_ps(arow[r][p]);
      c0[r] = _mm512_fmadd_ps(av, b0, c0[r]);
      if (Wide) c1[r] = _mm512_fmadd_ps(av, b1, c1[r]);
    }
    pb += kNr;
  }
  for (uint32_t r = 0; r < Rows; ++r) {
    float* crow = g.c + static_cast<uint64_t>(i0 + r) * g.ldc + j0;
    if (g.accumulate) {
      c0[r] = _mm512_add_ps(c0[r], _mm512_maskz_loadu_ps(m0, crow));
      if (Wide) c1[r] = _mm512_add_ps(c1[r], _mm512_maskz_loadu_ps(m1, crow + 16));
    }
    _mm512_mask_storeu_ps(crow, m0, c0[r]);
    if (Wide) _mm512_mask_storeu_ps(crow + 16, m1, c1[r]);
  }
}

using StripKernel = void (*)(const Gemm&, const float*, uint32_t, uint32_t, uint32_t);

template <bool Wide, uint32_t... Rows>
constexpr std::array<StripKernel, sizeof...(Rows)> StripKernels(std::integer_sequence<uint32_t, Rows...>) {
  return {KernelAvx512<Rows + 1, Wide>...};
}

// kStripKernels[wide][r - 1] computes r rows of a strip of more than 16 columns (wide) or at most 16.
constexpr std::array<std::array<StripKernel, kMr>, 2> kStripKernels = {
    StripKernels<false>(std::make_integer_sequence<uint32_t, kMr>{}),
    StripKernels<true>(std::make_integer_sequence<uint32_t, kMr>{})};

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
      const float* strip = pb.data() + static_cast<size_t>(jb) * g.k * kNr;
      kStripKernels[cols > 16][rows - 1](g, strip, ib * kMr, jb * kNr, cols);
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

// dst[c * dp + r] = src[r * sp + c] over rows [r0, r1) and columns [c0, c1).
template <typename E>
void TransposeScalar(E* __restrict d, uint32_t dp, const E* __restrict s, uint32_t sp, uint32_t r0, uint32_t r1,
                     uint32_t c0, uint32_t c1) {
  for (uint32_t c = c0; c < c1; ++c) {
    for (uint32_t r = r0; r < r1; ++r) d[static_cast<uint64_t>(c) * dp + r] = s[static_cast<uint64_t>(r) * sp + c];
  }
}

// 16 x 16 blocks keep both sides in cache (the hardware transposes per fractal too).
template <typename E>
void TransposeGeneric(E* d, uint32_t dp, const E* s, uint32_t sp, uint32_t rows, uint32_t cols) {
  constexpr uint32_t kBlock = 16;
  for (uint32_t r0 = 0; r0 < rows; r0 += kBlock) {
    for (uint32_t c0 = 0; c0 < cols; c0 += kBlock) {
      TransposeScalar(d, dp, s, sp, r0, r0 + kBlock < rows ? r0 + kBlock : rows, c0,
                      c0 + kBlock < cols ? c0 + kBlock : cols);
    }
  }
}

#if defined(__x86_64__)
// Whole 8 x 8 blocks through eight ymm registers (unpack, shuffle, lane permute); the edges scalar.
__attribute__((target("avx2"))) void TransposeAvx2(uint32_t* d, uint32_t dp, const uint32_t* s, uint32_t sp,
                                                   uint32_t rows, uint32_t cols) {
  const uint32_t rows8 = rows / 8 * 8, cols8 = cols / 8 * 8;
  for (uint32_t r0 = 0; r0 < rows8; r0 += 8) {
    for (uint32_t c0 = 0; c0 < cols8; c0 += 8) {
      const float* src = reinterpret_cast<const float*>(s + static_cast<uint64_t>(r0) * sp + c0);
      __m256 x[8], t[8];
      for (uint32_t i = 0; i < 8; ++i) x[i] = _mm256_loadu_ps(src + static_cast<uint64_t>(i) * sp);
      for (uint32_t i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(x[i], x[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(x[i], x[i + 1]);
      }
      for (uint32_t i = 0; i < 8; i += 4) {
        x[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        x[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        x[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        x[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
      }
      float* dst = reinterpret_cast<float*>(d + static_cast<uint64_t>(c0) * dp + r0);
      for (uint32_t i = 0; i < 4; ++i) {
        _mm256_storeu_ps(dst + static_cast<uint64_t>(i) * dp, _mm256_permute2f128_ps(x[i], x[i + 4], 0x20));
        _mm256_storeu_ps(dst + static_cast<uint64_t>(i + 4) * dp, _mm256_permute2f128_ps(x[i], x[i + 4], 0x31));
      }
    }
    TransposeScalar(d, dp, s, sp, r0, r0 + 8, cols8, cols);
  }
  TransposeScalar(d, dp, s, sp, rows8, rows, 0, cols);
}
#endif

using TransposeFn = void (*)(uint32_t*, uint32_t, const uint32_t*, uint32_t, uint32_t, uint32_t);

TransposeFn SelectTranspose() {
#if defined(__x86_64__)
  if (HostSimdLevel() >= 1) return TransposeAvx2;
#endif
  return TransposeGeneric<uint32_t>;
}

}  // namespace
}  // namespace ascendc_sim

extern "C" aclError aclsimCubeTranspose(void* dst, uint32_t dstPitch, const void* src, uint32_t srcPitch,
                                        uint32_t rows, uint32_t cols, uint32_t elementBytes) {
  using namespace ascendc_sim;
  static const TransposeFn transpose32 = SelectTranspose();
  if (dst == nullptr || src == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (elementBytes == 4) {
    transpose32(static_cast<uint32_t*>(dst), dstPitch, static_cast<const uint32_t*>(src), srcPitch, rows, cols);
  } else if (elementBytes == 2) {
    TransposeGeneric(static_cast<uint16_t*>(dst), dstPitch, static_cast<const uint16_t*>(src), srcPitch, rows, cols);
  } else {
    return ACL_ERROR_INVALID_PARAM;
  }
  return ACL_SUCCESS;
}

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
