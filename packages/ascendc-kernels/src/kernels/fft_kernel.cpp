// fft_lines: one-dimensional discrete Fourier transforms of the lines of a dense
// complex128 tensor [outer, inLength, inner] along its middle dimension, in double
// precision (complex64 data is transformed in complex128 by the caller, as float16
// is computed in float32).
//
// Each block takes a range of lines. Per line it gathers the elements (stride
// `inner`) into its scratch, builds the signal of `length` elements (zero padded or
// truncated; with `hermitian`, completed by the conjugate mirror), transforms it and
// scatters the first `outLength` results, scaled. The transform of a power-of-two
// length is an iterative radix-2 FFT; a short other length is a direct DFT with a
// table of the length's roots of unity; a longer one is Bluestein's algorithm (the
// transform as a convolution with a chirp, computed by radix-2 FFTs of a power of two
// at least 2 * length - 1). The tables are computed once per block.
#include <math.h>

#include <complex>

#include "ascendc_sim/launch.h"
#include "common/error.h"
#include "kernels/complex_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using Complex = std::complex<double>;

// Lengths up to this (that are not powers of two) use the direct DFT.
constexpr int64_t kDirectDftMaxLength = 64;

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

int64_t NextPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

enum class FftMethod : int32_t { kRadix2, kDirect, kBluestein };

struct FftPlan {
  FftMethod method = FftMethod::kRadix2;
  int64_t m = 0;  // the radix-2 length (Bluestein: the convolution length)
};

FftPlan PlanFor(int64_t length) {
  FftPlan plan;
  if (IsPowerOfTwo(length)) {
    plan.method = FftMethod::kRadix2;
    plan.m = length;
  } else if (length <= kDirectDftMaxLength) {
    plan.method = FftMethod::kDirect;
    plan.m = 0;
  } else {
    plan.method = FftMethod::kBluestein;
    plan.m = NextPowerOfTwo(2 * length - 1);
  }
  return plan;
}

// Scratch elements (complex128) of one block: the signal, the tables, the work lines.
int64_t ScratchElements(int64_t length, const FftPlan& plan) {
  switch (plan.method) {
    case FftMethod::kRadix2: return length + length / 2 + 1;
    case FftMethod::kDirect: return 3 * length;
    case FftMethod::kBluestein: return length + plan.m / 2 + 1 + 2 * length + 2 * plan.m;
  }
  return 0;
}

struct FftKernelParams {
  FftLinesArgs args;
  FftPlan plan;
  int64_t linesPerBlock = 0;
  int64_t scratchPerBlock = 0;  // complex elements
};

// exp(sign * 2 pi i k / n), with k reduced mod n first.
inline Complex Root(int64_t k, int64_t n, double sign) {
  const double angle = sign * 2.0 * M_PI * static_cast<double>(k % n) / static_cast<double>(n);
  return Complex(cos(angle), sin(angle));
}

