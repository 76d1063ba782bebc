// The generic elementwise kernel: one Ascend C kernel template for the
// unary, binary, ternary, compare and select operators (kernels/elementwise_api.h).
//
// Each block takes its slice of the (dense, same-dtype) inputs from the tiling and
// moves it through the unified buffer tile by tile: copy-in of up to three inputs
// over double-buffered VECIN queues, a cast to the compute type (float32 for
// float16/bfloat16, else the type itself), the operator as a sequence of vector
// instructions on the compute-type tiles (with three scratch tiles and a compare
// mask), a cast to the result type (bool for compares) and copy-out over a
// VECOUT queue. The operator is a kernel parameter, so one instantiation per
// (input type, result type) serves every operator.
#include <math.h>

#include <cmath>
#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using AscendC::CMPMODE;
using AscendC::LocalTensor;
using AscendC::SELMODE;

constexpr int kMaxInputs = 3;
constexpr int kScratchTiles = 3;

// Kernel parameters (passed by value, as a tiling struct).
struct EwKernelParams {
  EwOp op = EwOp::kNeg;
  int32_t arity = 1;
  ScalarValue s;
};

CMPMODE CompareModeOf(EwOp op) {
  switch (op) {
    case EwOp::kEq: case EwOp::kEqScalar: return CMPMODE::EQ;
    case EwOp::kNe: case EwOp::kNeScalar: return CMPMODE::NE;
    case EwOp::kLt: case EwOp::kLtScalar: return CMPMODE::LT;
    case EwOp::kLe: case EwOp::kLeScalar: return CMPMODE::LE;
    case EwOp::kGt: case EwOp::kGtScalar: return CMPMODE::GT;
    default: return CMPMODE::GE;
  }
}

// The working tiles of one tile step, all in the compute type C.
template <typename C>
struct Tiles {
  LocalTensor<C> x[kMaxInputs];
  LocalTensor<C> t[kScratchTiles];
  LocalTensor<uint8_t> mask;
  uint32_t n = 0;
};

// dst = sigmoid(src) = 1 / (1 + exp(-src)); tmp is scratch (dst may be src).
template <typename C>
__aicore__ inline void SigmoidInto(const LocalTensor<C>& dst, const LocalTensor<C>& src, const LocalTensor<C>& tmp,
                                   uint32_t n) {
  AscendC::Muls(tmp, src, C(-1), n);
  AscendC::Exp(tmp, tmp, n);
  AscendC::Adds(tmp, tmp, C(1), n);
  AscendC::Reciprocal(dst, tmp, n);
}

// dst = tanh(src) = 2 * sigmoid(2 src) - 1 (saturates to +-1, NaN stays NaN).
template <typename C>
__aicore__ inline void TanhInto(const LocalTensor<C>& dst, const LocalTensor<C>& src, const LocalTensor<C>& tmp,
                                uint32_t n) {
  AscendC::Muls(tmp, src, C(-2), n);
  AscendC::Exp(tmp, tmp, n);
  AscendC::Adds(tmp, tmp, C(1), n);
  AscendC::Reciprocal(tmp, tmp, n);
  AscendC::Muls(tmp, tmp, C(2), n);
  AscendC::Adds(dst, tmp, C(-1), n);
}

