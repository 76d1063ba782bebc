// Host entry points of the simulator's complex kernels (complex64, complex128):
// fill, the complex elementwise operators and the FFT along one dimension.
// All pointers are device memory; nothing is queued for 0 elements.
#ifndef ASCENDC_SIM_KERNELS_COMPLEX_API_H
#define ASCENDC_SIM_KERNELS_COMPLEX_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {
namespace kernels {

// y[i] = re + i * im, n elements of ACL_COMPLEX64 or ACL_COMPLEX128 (dense).
ASCENDC_SIM_INTERNAL_API aclError LaunchFillComplex(aclDataType dtype, void* y, uint64_t n, double re, double im,
                                                    aclrtStream stream);

// The complex elementwise operators (dense operands of n elements). `dtype` is the complex
// type computed in (ACL_COMPLEX64 or ACL_COMPLEX128; computed in double precision, rounded
// once). Operand and result types per operator:
//   complex -> complex:      kNeg, kConj, kExp, kLog, kSqrt, kReciprocal, kSgn,
//                            kAdd, kSub, kMul, kDiv (x0 op alpha * x1 for add/sub, alpha = s),
//                            kMulScalar (x0 * s), kAddScalar (x0 + s), kPowScalar (x0 ** s)
//   complex -> real part:    kAbs, kAngle
//   complex -> bool:         kEq, kNe (x0 vs x1), kIsNan, kIsFinite
//   real parts -> complex:   kComplex (x0 + i x1), kPolar (x0 * exp(i x1))
//   real -> real:            kRealAngle (pi for x < 0, NaN for NaN, else 0), kRealSgn (-1, 0 or 1; 0 for NaN):
//                            angle and sgn of real operands, as PyTorch defines them
enum class CxOp : int32_t {
  kNeg, kConj, kExp, kLog, kSqrt, kReciprocal, kSgn,
  kAdd, kSub, kMul, kDiv, kMulScalar, kAddScalar, kPowScalar,
  kAbs, kAngle,
  kEq, kNe, kIsNan, kIsFinite,
  kComplex, kPolar,
  kRealAngle, kRealSgn,
};

enum class CxKind : int32_t { kComplexToComplex, kComplexToReal, kComplexToBool, kRealToComplex, kRealToReal };

ASCENDC_SIM_INTERNAL_API CxKind CxKindOf(CxOp op);
ASCENDC_SIM_INTERNAL_API int CxArity(CxOp op);
ASCENDC_SIM_INTERNAL_API const char* CxName(CxOp op);

struct CxArgs {
  CxOp op = CxOp::kNeg;
  aclDataType dtype = ACL_COMPLEX64;
  const void* x[2] = {nullptr, nullptr};
  void* y = nullptr;
  uint64_t n = 0;
  double sRe = 0.0;  // the scalar (alpha, the other operand or the exponent)
  double sIm = 0.0;
};

ASCENDC_SIM_INTERNAL_API aclError LaunchComplexElementwise(const CxArgs& args, aclrtStream stream);

// One-dimensional discrete Fourier transforms of the lines of a dense ACL_COMPLEX128
// tensor viewed as [outer, inLength, inner] (the transformed dimension in the middle),
// written to a dense ACL_COMPLEX128 tensor [outer, outLength, inner]:
//   y[k] = scale * sum_j x[j] * exp(sign * 2 pi i j k / length),  k < outLength,
// where sign is -1 forward, +1 backward. A line shorter than `length` is zero padded,
// a longer one truncated; with `hermitian` the line holds the first half of a
// Hermitian-symmetric signal of `length` elements, whose other half is the conjugate
// mirror (x[length - j] = conj(x[j])): the inverse of a one-sided real transform.
struct FftLinesArgs {
  const void* x = nullptr;
  void* y = nullptr;
  int64_t outer = 1;
  int64_t inner = 1;
  int64_t inLength = 0;
  int64_t outLength = 0;
  int64_t length = 0;
  bool forward = true;
  bool hermitian = false;
  double scale = 1.0;
};

// Scratch (device memory) the launch needs, in bytes; `scratch` of that size is
// passed to LaunchFftLines (one slice per block).
ASCENDC_SIM_INTERNAL_API uint64_t FftLinesScratchBytes(const FftLinesArgs& args);
ASCENDC_SIM_INTERNAL_API aclError LaunchFftLines(const FftLinesArgs& args, void* scratch, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_COMPLEX_API_H