// In-place radix-2 FFT of `m` elements with the table w[k] = exp(sign 2 pi i k / m), k < m / 2.
void Radix2(Complex* a, int64_t m, const Complex* w) {
  for (int64_t i = 1, j = 0; i < m; ++i) {  // bit-reversal permutation
    int64_t bit = m >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (int64_t len = 2; len <= m; len <<= 1) {
    const int64_t half = len / 2;
    const int64_t step = m / len;
    for (int64_t start = 0; start < m; start += len) {
      for (int64_t k = 0; k < half; ++k) {
        const Complex t = a[start + k + half] * w[k * step];
        a[start + k + half] = a[start + k] - t;
        a[start + k] += t;
      }
    }
  }
}

class KernelFftLines {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR scratch, const FftKernelParams& p) {
    p_ = &p;
    const int64_t block = static_cast<int64_t>(AscendC::GetBlockIdx());
    const int64_t lines = p.args.outer * p.args.inner;
    firstLine_ = block * p.linesPerBlock;
    lastLine_ = firstLine_ + p.linesPerBlock < lines ? firstLine_ + p.linesPerBlock : lines;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ Complex*>(x), static_cast<uint64_t>(p.args.outer * p.args.inLength *
                                                                                    p.args.inner));
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ Complex*>(y), static_cast<uint64_t>(p.args.outer *
                                                                                    p.args.outLength * p.args.inner));
    scratchGm_.SetGlobalBuffer(reinterpret_cast<__gm__ Complex*>(scratch) + block * p.scratchPerBlock,
                               static_cast<uint64_t>(p.scratchPerBlock));
  }

  __aicore__ inline void Process() {
    if (firstLine_ >= lastLine_) return;
    const FftLinesArgs& a = p_->args;
    const int64_t n = a.length;
    const double sign = a.forward ? -1.0 : 1.0;
    Complex* s = scratchGm_.GetPhyAddr();
    Complex* signal = s;
    Complex* tables = s + n;
    BuildTables(tables, n, sign);
    const Complex* x = xGm_.GetPhyAddr();
    Complex* y = yGm_.GetPhyAddr();
    for (int64_t line = firstLine_; line < lastLine_; ++line) {
      const int64_t o = line / a.inner;
      const int64_t i = line % a.inner;
      const Complex* in = x + o * a.inLength * a.inner + i;
      Complex* out = y + o * a.outLength * a.inner + i;
      Gather(signal, in, n);
      Transform(signal, tables, n);
      for (int64_t k = 0; k < a.outLength; ++k) out[k * a.inner] = signal[k] * a.scale;
    }
  }

 private:
  // The line's signal of n elements.
  void Gather(Complex* signal, const Complex* in, int64_t n) const {
    const FftLinesArgs& a = p_->args;
    const int64_t stride = a.inner;
    if (!a.hermitian) {
      const int64_t copied = a.inLength < n ? a.inLength : n;
      for (int64_t j = 0; j < copied; ++j) signal[j] = in[j * stride];
      for (int64_t j = copied; j < n; ++j) signal[j] = Complex(0.0, 0.0);
      return;
    }
    const int64_t half = n / 2;  // signal[0..half] are given, the rest mirrors them
    for (int64_t j = 0; j <= half && j < n; ++j) signal[j] = j < a.inLength ? in[j * stride] : Complex(0.0, 0.0);
    for (int64_t j = half + 1; j < n; ++j) {
      const int64_t mirror = n - j;
      signal[j] = mirror < a.inLength ? std::conj(in[mirror * stride]) : Complex(0.0, 0.0);
    }
  }

  void BuildTables(Complex* t, int64_t n, double sign) const {
    const FftPlan& plan = p_->plan;
    switch (plan.method) {
      case FftMethod::kRadix2:
        for (int64_t k = 0; k < n / 2; ++k) t[k] = Root(k, n, sign);
        break;
      case FftMethod::kDirect:
        for (int64_t k = 0; k < n; ++k) t[k] = Root(k, n, sign);
        break;
      case FftMethod::kBluestein: {
        const int64_t m = plan.m;
        Complex* w = t;                   // m / 2 roots of the radix-2 length (forward)
        Complex* chirp = t + m / 2 + 1;   // n: exp(sign pi i j^2 / n)
        Complex* kernel = chirp + n;      // m: the FFT of the conjugate chirp, wrapped
        for (int64_t k = 0; k < m / 2; ++k) w[k] = Root(k, m, -1.0);
        for (int64_t j = 0; j < n; ++j) {
          // j^2 mod 2n keeps the angle exact for long lines.
          const int64_t q = (j * j) % (2 * n);
          const double angle = sign * M_PI * static_cast<double>(q) / static_cast<double>(n);
          chirp[j] = Complex(cos(angle), sin(angle));
        }
        for (int64_t j = 0; j < m; ++j) kernel[j] = Complex(0.0, 0.0);
        kernel[0] = std::conj(chirp[0]);
        for (int64_t j = 1; j < n; ++j) kernel[j] = kernel[m - j] = std::conj(chirp[j]);
        Radix2(kernel, m, w);
        break;
      }
    }
  }

  void Transform(Complex* signal, Complex* tables, int64_t n) const {
    const FftPlan& plan = p_->plan;
    switch (plan.method) {
      case FftMethod::kRadix2:
        Radix2(signal, n, tables);
        return;
      case FftMethod::kDirect: {
        Complex* result = tables + n;
        for (int64_t k = 0; k < n; ++k) {
          Complex sum(0.0, 0.0);
          for (int64_t j = 0; j < n; ++j) sum += signal[j] * tables[(j * k) % n];
          result[k] = sum;
        }
        for (int64_t k = 0; k < n; ++k) signal[k] = result[k];
        return;
      }
      case FftMethod::kBluestein: {
        const int64_t m = plan.m;
        Complex* w = tables;
        Complex* chirp = tables + m / 2 + 1;
        Complex* kernel = chirp + n;
        Complex* work = kernel + m;
        for (int64_t j = 0; j < n; ++j) work[j] = signal[j] * chirp[j];
        for (int64_t j = n; j < m; ++j) work[j] = Complex(0.0, 0.0);
        Radix2(work, m, w);
        for (int64_t j = 0; j < m; ++j) work[j] = std::conj(work[j] * kernel[j]);  // inverse by conjugation
        Radix2(work, m, w);
        const double inv = 1.0 / static_cast<double>(m);
        for (int64_t k = 0; k < n; ++k) signal[k] = std::conj(work[k]) * inv * chirp[k];
        return;
      }
    }
  }

  const FftKernelParams* p_ = nullptr;
  int64_t firstLine_ = 0;
  int64_t lastLine_ = 0;
  AscendC::GlobalTensor<Complex> xGm_;
  AscendC::GlobalTensor<Complex> yGm_;
  AscendC::GlobalTensor<Complex> scratchGm_;
};