// dst = Phi(x), the standard normal CDF, from erfc(|x| / sqrt 2) by Abramowitz
// and Stegun 7.1.26 (absolute error below 1.5e-7): Phi = 1 - erfc / 2 for x >= 0,
// erfc / 2 below. Uses t[0..2] and the mask; dst must not be one of them.
template <typename C>
__aicore__ inline void PhiInto(const LocalTensor<C>& dst, const LocalTensor<C>& x, const Tiles<C>& w) {
  const uint32_t n = w.n;
  const LocalTensor<C>& z = w.t[0];
  const LocalTensor<C>& t = w.t[1];
  const LocalTensor<C>& p = w.t[2];
  AscendC::Abs(z, x, n);
  AscendC::Muls(z, z, C(0.70710678118654752440), n);
  AscendC::Muls(t, z, C(0.3275911), n);
  AscendC::Adds(t, t, C(1), n);
  AscendC::Reciprocal(t, t, n);
  AscendC::Muls(p, t, C(1.061405429), n);
  AscendC::Adds(p, p, C(-1.453152027), n);
  AscendC::Mul(p, p, t, n);
  AscendC::Adds(p, p, C(1.421413741), n);
  AscendC::Mul(p, p, t, n);
  AscendC::Adds(p, p, C(-0.284496736), n);
  AscendC::Mul(p, p, t, n);
  AscendC::Adds(p, p, C(0.254829592), n);
  AscendC::Mul(p, p, t, n);
  AscendC::Mul(z, z, z, n);
  AscendC::Muls(z, z, C(-1), n);
  AscendC::Exp(z, z, n);
  AscendC::Mul(p, p, z, n);                 // erfc(|x| / sqrt 2)
  AscendC::Muls(p, p, C(0.5), n);           // Phi(-|x|)
  AscendC::Muls(z, p, C(-1), n);
  AscendC::Adds(z, z, C(1), n);             // Phi(|x|)
  AscendC::CompareScalar(w.mask, x, C(0), CMPMODE::LT, n);
  AscendC::Select(dst, w.mask, p, z, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

// y = pow(x, e) for an integral exponent by repeated squaring (e >= 0).
template <typename C>
__aicore__ inline void PowIntInto(const LocalTensor<C>& y, const LocalTensor<C>& x, const LocalTensor<C>& base,
                                  uint64_t e, uint32_t n) {
  AscendC::Duplicate(y, C(1), n);
  AscendC::Muls(base, x, C(1), n);
  while (e != 0) {
    if (e & 1u) AscendC::Mul(y, y, base, n);
    e >>= 1;
    if (e != 0) AscendC::Mul(base, base, base, n);
  }
}

// y = pow(x, f) for an exponent that is not an integer of at most 2^62, with std::pow's
// special values: exp(f ln b), where b is |x| for f = +-inf or a huge (even) f, and +inf for
// x = -inf; a negative finite x with a fractional f gives NaN (its log); pow(1, f) is 1 for
// every f, NaN included. Uses t[0], t[1] and the mask.
template <typename C>
__aicore__ inline void PowFloatInto(const LocalTensor<C>& y, const LocalTensor<C>& x, double f, const Tiles<C>& w) {
  const uint32_t n = w.n;
  const LocalTensor<C>& b = w.t[0];
  const LocalTensor<C>& value = w.t[1];
  if (std::isinf(f) || (!std::isnan(f) && std::fabs(f) > 4.6e18)) {
    AscendC::Abs(b, x, n);
  } else {
    AscendC::Muls(b, x, C(1), n);
    AscendC::CompareScalar(w.mask, x, static_cast<C>(-INFINITY), CMPMODE::EQ, n);
    AscendC::Duplicate(value, static_cast<C>(INFINITY), n);
    AscendC::Select(b, w.mask, value, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
  }
  AscendC::Ln(y, b, n);
  AscendC::Muls(y, y, static_cast<C>(f), n);
  AscendC::Exp(y, y, n);
  AscendC::CompareScalar(w.mask, b, C(1), CMPMODE::EQ, n);
  AscendC::Duplicate(value, C(1), n);
  AscendC::Select(y, w.mask, value, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

// y = 1 where mask else 0.
template <typename C>
__aicore__ inline void MaskToValues(const LocalTensor<C>& y, const Tiles<C>& w) {
  AscendC::Duplicate(w.t[0], C(1), w.n);
  AscendC::Select(y, w.mask, w.t[0], C(0), SELMODE::VSEL_TENSOR_SCALAR_MODE, w.n);
}

// The operator on one tile of compute-type values. T is the element type (for
// the scalar's conversion).
template <typename T, typename C>
__aicore__ inline void ComputeTile(const EwKernelParams& p, const LocalTensor<C>& y, const Tiles<C>& w) {
  constexpr bool kFloat = AscendC::detail::kIsFloatLike<C>;
  constexpr bool kBool = std::is_same<C, bool>::value;
  const uint32_t n = w.n;
  const LocalTensor<C>* x = w.x;
  const C s = ScalarAs<T>(p.s);
  switch (p.op) {
    case EwOp::kEqScalar: case EwOp::kNeScalar: case EwOp::kLtScalar:
    case EwOp::kLeScalar: case EwOp::kGtScalar: case EwOp::kGeScalar:
      AscendC::CompareScalar(w.mask, x[0], s, CompareModeOf(p.op), n);
      MaskToValues(y, w);
      return;
    case EwOp::kEq: case EwOp::kNe: case EwOp::kLt: case EwOp::kLe: case EwOp::kGt: case EwOp::kGe:
      AscendC::Compare(w.mask, x[0], x[1], CompareModeOf(p.op), n);
      MaskToValues(y, w);
      return;
    case EwOp::kWhere:
      AscendC::CompareScalar(w.mask, x[0], C(0), CMPMODE::NE, n);
      AscendC::Select(y, w.mask, x[1], x[2], SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
      return;
    case EwOp::kMaskedFill:
      AscendC::CompareScalar(w.mask, x[1], C(0), CMPMODE::NE, n);
      AscendC::Duplicate(w.t[0], s, n);
      AscendC::Select(y, w.mask, w.t[0], x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
      return;
    case EwOp::kMaximum:
    case EwOp::kMinimum:
      if (p.op == EwOp::kMaximum) {
        AscendC::Max(y, x[0], x[1], n);
      } else {
        AscendC::Min(y, x[0], x[1], n);
      }
      if constexpr (kFloat) {
        // Equal operands give the first (CPU's rule: maximum(-0.0, 0.0) is -0.0), and NaN
        // propagates from either, as torch.maximum.
        AscendC::Compare(w.mask, x[0], x[1], CMPMODE::EQ, n);
        AscendC::Select(y, w.mask, x[0], y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        for (int i = 0; i < 2; ++i) {
          AscendC::Compare(w.mask, x[i], x[i], CMPMODE::NE, n);
          AscendC::Select(y, w.mask, x[i], y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        }
      }
      return;
    default:
      break;
  }
  if constexpr (!kBool) {
    switch (p.op) {
      case EwOp::kNeg: AscendC::Muls(y, x[0], C(-1), n); return;
      case EwOp::kAddScalar: AscendC::Adds(y, x[0], s, n); return;
      case EwOp::kMulScalar: AscendC::Muls(y, x[0], s, n); return;
      case EwOp::kRelu: AscendC::Relu(y, x[0], n); return;
      case EwOp::kSub:
        AscendC::Muls(w.t[0], x[1], s, n);
        AscendC::Sub(y, x[0], w.t[0], n);
        return;
      case EwOp::kThresholdBackward:
        AscendC::CompareScalar(w.mask, x[1], s, CMPMODE::LE, n);
        AscendC::Duplicate(w.t[0], C(0), n);
        AscendC::Select(y, w.mask, w.t[0], x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        return;
      case EwOp::kAddcmul:  // self + (value * t1) * t2, ATen's order
        AscendC::Muls(w.t[0], x[1], s, n);
        AscendC::Mul(w.t[0], w.t[0], x[2], n);
        AscendC::Add(y, x[0], w.t[0], n);
        return;
      case EwOp::kPowScalar: {
        // An integral exponent (every exponent of an integer tensor; a float one up to 2^62):
        // repeated squaring, as std::pow's exact cases.
        const double f = p.s.f;
        if (!p.s.isFloating || (std::fabs(f) <= 4.6e18 && f == std::trunc(f))) {
          const int64_t e = p.s.isFloating ? static_cast<int64_t>(f) : p.s.i;
          const uint64_t magnitude = e < 0 ? uint64_t{0} - static_cast<uint64_t>(e) : static_cast<uint64_t>(e);
          PowIntInto(y, x[0], w.t[0], magnitude, n);
          if constexpr (kFloat) {
            if (e < 0) AscendC::Reciprocal(y, y, n);
          }
          return;
        }
        if constexpr (kFloat) {
          if (f == 0.5) {  // CPU's own rule: sqrt (so pow(-0.0, 0.5) is -0.0, pow(-inf, 0.5) NaN)
            AscendC::Sqrt(y, x[0], n);
          } else if (f == -0.5) {
            AscendC::Rsqrt(y, x[0], n);
          } else {
            PowFloatInto(y, x[0], f, w);
          }
        }
        return;
      }
      default:
        break;
    }
  }
  if constexpr (kFloat) {
    switch (p.op) {
      case EwOp::kExp: AscendC::Exp(y, x[0], n); return;
      case EwOp::kLog: AscendC::Ln(y, x[0], n); return;
      case EwOp::kSqrt: AscendC::Sqrt(y, x[0], n); return;
      case EwOp::kRsqrt: AscendC::Rsqrt(y, x[0], n); return;
      case EwOp::kReciprocal: AscendC::Reciprocal(y, x[0], n); return;
      case EwOp::kSigmoid: SigmoidInto(y, x[0], w.t[0], n); return;
      case EwOp::kTanh:
        TanhInto(y, x[0], w.t[0], n);
        // Near 0 tanh x is x to float precision (|x| < 2^-12: the error is x^3 / 3): this keeps
        // tiny values exact (2 sigmoid(2x) - 1 cancels them) and the sign of -0.0.
        AscendC::Abs(w.t[0], x[0], n);
        AscendC::CompareScalar(w.mask, w.t[0], C(2.44140625e-4), CMPMODE::LT, n);
        AscendC::Select(y, w.mask, x[0], y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        return;
      case EwOp::kGelu:
        PhiInto(y, x[0], w);
        AscendC::Mul(y, y, x[0], n);
        return;
      case EwOp::kGeluTanh: {  // x * sigmoid(2u) == 0.5 x (1 + tanh u), u = sqrt(2/pi) (x + 0.044715 x^3)
        const LocalTensor<C>& u = w.t[0];
        AscendC::Mul(u, x[0], x[0], n);
        AscendC::Mul(u, u, x[0], n);
        AscendC::Muls(u, u, C(0.044715), n);
        AscendC::Add(u, u, x[0], n);
        AscendC::Muls(u, u, C(2 * 0.79788456080286535588), n);
        SigmoidInto(u, u, w.t[1], n);
        AscendC::Mul(y, x[0], u, n);
        return;
      }
      case EwOp::kSilu:
        SigmoidInto(w.t[0], x[0], w.t[1], n);
        AscendC::Mul(y, x[0], w.t[0], n);
        return;
      case EwOp::kDiv: AscendC::Div(y, x[0], x[1], n); return;
      case EwOp::kDivScalar:
        AscendC::Duplicate(w.t[0], s, n);
        AscendC::Div(y, x[0], w.t[0], n);
        return;
      case EwOp::kGeluBackward: {  // grad * (Phi(x) + x phi(x))
        PhiInto(y, x[1], w);
        const LocalTensor<C>& d = w.t[0];
        AscendC::Mul(d, x[1], x[1], n);
        AscendC::Muls(d, d, C(-0.5), n);
        AscendC::Exp(d, d, n);
        AscendC::Muls(d, d, C(0.39894228040143267794), n);
        AscendC::Mul(d, d, x[1], n);
        AscendC::Add(y, y, d, n);
        AscendC::Mul(y, y, x[0], n);
        return;
      }
      case EwOp::kGeluTanhBackward: {
        const C kBeta = C(0.79788456080286535588);
        const C kKappa = C(0.044715);
        const LocalTensor<C>& th = w.t[0];
        const LocalTensor<C>& a = w.t[1];
        const LocalTensor<C>& b = w.t[2];
        AscendC::Mul(th, x[1], x[1], n);
        AscendC::Mul(th, th, x[1], n);
        AscendC::Muls(th, th, kKappa, n);
        AscendC::Add(th, th, x[1], n);
        AscendC::Muls(th, th, kBeta, n);
        TanhInto(th, th, a, n);                    // tanh(inner)
        AscendC::Mul(a, th, th, n);
        AscendC::Muls(a, a, C(-1), n);
        AscendC::Adds(a, a, C(1), n);              // 1 - tanh^2
        AscendC::Mul(b, x[1], x[1], n);
        AscendC::Muls(b, b, C(3) * kKappa, n);
        AscendC::Adds(b, b, C(1), n);
        AscendC::Muls(b, b, kBeta, n);             // d inner / dx
        AscendC::Mul(a, a, b, n);
        AscendC::Muls(b, x[1], C(0.5), n);
        AscendC::Mul(a, a, b, n);                  // right derivative
        AscendC::Adds(th, th, C(1), n);
        AscendC::Muls(th, th, C(0.5), n);          // left derivative
        AscendC::Add(y, th, a, n);
        AscendC::Mul(y, y, x[0], n);
        return;
      }
      case EwOp::kSigmoidBackward:  // (grad * (1 - y)) * y
        AscendC::Muls(w.t[0], x[1], C(-1), n);
        AscendC::Adds(w.t[0], w.t[0], C(1), n);
        AscendC::Mul(w.t[0], x[0], w.t[0], n);
        AscendC::Mul(y, w.t[0], x[1], n);
        return;
      case EwOp::kTanhBackward:  // grad * (1 - y * y)
        AscendC::Mul(w.t[0], x[1], x[1], n);
        AscendC::Muls(w.t[0], w.t[0], C(-1), n);
        AscendC::Adds(w.t[0], w.t[0], C(1), n);
        AscendC::Mul(y, x[0], w.t[0], n);
        return;
      case EwOp::kSiluBackward:  // grad * s * (1 + x (1 - s)), s = sigmoid(x)
        SigmoidInto(w.t[0], x[1], w.t[1], n);
        AscendC::Muls(w.t[1], w.t[0], C(-1), n);
        AscendC::Adds(w.t[1], w.t[1], C(1), n);
        AscendC::Mul(w.t[1], w.t[1], x[1], n);
        AscendC::Adds(w.t[1], w.t[1], C(1), n);
        AscendC::Mul(y, x[0], w.t[0], n);
        AscendC::Mul(y, y, w.t[1], n);
        return;
      case EwOp::kLerpScalar:  // ATen: |w| < 0.5 ? self + w (end - self) : end - (end - self) (1 - w)
        AscendC::Sub(w.t[0], x[1], x[0], n);
        if (fabs(p.s.f) < 0.5) {
          AscendC::Muls(w.t[0], w.t[0], s, n);
          AscendC::Add(y, x[0], w.t[0], n);
        } else {
          AscendC::Muls(w.t[0], w.t[0], static_cast<C>(1.0 - p.s.f), n);
          AscendC::Sub(y, x[1], w.t[0], n);
        }
        return;
      case EwOp::kAddcdiv:  // self + (value * t1) / t2, ATen's order
        AscendC::Muls(w.t[0], x[1], s, n);
        AscendC::Div(w.t[0], w.t[0], x[2], n);
        AscendC::Add(y, x[0], w.t[0], n);
        return;
      case EwOp::kLerpTensor: {
        const LocalTensor<C>& d = w.t[0];
        const LocalTensor<C>& lo = w.t[1];
        const LocalTensor<C>& hi = w.t[2];
        AscendC::Sub(d, x[1], x[0], n);
        AscendC::Mul(lo, x[2], d, n);
        AscendC::Add(lo, x[0], lo, n);
        AscendC::Muls(hi, x[2], C(-1), n);
        AscendC::Adds(hi, hi, C(1), n);
        AscendC::Mul(hi, d, hi, n);
        AscendC::Sub(hi, x[1], hi, n);
        AscendC::Abs(d, x[2], n);
        AscendC::CompareScalar(w.mask, d, C(0.5), CMPMODE::LT, n);
        AscendC::Select(y, w.mask, lo, hi, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        return;
      }
      default:
        break;
    }
  }
  ascendc_sim::KernelFail("%s: operator not defined for this data type", EwKernelName(p.op));
}

template <typename T, typename TOut>
class GenericElementwise {
  using C = typename AscendC::detail::Arith<T>::Compute;

 public:
  __aicore__ inline void Init(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const ElementwiseTiling& tiling,
                              const EwKernelParams& params) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    const uint64_t offset = tiling.BlockOffset(block);
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    params_ = params;
    GM_ADDR inputs[kMaxInputs] = {x0, x1, x2};
    for (int i = 0; i < params_.arity; ++i) {
      xGm_[i].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputs[i]) + offset, length_);
      pipe_.InitBuffer(inQueue_[i], BUFFER_NUM, tileLength_ * sizeof(T));
    }
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TOut*>(y) + offset, length_);
    pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(TOut));
    if constexpr (!std::is_same<T, C>::value) {
      pipe_.InitBuffer(castBuf_, static_cast<uint32_t>(params_.arity) * tileLength_ * sizeof(C));
    }
    if constexpr (!std::is_same<TOut, C>::value) pipe_.InitBuffer(resultBuf_, tileLength_ * sizeof(C));
    pipe_.InitBuffer(scratchBuf_, kScratchTiles * tileLength_ * sizeof(C));
    pipe_.InitBuffer(maskBuf_, (tileLength_ + 7) / 8);
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      CopyIn(start, count);
      Compute(count);
      CopyOut(start, count);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t start, uint32_t count) {
    for (int i = 0; i < params_.arity; ++i) {
      LocalTensor<T> x = inQueue_[i].template AllocTensor<T>();
      CopyTileIn(x, xGm_[i][start], count);
      inQueue_[i].EnQue(x);
    }
  }

  __aicore__ inline void Compute(uint32_t count) {
    Tiles<C> w;
    w.n = count;
    LocalTensor<T> in[kMaxInputs];
    for (int i = 0; i < params_.arity; ++i) {
      in[i] = inQueue_[i].template DeQue<T>();
      if constexpr (std::is_same<T, C>::value) {
        w.x[i] = in[i];
      } else {
        w.x[i] = castBuf_.template Get<C>()[static_cast<uint32_t>(i) * tileLength_];
        AscendC::Cast(w.x[i], in[i], AscendC::RoundMode::CAST_NONE, count);
      }
    }
    for (int i = 0; i < kScratchTiles; ++i) {
      w.t[i] = scratchBuf_.template Get<C>()[static_cast<uint32_t>(i) * tileLength_];
    }
    w.mask = maskBuf_.template Get<uint8_t>();
    LocalTensor<TOut> y = outQueue_.template AllocTensor<TOut>();
    if constexpr (std::is_same<TOut, C>::value) {
      ComputeTile<T, C>(params_, y, w);
    } else {
      const LocalTensor<C> result = resultBuf_.template Get<C>();
      ComputeTile<T, C>(params_, result, w);
      AscendC::Cast(y, result, AscendC::RoundMode::CAST_RINT, count);
    }
    outQueue_.EnQue(y);
    for (int i = 0; i < params_.arity; ++i) inQueue_[i].FreeTensor(in[i]);
  }

  __aicore__ inline void CopyOut(uint64_t start, uint32_t count) {
    LocalTensor<TOut> y = outQueue_.template DeQue<TOut>();
    CopyTileOut(yGm_[start], y, count);
    outQueue_.FreeTensor(y);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue_[kMaxInputs];
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> castBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> resultBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> scratchBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf_;
  AscendC::GlobalTensor<T> xGm_[kMaxInputs];
  AscendC::GlobalTensor<TOut> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  EwKernelParams params_;
};

template <typename T, typename TOut>
__global__ __aicore__ void elementwise_generic(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y,
                                               ElementwiseTiling tiling, EwKernelParams params) {
  GenericElementwise<T, TOut> op;
  op.Init(x0, x1, x2, y, tiling, params);
  op.Process();
}

bool IsFloatingKernelType(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
}

}  // namespace

int EwArity(EwOp op) {
  if (op >= EwOp::kAddcmul) return 3;
  if (op >= EwOp::kSub) return 2;
  return 1;
}

bool EwIsCompare(EwOp op) {
  return (op >= EwOp::kEqScalar && op <= EwOp::kGeScalar) || (op >= EwOp::kEq && op <= EwOp::kGe);
}

bool EwSupports(EwOp op, aclDataType dtype) {
  switch (op) {
    case EwOp::kExp: case EwOp::kLog: case EwOp::kSqrt: case EwOp::kRsqrt: case EwOp::kReciprocal:
    case EwOp::kTanh: case EwOp::kSigmoid: case EwOp::kGelu: case EwOp::kGeluTanh: case EwOp::kSilu:
    case EwOp::kDiv: case EwOp::kGeluBackward: case EwOp::kGeluTanhBackward: case EwOp::kSigmoidBackward:
    case EwOp::kTanhBackward: case EwOp::kSiluBackward: case EwOp::kLerpScalar: case EwOp::kAddcdiv:
    case EwOp::kLerpTensor: case EwOp::kDivScalar:
      return IsFloatingKernelType(dtype);
    case EwOp::kNeg: case EwOp::kRelu: case EwOp::kAddScalar: case EwOp::kMulScalar: case EwOp::kSub: case EwOp::kThresholdBackward: case EwOp::kAddcmul:
    case EwOp::kPowScalar:
      return dtype != ACL_BOOL;
    default:
      return true;
  }
}

const char* EwKernelName(EwOp op) {
  switch (op) {
    case EwOp::kExp: return "exp_custom";
    case EwOp::kLog: return "log_custom";
    case EwOp::kSqrt: return "sqrt_custom";
    case EwOp::kRsqrt: return "rsqrt_custom";
    case EwOp::kReciprocal: return "reciprocal_custom";
    case EwOp::kTanh: return "tanh_custom";
    case EwOp::kSigmoid: return "sigmoid_custom";
    case EwOp::kGelu: return "gelu_custom";
    case EwOp::kGeluTanh: return "gelu_tanh_custom";
    case EwOp::kSilu: return "silu_custom";
    case EwOp::kPowScalar: return "pows_custom";
    case EwOp::kDivScalar: return "divs_custom";
    case EwOp::kAddScalar: return "adds_custom";
    case EwOp::kMulScalar: return "muls_scalar_custom";
    case EwOp::kNeg: return "neg_custom";
    case EwOp::kRelu: return "relu_custom";
    case EwOp::kEqScalar: return "eqs_custom";
    case EwOp::kNeScalar: return "nes_custom";
    case EwOp::kLtScalar: return "lts_custom";
    case EwOp::kLeScalar: return "les_custom";
    case EwOp::kGtScalar: return "gts_custom";
    case EwOp::kGeScalar: return "ges_custom";
    case EwOp::kSub: return "sub_custom";
    case EwOp::kMaximum: return "maximum_custom";
    case EwOp::kMinimum: return "minimum_custom";
    case EwOp::kThresholdBackward: return "threshold_backward_custom";
    case EwOp::kMaskedFill: return "masked_fill_custom";
    case EwOp::kDiv: return "div_custom";
    case EwOp::kGeluBackward: return "gelu_backward_custom";
    case EwOp::kGeluTanhBackward: return "gelu_tanh_backward_custom";
    case EwOp::kSigmoidBackward: return "sigmoid_backward_custom";
    case EwOp::kTanhBackward: return "tanh_backward_custom";
    case EwOp::kSiluBackward: return "silu_backward_custom";
    case EwOp::kLerpScalar: return "lerps_custom";
    case EwOp::kEq: return "eq_custom";
    case EwOp::kNe: return "ne_custom";
    case EwOp::kLt: return "lt_custom";
    case EwOp::kLe: return "le_custom";
    case EwOp::kGt: return "gt_custom";
    case EwOp::kGe: return "ge_custom";
    case EwOp::kAddcmul: return "addcmul_custom";
    case EwOp::kAddcdiv: return "addcdiv_custom";
    case EwOp::kWhere: return "select_custom";
    case EwOp::kLerpTensor: return "lerp_custom";
  }
  return "elementwise_custom";
}

aclError LaunchElementwise(const EwArgs& args, aclrtStream stream) {
  const char* name = EwKernelName(args.op);
  if (!EwSupports(args.op, args.dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", name,
                      DataTypeName(args.dtype));
  }
  EwKernelParams params;
  params.op = args.op;
  params.arity = EwArity(args.op);
  params.s = args.s;
  const bool toBool = EwIsCompare(args.op);
  return DispatchKernelType(args.dtype, name, [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    using C = typename AscendC::detail::Arith<T>::Compute;
    if (args.n == 0) return ACL_SUCCESS;
    const uint32_t arity = static_cast<uint32_t>(params.arity);
    const uint32_t castBytes = std::is_same<T, C>::value ? 0u : arity * sizeof(C);
    const uint32_t outBytes = toBool ? sizeof(bool) : sizeof(T);
    // queues, cast tiles, result tile, scratch tiles, mask bits (rounded up to a byte per element)
    const uint32_t ubBytes = BUFFER_NUM * (arity * sizeof(T) + outBytes) + castBytes + sizeof(C) +
                             kScratchTiles * sizeof(C) + 1;
    const ElementwiseTiling tiling = ComputeElementwiseTiling(args.n, ubBytes, sizeof(C) > sizeof(T) ? sizeof(C)
                                                                                                   : sizeof(T));
    if (toBool) {
      return LaunchKernel(name, tiling.blockDim, stream, elementwise_generic<T, bool>, args.x[0], args.x[1],
                          args.x[2], args.y, tiling, params);
    }
    return LaunchKernel(name, tiling.blockDim, stream, elementwise_generic<T, T>, args.x[0], args.x[1], args.x[2],
                        args.y, tiling, params);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