__global__ __aicore__ void fft_lines(GM_ADDR x, GM_ADDR y, GM_ADDR scratch, FftKernelParams params) {
  KernelFftLines op;
  op.Init(x, y, scratch, params);
  op.Process();
}

uint32_t BlocksFor(const FftLinesArgs& args) {
  const int64_t lines = args.outer * args.inner;
  const int64_t cores = static_cast<int64_t>(aclsimGetCoreNumAiv() > 0 ? aclsimGetCoreNumAiv() : 1);
  // A block takes at least 64 KiB of signal (small launches run as one block).
  const int64_t perLine = args.length * static_cast<int64_t>(sizeof(Complex));
  const int64_t wanted = lines * perLine / (64 * 1024);
  int64_t blocks = wanted < cores ? wanted : cores;
  if (blocks > lines) blocks = lines;
  return static_cast<uint32_t>(blocks < 1 ? 1 : blocks);
}

}  // namespace

uint64_t FftLinesScratchBytes(const FftLinesArgs& args) {
  if (args.length <= 0 || args.outer * args.inner == 0) return 0;
  const FftPlan plan = PlanFor(args.length);
  return static_cast<uint64_t>(BlocksFor(args)) * static_cast<uint64_t>(ScratchElements(args.length, plan)) *
         sizeof(Complex);
}

aclError LaunchFftLines(const FftLinesArgs& args, void* scratch, aclrtStream stream) {
  if (args.outer * args.inner * args.outLength == 0) return ACL_SUCCESS;
  if (args.length <= 0 || args.outLength > args.length || args.inLength <= 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'fft_lines': a line of %lld elements cannot give %lld of a "
                      "%lld-point transform", static_cast<long long>(args.inLength),
                      static_cast<long long>(args.outLength), static_cast<long long>(args.length));
  }
  FftKernelParams params;
  params.args = args;
  params.plan = PlanFor(args.length);
  params.scratchPerBlock = ScratchElements(args.length, params.plan);
  const uint32_t blocks = BlocksFor(args);
  const int64_t lines = args.outer * args.inner;
  params.linesPerBlock = (lines + blocks - 1) / blocks;
  const uint32_t used = static_cast<uint32_t>((lines + params.linesPerBlock - 1) / params.linesPerBlock);
  return LaunchKernel("fft_lines", used, stream, fft_lines, const_cast<void*>(args.x), args.y, scratch, params);
}

}  // namespace kernels
}  // namespace ascendc_sim
