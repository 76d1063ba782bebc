// The elementwise kernel: one Ascend C kernel template for every unary, binary, ternary,
// compare and select operator (kernels/elementwise_api.h), the operators being the rows
// of kernels/elementwise_ops.def and the functions of namespace ew_ops below.
//
// Each block takes its slice of the (dense, same-dtype) inputs from the tiling and
// moves it through the unified buffer tile by tile: copy-in of up to three inputs
// over double-buffered VECIN queues, a cast to the compute type (float32 for
// float16/bfloat16, else the type itself), the operator as a sequence of vector
// instructions on the compute-type tiles (with the scratch tiles its row asks for and a
// compare mask), a cast to the result type (bool for compares) and copy-out over a
// VECOUT queue. An operator exact on the stored values (kStorageType) skips both casts.
// The operator is a kernel parameter, so one instantiation per (input type, result
// type) serves every operator: bench/elementwise_styles_speed.py measured this op-code
// kernel within 5% of one kernel per operator for float32 and faster for float16.
#include <math.h>

#include <cmath>
#include <limits>
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
constexpr int kMaxScratchTiles = 3;

// The columns of elementwise_ops.def.
enum class EwTypes { kFloating, kNumeric, kAll, kIntegral, kIntegralAndBool };
enum class EwResult { kSameType, kBool };
enum class EwTiles { kComputeType, kStorageType };

struct EwOpInfo {
  const char* kernel;
  int inputs;
  int scratch;
  EwTypes types;
  EwResult result;
  EwTiles tiles;
};

constexpr EwOpInfo kOps[] = {
#define ASCENDC_SIM_EW_OP(name, kernel, inputs, scratch, types, result, tiles) \
  {kernel, inputs, scratch, EwTypes::types, EwResult::result, EwTiles::tiles},
#include "kernels/elementwise_ops.def"
#undef ASCENDC_SIM_EW_OP
};

constexpr bool RowsAreValid() {
  for (const EwOpInfo& op : kOps) {
    if (op.inputs < 1 || op.inputs > kMaxInputs || op.scratch < 0 || op.scratch > kMaxScratchTiles) return false;
    if (op.tiles == EwTiles::kStorageType && op.result != EwResult::kSameType) return false;
  }
  return true;
}
static_assert(RowsAreValid(), "elementwise_ops.def: inputs 1..3, scratch 0..3, kStorageType only with kSameType");

constexpr const EwOpInfo& Info(EwOp op) { return kOps[static_cast<int32_t>(op)]; }

// Whether an operator of `types` is defined on compute type C.
template <typename C>
constexpr bool TypesAllow(EwTypes types) {
  switch (types) {
    case EwTypes::kFloating: return AscendC::detail::kIsFloatLike<C>;
    case EwTypes::kNumeric: return !std::is_same<C, bool>::value;
    case EwTypes::kAll: return true;
    case EwTypes::kIntegral: return std::is_integral<C>::value && !std::is_same<C, bool>::value;
    case EwTypes::kIntegralAndBool: return std::is_integral<C>::value;
  }
  return false;
}

// Kernel parameters (passed by value, as a tiling struct), from the operator's row.
struct EwKernelParams {
  EwOp op = EwOp::kNeg;
  int32_t arity = 1;
  int32_t scratch = 0;
  bool onStorage = false;  // kStorageType and a dtype whose compute type differs
  ScalarValue s;
  ScalarValue s2;
  ScalarValue s3;
};

// The operands of one tile step, all of type C: the result y, the inputs x[0..arity),
// the scratch tiles t[0..scratch) and a compare mask of n bits.
template <typename C>
struct Operands {
  LocalTensor<C> y;
  LocalTensor<C> x[kMaxInputs];
  LocalTensor<C> t[kMaxScratchTiles];
  LocalTensor<uint8_t> mask;
  uint32_t n = 0;
  C s{};              // the scalar parameter in C
  C s2{};             // the second and third ones (operators with several parameters)
  C s3{};
  ScalarValue scalar;  // as the caller gave it (exponents, lerp weights)
  ScalarValue scalar2;  // the second one as given (operators on stored 2-byte values)
};

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

// dst = Phi(x), the standard normal CDF, = erfc(-x / sqrt 2) / 2 (accurate in both tails).
template <typename C>
__aicore__ inline void PhiInto(const LocalTensor<C>& dst, const LocalTensor<C>& x, uint32_t n) {
  AscendC::Muls(dst, x, C(-0.70710678118654752440), n);
  AscendC::Erfc(dst, dst, n);
  AscendC::Muls(dst, dst, C(0.5), n);
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

// y = 1 where mask else 0.
template <typename C>
__aicore__ inline void MaskToValues(const LocalTensor<C>& y, const Operands<C>& w) {
  AscendC::Duplicate(w.t[0], C(1), w.n);
  AscendC::Select(y, w.mask, w.t[0], C(0), SELMODE::VSEL_TENSOR_SCALAR_MODE, w.n);
}

// ---- the operators: one function per row of elementwise_ops.def ----
namespace ew_ops {

template <typename C>
__aicore__ inline void CompareScalarOp(const Operands<C>& o, CMPMODE mode) {
  AscendC::CompareScalar(o.mask, o.x[0], o.s, mode, o.n);
  MaskToValues(o.y, o);
}
template <typename C>
__aicore__ inline void CompareOp(const Operands<C>& o, CMPMODE mode) {
  AscendC::Compare(o.mask, o.x[0], o.x[1], mode, o.n);
  MaskToValues(o.y, o);
}

template <typename C> __aicore__ inline void EqScalar(const Operands<C>& o) { CompareScalarOp(o, CMPMODE::EQ); }
template <typename C> __aicore__ inline void NeScalar(const Operands<C>& o) { CompareScalarOp(o, CMPMODE::NE); }
template <typename C> __aicore__ inline void LtScalar(const Operands<C>& o) { CompareScalarOp(o, CMPMODE::LT); }
template <typename C> __aicore__ inline void LeScalar(const Operands<C>& o) { CompareScalarOp(o, CMPMODE::LE); }
template <typename C> __aicore__ inline void GtScalar(const Operands<C>& o) { CompareScalarOp(o, CMPMODE::GT); }
template <typename C> __aicore__ inline void GeScalar(const Operands<C>& o) { CompareScalarOp(o, CMPMODE::GE); }
template <typename C> __aicore__ inline void Eq(const Operands<C>& o) { CompareOp(o, CMPMODE::EQ); }
template <typename C> __aicore__ inline void Ne(const Operands<C>& o) { CompareOp(o, CMPMODE::NE); }
template <typename C> __aicore__ inline void Lt(const Operands<C>& o) { CompareOp(o, CMPMODE::LT); }
template <typename C> __aicore__ inline void Le(const Operands<C>& o) { CompareOp(o, CMPMODE::LE); }
template <typename C> __aicore__ inline void Gt(const Operands<C>& o) { CompareOp(o, CMPMODE::GT); }
template <typename C> __aicore__ inline void Ge(const Operands<C>& o) { CompareOp(o, CMPMODE::GE); }

template <typename C>
__aicore__ inline void Where(const Operands<C>& o) {
  AscendC::CompareScalar(o.mask, o.x[0], C(0), CMPMODE::NE, o.n);
  AscendC::Select(o.y, o.mask, o.x[1], o.x[2], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

template <typename C>
__aicore__ inline void MaskedFill(const Operands<C>& o) {
  AscendC::CompareScalar(o.mask, o.x[1], C(0), CMPMODE::NE, o.n);
  AscendC::Duplicate(o.t[0], o.s, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// Equal operands give the first (CPU's rule: maximum(-0.0, 0.0) is -0.0), and NaN
// propagates from either, as torch.maximum.
template <typename C>
__aicore__ inline void KeepFirstOfEqualsAndNaN(const Operands<C>& o) {
  if constexpr (AscendC::detail::kIsFloatLike<C>) {
    AscendC::Compare(o.mask, o.x[0], o.x[1], CMPMODE::EQ, o.n);
    AscendC::Select(o.y, o.mask, o.x[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
    for (int i = 0; i < 2; ++i) {
      AscendC::Compare(o.mask, o.x[i], o.x[i], CMPMODE::NE, o.n);
      AscendC::Select(o.y, o.mask, o.x[i], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
    }
  }
}
template <typename C>
__aicore__ inline void Maximum(const Operands<C>& o) {
  AscendC::Max(o.y, o.x[0], o.x[1], o.n);
  KeepFirstOfEqualsAndNaN(o);
}
template <typename C>
__aicore__ inline void Minimum(const Operands<C>& o) {
  AscendC::Min(o.y, o.x[0], o.x[1], o.n);
  KeepFirstOfEqualsAndNaN(o);
}

template <typename C> __aicore__ inline void Add(const Operands<C>& o) { AscendC::Add(o.y, o.x[0], o.x[1], o.n); }
template <typename C> __aicore__ inline void Mul(const Operands<C>& o) { AscendC::Mul(o.y, o.x[0], o.x[1], o.n); }

// x0 + s x1 rounded once (CPU's add with alpha is a fused multiply-add); y = x0 * 1 is exact, -0 and NaN too.
template <typename C>
__aicore__ inline void Axpy(const Operands<C>& o) {
  AscendC::Duplicate(o.t[0], o.s, o.n);
  AscendC::Muls(o.y, o.x[0], C(1), o.n);
  AscendC::MulAddDst(o.y, o.x[1], o.t[0], o.n);
}

template <typename C> __aicore__ inline void Neg(const Operands<C>& o) { AscendC::Muls(o.y, o.x[0], C(-1), o.n); }
template <typename C> __aicore__ inline void AddScalar(const Operands<C>& o) { AscendC::Adds(o.y, o.x[0], o.s, o.n); }
template <typename C> __aicore__ inline void MulScalar(const Operands<C>& o) { AscendC::Muls(o.y, o.x[0], o.s, o.n); }
template <typename C> __aicore__ inline void Relu(const Operands<C>& o) { AscendC::Relu(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Abs(const Operands<C>& o) { AscendC::Abs(o.y, o.x[0], o.n); }

// NaN in x stays NaN and a NaN bound makes every element NaN, as torch.clamp_min.
template <typename C>
__aicore__ inline void ClampMinScalar(const Operands<C>& o) {
  if constexpr (!std::is_integral<C>::value) {
    if (std::isnan(static_cast<double>(o.s))) {
      AscendC::Duplicate(o.y, o.s, o.n);
      return;
    }
  }
  AscendC::Maxs(o.y, o.x[0], o.s, o.n);
}

template <typename C>
__aicore__ inline void Sub(const Operands<C>& o) {  // x0 - s x1 rounded once, as Axpy
  AscendC::Duplicate(o.t[0], static_cast<C>(-o.s), o.n);
  AscendC::Muls(o.y, o.x[0], C(1), o.n);
  AscendC::MulAddDst(o.y, o.x[1], o.t[0], o.n);
}

template <typename C>
__aicore__ inline void ThresholdBackward(const Operands<C>& o) {
  AscendC::CompareScalar(o.mask, o.x[1], o.s, CMPMODE::LE, o.n);
  AscendC::Duplicate(o.t[0], C(0), o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

template <typename C>
__aicore__ inline void Addcmul(const Operands<C>& o) {  // fma(value * t1, t2, self), as ATen's vectorized kernel
  AscendC::Muls(o.t[0], o.x[1], o.s, o.n);
  AscendC::Muls(o.y, o.x[0], C(1), o.n);  // a copy that keeps -0.0 (adding 0 would not)
  AscendC::MulAddDst(o.y, o.t[0], o.x[2], o.n);
}

// x ** s. Integers: repeated squaring (exact). Floating types as ATen's CPU kernel: its special cases (sqrt,
// rsqrt, reciprocal, x * x, x * x * x, 1 / (x * x)), else pow with the exponent in the tensor's dtype (a float
// for float32; the launcher rounds it to float16/bfloat16 for those).
template <typename C>
__aicore__ inline void PowScalar(const Operands<C>& o) {
  const uint32_t n = o.n;
  if constexpr (!AscendC::detail::kIsFloatLike<C>) {
    const int64_t e = o.scalar.isFloating ? static_cast<int64_t>(o.scalar.f) : o.scalar.i;
    PowIntInto(o.y, o.x[0], o.t[0], e < 0 ? uint64_t{0} - static_cast<uint64_t>(e) : static_cast<uint64_t>(e), n);
  } else {
    const double f = static_cast<C>(o.scalar.isFloating ? o.scalar.f : static_cast<double>(o.scalar.i));
    if (f == 0.5) {  // so pow(-0.0, 0.5) is -0.0 and pow(-inf, 0.5) NaN, as CPU's
      AscendC::Sqrt(o.y, o.x[0], n);
    } else if (f == -0.5) {
      AscendC::Rsqrt(o.y, o.x[0], n);
    } else if (f == -1.0) {
      AscendC::Reciprocal(o.y, o.x[0], n);
    } else if (f == 2.0 || f == -2.0) {
      AscendC::Mul(o.y, o.x[0], o.x[0], n);
      if (f < 0) AscendC::Reciprocal(o.y, o.y, n);
    } else if (f == 3.0) {
      AscendC::Mul(o.t[0], o.x[0], o.x[0], n);
      AscendC::Mul(o.y, o.t[0], o.x[0], n);
    } else {
      AscendC::Power(o.y, o.x[0], f, n);
    }
  }
}

template <typename C> __aicore__ inline void Exp(const Operands<C>& o) { AscendC::Exp(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Log(const Operands<C>& o) { AscendC::Ln(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Sqrt(const Operands<C>& o) { AscendC::Sqrt(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Rsqrt(const Operands<C>& o) { AscendC::Rsqrt(o.y, o.x[0], o.n); }
template <typename C>
__aicore__ inline void Reciprocal(const Operands<C>& o) {
  AscendC::Reciprocal(o.y, o.x[0], o.n);
}
template <typename C> __aicore__ inline void Sigmoid(const Operands<C>& o) { AscendC::Sigmoid(o.y, o.x[0], o.n); }

template <typename C> __aicore__ inline void Tanh(const Operands<C>& o) { AscendC::Tanh(o.y, o.x[0], o.n); }

template <typename C>
__aicore__ inline void Gelu(const Operands<C>& o) {
  AscendC::Gelu(o.y, o.x[0], o.n);
}

template <typename C>
__aicore__ inline void GeluTanh(const Operands<C>& o) {  // x * sigmoid(2u) == 0.5 x (1 + tanh u), u = sqrt(2/pi) (x + 0.044715 x^3)
  const uint32_t n = o.n;
  const LocalTensor<C>& u = o.t[0];
  AscendC::Mul(u, o.x[0], o.x[0], n);
  AscendC::Mul(u, u, o.x[0], n);
  AscendC::Muls(u, u, C(0.044715), n);
  AscendC::Add(u, u, o.x[0], n);
  AscendC::Muls(u, u, C(2 * 0.79788456080286535588), n);
  AscendC::Sigmoid(u, u, n);
  AscendC::Mul(o.y, o.x[0], u, n);
}

template <typename C>
__aicore__ inline void Silu(const Operands<C>& o) {
  AscendC::Sigmoid(o.t[0], o.x[0], o.n);
  AscendC::Mul(o.y, o.x[0], o.t[0], o.n);
}

template <typename C> __aicore__ inline void Div(const Operands<C>& o) { AscendC::Div(o.y, o.x[0], o.x[1], o.n); }

template <typename C>
__aicore__ inline void DivScalar(const Operands<C>& o) {
  AscendC::Duplicate(o.t[0], o.s, o.n);
  AscendC::Div(o.y, o.x[0], o.t[0], o.n);
}

template <typename C>
__aicore__ inline void GeluBackward(const Operands<C>& o) {  // grad * (Phi(x) + x phi(x))
  const uint32_t n = o.n;
  const LocalTensor<C>* x = o.x;
  PhiInto(o.y, x[1], n);
  const LocalTensor<C>& d = o.t[0];
  AscendC::Mul(d, x[1], x[1], n);
  AscendC::Muls(d, d, C(-0.5), n);
  AscendC::Exp(d, d, n);
  AscendC::Muls(d, d, C(0.39894228040143267794), n);
  AscendC::Mul(d, d, x[1], n);
  AscendC::Add(o.y, o.y, d, n);
  AscendC::Mul(o.y, o.y, x[0], n);
}

template <typename C>
__aicore__ inline void GeluTanhBackward(const Operands<C>& o) {
  const uint32_t n = o.n;
  const LocalTensor<C>* x = o.x;
  const LocalTensor<C>& y = o.y;
  const C kBeta = C(0.79788456080286535588);
  const C kKappa = C(0.044715);
  const LocalTensor<C>& th = o.t[0];
  const LocalTensor<C>& a = o.t[1];
  const LocalTensor<C>& b = o.t[2];
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
}

template <typename C>
__aicore__ inline void SigmoidBackward(const Operands<C>& o) {  // (grad * (1 - y)) * y
  AscendC::Muls(o.t[0], o.x[1], C(-1), o.n);
  AscendC::Adds(o.t[0], o.t[0], C(1), o.n);
  AscendC::Mul(o.t[0], o.x[0], o.t[0], o.n);
  AscendC::Mul(o.y, o.t[0], o.x[1], o.n);
}

template <typename C>
__aicore__ inline void TanhBackward(const Operands<C>& o) {  // grad * (1 - y * y)
  AscendC::Mul(o.t[0], o.x[1], o.x[1], o.n);
  AscendC::Muls(o.t[0], o.t[0], C(-1), o.n);
  AscendC::Adds(o.t[0], o.t[0], C(1), o.n);
  AscendC::Mul(o.y, o.x[0], o.t[0], o.n);
}

template <typename C>
__aicore__ inline void SiluBackward(const Operands<C>& o) {  // grad * s * (1 + x (1 - s)), s = sigmoid(x)
  const uint32_t n = o.n;
  AscendC::Sigmoid(o.t[0], o.x[1], n);
  AscendC::Muls(o.t[1], o.t[0], C(-1), n);
  AscendC::Adds(o.t[1], o.t[1], C(1), n);
  AscendC::Mul(o.t[1], o.t[1], o.x[1], n);
  AscendC::Adds(o.t[1], o.t[1], C(1), n);
  AscendC::Mul(o.y, o.x[0], o.t[0], n);
  AscendC::Mul(o.y, o.y, o.t[1], n);
}

// ATen's |w| < 0.5 ? self + w (end - self) : end + (w - 1) (end - self), each a fused multiply-add as in
// CPU's vectorized lerp.
template <typename C>
__aicore__ inline void LerpScalar(const Operands<C>& o) {
  AscendC::Sub(o.t[0], o.x[1], o.x[0], o.n);
  const bool small = fabs(o.scalar.f) < 0.5;
  AscendC::Duplicate(o.t[1], small ? o.s : static_cast<C>(o.s - C(1)), o.n);
  AscendC::Muls(o.y, o.x[small ? 0 : 1], C(1), o.n);
  AscendC::MulAddDst(o.y, o.t[0], o.t[1], o.n);
}

template <typename C>
__aicore__ inline void Addcdiv(const Operands<C>& o) {  // self + (value * t1) / t2, ATen's order
  AscendC::Muls(o.t[0], o.x[1], o.s, o.n);
  AscendC::Div(o.t[0], o.t[0], o.x[2], o.n);
  AscendC::Add(o.y, o.x[0], o.t[0], o.n);
}

template <typename C>
__aicore__ inline void LerpTensor(const Operands<C>& o) {
  const uint32_t n = o.n;
  const LocalTensor<C>* x = o.x;
  const LocalTensor<C>& d = o.t[0];
  const LocalTensor<C>& lo = o.t[1];
  const LocalTensor<C>& hi = o.t[2];
  AscendC::Sub(d, x[1], x[0], n);
  AscendC::Muls(lo, x[0], C(1), n);
  AscendC::MulAddDst(lo, x[2], d, n);  // self + w (end - self), rounded once
  AscendC::Adds(hi, x[2], C(-1), n);
  AscendC::Muls(o.y, x[1], C(1), n);
  AscendC::MulAddDst(o.y, hi, d, n);  // end + (w - 1) (end - self), rounded once
  AscendC::Abs(d, x[2], n);
  AscendC::CompareScalar(o.mask, d, C(0.5), CMPMODE::LT, n);
  AscendC::Select(o.y, o.mask, lo, o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

// binary and ternary math, bitwise and logical operators (rows of elementwise_binary_ops.def)
#include "kernels/elementwise_binary_ops.inc"

// ---- unary math (Ascend C's math library instructions) ----
template <typename C> __aicore__ inline void Sin(const Operands<C>& o) { AscendC::Sin(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Cos(const Operands<C>& o) { AscendC::Cos(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Tan(const Operands<C>& o) { AscendC::Tan(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Asin(const Operands<C>& o) { AscendC::Asin(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Acos(const Operands<C>& o) { AscendC::Acos(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Atan(const Operands<C>& o) { AscendC::Atan(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Sinh(const Operands<C>& o) { AscendC::Sinh(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Cosh(const Operands<C>& o) { AscendC::Cosh(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Asinh(const Operands<C>& o) { AscendC::Asinh(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Acosh(const Operands<C>& o) { AscendC::Acosh(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Atanh(const Operands<C>& o) { AscendC::Atanh(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Erf(const Operands<C>& o) { AscendC::Erf(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Erfc(const Operands<C>& o) { AscendC::Erfc(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Erfinv(const Operands<C>& o) { AscendC::Erfinv(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Expm1(const Operands<C>& o) { AscendC::Expm1(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Log1p(const Operands<C>& o) { AscendC::Log1p(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Log2(const Operands<C>& o) { AscendC::Log2(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Log10(const Operands<C>& o) { AscendC::Log10(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Exp2(const Operands<C>& o) { AscendC::Exp2(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Ceil(const Operands<C>& o) { AscendC::Ceil(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Floor(const Operands<C>& o) { AscendC::Floor(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Round(const Operands<C>& o) { AscendC::Round(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Trunc(const Operands<C>& o) { AscendC::Trunc(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Frac(const Operands<C>& o) { AscendC::Frac(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Lgamma(const Operands<C>& o) { AscendC::Lgamma(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Digamma(const Operands<C>& o) { AscendC::Digamma(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Sign(const Operands<C>& o) { AscendC::Sign(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BitwiseNot(const Operands<C>& o) { AscendC::Not(o.y, o.x[0], o.n); }

// ATen's rounding to s decimals: rint(x * 10^s) / 10^s, or rint(x / 10^-s) * 10^-s for s < 0.
template <typename C>
__aicore__ inline void RoundDecimals(const Operands<C>& o) {
  const int64_t decimals = o.scalar.i;
  const C tenPow = static_cast<C>(std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals)));
  AscendC::Duplicate(o.t[0], tenPow, o.n);
  if (decimals >= 0) {
    AscendC::Muls(o.y, o.x[0], tenPow, o.n);
    AscendC::Round(o.y, o.y, o.n);
    AscendC::Div(o.y, o.y, o.t[0], o.n);
  } else {
    AscendC::Div(o.y, o.x[0], o.t[0], o.n);
    AscendC::Round(o.y, o.y, o.n);
    AscendC::Muls(o.y, o.y, tenPow, o.n);
  }
}

// sin(pi x) / (pi x), 1 at 0.
template <typename C>
__aicore__ inline void Sinc(const Operands<C>& o) {
  AscendC::Muls(o.t[0], o.x[0], static_cast<C>(M_PI), o.n);
  AscendC::Sin(o.t[1], o.t[0], o.n);
  AscendC::Div(o.y, o.t[1], o.t[0], o.n);
  AscendC::CompareScalar(o.mask, o.x[0], C(0), CMPMODE::EQ, o.n);
  AscendC::Duplicate(o.t[0], C(1), o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// The argument of a real number: pi below 0, else 0; NaN stays NaN.
template <typename C>
__aicore__ inline void Angle(const Operands<C>& o) {
  AscendC::CompareScalar(o.mask, o.x[0], C(0), CMPMODE::LT, o.n);
  AscendC::Duplicate(o.t[0], static_cast<C>(M_PI), o.n);
  AscendC::Select(o.y, o.mask, o.t[0], C(0), SELMODE::VSEL_TENSOR_SCALAR_MODE, o.n);
  AscendC::Compare(o.mask, o.x[0], o.x[0], CMPMODE::NE, o.n);
  AscendC::Select(o.y, o.mask, o.x[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// log(z / (1 - z)), z = x clamped to [eps, 1 - eps] when eps >= 0 (NaN stays NaN). As CPU's kernel, x below eps
// gives eps before x above 1 - eps is tested, which decides every x when eps > 0.5 (an empty range).
template <typename C>
__aicore__ inline void Logit(const Operands<C>& o) {
  const LocalTensor<C>& z = o.t[0];
  if (o.scalar.f >= 0) {
    AscendC::Mins(o.y, o.x[0], static_cast<C>(C(1) - o.s), o.n);
    AscendC::CompareScalar(o.mask, o.x[0], o.s, CMPMODE::LT, o.n);
    AscendC::Duplicate(z, o.s, o.n);
    AscendC::Select(o.y, o.mask, z, o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
    AscendC::Compare(o.mask, o.x[0], o.x[0], CMPMODE::NE, o.n);
    AscendC::Select(z, o.mask, o.x[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  } else {
    AscendC::Muls(z, o.x[0], C(1), o.n);
  }
  AscendC::Muls(o.y, z, C(-1), o.n);
  AscendC::Adds(o.y, o.y, C(1), o.n);
  AscendC::Div(o.y, z, o.y, o.n);
  AscendC::Ln(o.y, o.y, o.n);
}

// NaN -> s, +inf -> s2, -inf -> s3.
template <typename C>
__aicore__ inline void NanToNum(const Operands<C>& o) {
  AscendC::Compare(o.mask, o.x[0], o.x[0], CMPMODE::NE, o.n);
  AscendC::Duplicate(o.t[0], o.s, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  AscendC::CompareScalar(o.mask, o.x[0], static_cast<C>(INFINITY), CMPMODE::EQ, o.n);
  AscendC::Duplicate(o.t[0], o.s2, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  AscendC::CompareScalar(o.mask, o.x[0], static_cast<C>(-INFINITY), CMPMODE::EQ, o.n);
  AscendC::Duplicate(o.t[0], o.s3, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

template <typename C>
__aicore__ inline void IsNan(const Operands<C>& o) {
  AscendC::Compare(o.mask, o.x[0], o.x[0], CMPMODE::NE, o.n);
  MaskToValues(o.y, o);
}
template <typename C> __aicore__ inline void Signbit(const Operands<C>& o) { AscendC::Signbit(o.y, o.x[0], o.n); }

// ---- activations ----
// x <= s ? s2 : x (NaN stays NaN)
template <typename C>
__aicore__ inline void Threshold(const Operands<C>& o) {
  AscendC::CompareScalar(o.mask, o.x[0], o.s, CMPMODE::LE, o.n);
  AscendC::Duplicate(o.t[0], o.s2, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// x > 0 ? scale x : alpha scale (exp(input_scale x) - 1)
template <typename C>
__aicore__ inline void Elu(const Operands<C>& o) {
  AscendC::Muls(o.t[0], o.x[0], o.s3, o.n);
  AscendC::Expm1(o.t[0], o.t[0], o.n);
  AscendC::Muls(o.t[0], o.t[0], static_cast<C>(o.s * o.s2), o.n);
  AscendC::Muls(o.t[1], o.x[0], o.s2, o.n);
  AscendC::CompareScalar(o.mask, o.x[0], C(0), CMPMODE::LE, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.t[1], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// grad * (x <= 0 ? input_scale alpha scale exp(input_scale x) : scale), x1 = self
template <typename C>
__aicore__ inline void EluBackward(const Operands<C>& o) {
  AscendC::Muls(o.t[0], o.x[1], o.s3, o.n);
  AscendC::Exp(o.t[0], o.t[0], o.n);
  AscendC::Muls(o.t[0], o.t[0], static_cast<C>(o.s * o.s2), o.n);
  AscendC::Muls(o.t[0], o.t[0], o.s3, o.n);
  AscendC::Mul(o.t[0], o.t[0], o.x[0], o.n);
  AscendC::Muls(o.t[1], o.x[0], o.s2, o.n);
  AscendC::CompareScalar(o.mask, o.x[1], C(0), CMPMODE::LE, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.t[1], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// the same from the result y = x1: grad * (y <= 0 ? input_scale (y + alpha scale) : scale)
template <typename C>
__aicore__ inline void EluBackwardResult(const Operands<C>& o) {
  AscendC::Adds(o.t[0], o.x[1], static_cast<C>(o.s * o.s2), o.n);
  AscendC::Muls(o.t[0], o.t[0], o.s3, o.n);
  AscendC::Mul(o.t[0], o.t[0], o.x[0], o.n);
  AscendC::Muls(o.y, o.x[0], o.s2, o.n);
  AscendC::CompareScalar(o.mask, o.x[1], C(0), CMPMODE::LE, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// min(max(x, s), s2), NaN stays NaN (Maxs keeps it; Mins would not); a NaN bound gives NaN, as clamp
template <typename C>
__aicore__ inline void Hardtanh(const Operands<C>& o) {
  if constexpr (!std::is_integral<C>::value) {
    if (std::isnan(static_cast<double>(o.s)) || std::isnan(static_cast<double>(o.s2))) {
      AscendC::Duplicate(o.y, std::numeric_limits<C>::quiet_NaN(), o.n);
      return;
    }
  }
  AscendC::Maxs(o.y, o.x[0], o.s, o.n);
  AscendC::CompareScalar(o.mask, o.y, o.s2, CMPMODE::GT, o.n);
  AscendC::Duplicate(o.t[0], o.s2, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// 0 where x <= min or x >= max, else grad (NaN x: grad)
template <typename C>
__aicore__ inline void HardtanhBackward(const Operands<C>& o) {
  AscendC::Duplicate(o.t[0], C(0), o.n);
  AscendC::CompareScalar(o.mask, o.x[1], o.s, CMPMODE::LE, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  AscendC::CompareScalar(o.mask, o.x[1], o.s2, CMPMODE::GE, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

template <typename C>
__aicore__ inline void LeakyRelu(const Operands<C>& o) {
  AscendC::Muls(o.t[0], o.x[0], o.s, o.n);
  AscendC::CompareScalar(o.mask, o.x[0], C(0), CMPMODE::GT, o.n);
  AscendC::Select(o.y, o.mask, o.x[0], o.t[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

template <typename C>
__aicore__ inline void LeakyReluBackward(const Operands<C>& o) {
  AscendC::Muls(o.t[0], o.x[0], o.s, o.n);
  AscendC::CompareScalar(o.mask, o.x[1], C(0), CMPMODE::GT, o.n);
  AscendC::Select(o.y, o.mask, o.x[0], o.t[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// dst = min(max(x + 3, 0), 6) with NaN propagating; six is scratch
template <typename C>
__aicore__ inline void Relu6Shifted(const LocalTensor<C>& dst, const LocalTensor<C>& x, const LocalTensor<C>& six,
                                    const Operands<C>& o) {
  AscendC::Adds(dst, x, C(3), o.n);
  AscendC::Maxs(dst, dst, C(0), o.n);
  AscendC::CompareScalar(o.mask, dst, C(6), CMPMODE::GT, o.n);
  AscendC::Duplicate(six, C(6), o.n);
  AscendC::Select(dst, o.mask, six, dst, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}
template <typename C>
__aicore__ inline void Hardsigmoid(const Operands<C>& o) {  // min(max(x + 3, 0), 6) / 6
  Relu6Shifted(o.y, o.x[0], o.t[0], o);
  AscendC::Muls(o.y, o.y, static_cast<C>(1.0 / 6.0), o.n);
}

template <typename C>
__aicore__ inline void HardsigmoidBackward(const Operands<C>& o) {  // grad / 6 where -3 < x < 3, else 0
  AscendC::Muls(o.t[0], o.x[0], static_cast<C>(1.0 / 6.0), o.n);
  AscendC::CompareScalar(o.mask, o.x[1], C(-3), CMPMODE::GT, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], C(0), SELMODE::VSEL_TENSOR_SCALAR_MODE, o.n);
  AscendC::CompareScalar(o.mask, o.x[1], C(3), CMPMODE::LT, o.n);
  AscendC::Select(o.y, o.mask, o.y, C(0), SELMODE::VSEL_TENSOR_SCALAR_MODE, o.n);
}

template <typename C>
__aicore__ inline void Hardswish(const Operands<C>& o) {  // x * min(max(x + 3, 0), 6) / 6
  // Mins turns NaN into 6, but a NaN x makes the product NaN anyway
  AscendC::Adds(o.t[0], o.x[0], C(3), o.n);
  AscendC::Maxs(o.t[0], o.t[0], C(0), o.n);
  AscendC::Mins(o.t[0], o.t[0], C(6), o.n);
  AscendC::Mul(o.y, o.x[0], o.t[0], o.n);
  AscendC::Muls(o.y, o.y, static_cast<C>(1.0 / 6.0), o.n);
}

// x < -3: 0; x <= 3: grad (x / 3 + 1/2); else (x > 3 or NaN) grad
template <typename C>
__aicore__ inline void HardswishBackward(const Operands<C>& o) {
  AscendC::Muls(o.t[0], o.x[1], static_cast<C>(1.0 / 3.0), o.n);
  AscendC::Adds(o.t[0], o.t[0], C(0.5), o.n);
  AscendC::Mul(o.t[0], o.t[0], o.x[0], o.n);
  AscendC::CompareScalar(o.mask, o.x[1], C(3), CMPMODE::LE, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  AscendC::CompareScalar(o.mask, o.x[1], C(-3), CMPMODE::LT, o.n);
  AscendC::Duplicate(o.t[1], C(0), o.n);
  AscendC::Select(o.y, o.mask, o.t[1], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// -s <= x <= s ? 0 : x
template <typename C>
__aicore__ inline void Hardshrink(const Operands<C>& o) {
  AscendC::Abs(o.t[0], o.x[0], o.n);
  AscendC::CompareScalar(o.mask, o.t[0], o.s, CMPMODE::LE, o.n);
  AscendC::Duplicate(o.t[0], C(0), o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// x > s ? x - s : (x < -s ? x + s : 0), NaN stays NaN (+0 in between, as CPU's vectorised loop)
template <typename C>
__aicore__ inline void Softshrink(const Operands<C>& o) {
  AscendC::Muls(o.y, o.x[0], C(0), o.n);
  AscendC::Abs(o.y, o.y, o.n);
  AscendC::Adds(o.t[0], o.x[0], static_cast<C>(-o.s), o.n);
  AscendC::CompareScalar(o.mask, o.x[0], o.s, CMPMODE::GT, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  AscendC::Adds(o.t[0], o.x[0], o.s, o.n);
  AscendC::CompareScalar(o.mask, o.x[0], static_cast<C>(-o.s), CMPMODE::LT, o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// -s <= x1 <= s ? 0 : x0 (hardshrink and softshrink alike)
template <typename C>
__aicore__ inline void ShrinkBackward(const Operands<C>& o) {
  AscendC::Abs(o.t[0], o.x[1], o.n);
  AscendC::CompareScalar(o.mask, o.t[0], o.s, CMPMODE::LE, o.n);
  AscendC::Duplicate(o.t[0], C(0), o.n);
  AscendC::Select(o.y, o.mask, o.t[0], o.x[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// x beta > threshold ? x : log1p(exp(x beta)) / beta
template <typename C>
__aicore__ inline void SmoothRelu(const Operands<C>& o) {  // softplus
  AscendC::Muls(o.t[0], o.x[0], o.s, o.n);
  AscendC::Exp(o.t[1], o.t[0], o.n);
  AscendC::Log1p(o.t[1], o.t[1], o.n);
  AscendC::Duplicate(o.y, o.s, o.n);
  AscendC::Div(o.t[1], o.t[1], o.y, o.n);
  AscendC::CompareScalar(o.mask, o.t[0], o.s2, CMPMODE::GT, o.n);
  AscendC::Select(o.y, o.mask, o.x[0], o.t[1], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// x beta > threshold ? grad : grad z / (z + 1), z = exp(x beta)
template <typename C>
__aicore__ inline void SmoothReluBackward(const Operands<C>& o) {  // softplus_backward
  AscendC::Muls(o.t[0], o.x[1], o.s, o.n);
  AscendC::Exp(o.t[1], o.t[0], o.n);
  AscendC::Adds(o.y, o.t[1], C(1), o.n);
  AscendC::Div(o.t[1], o.t[1], o.y, o.n);
  AscendC::Mul(o.t[1], o.t[1], o.x[0], o.n);
  AscendC::CompareScalar(o.mask, o.t[0], o.s2, CMPMODE::GT, o.n);
  AscendC::Select(o.y, o.mask, o.x[0], o.t[1], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}

// dst = tanh(log1p(exp(x)))
template <typename C>
__aicore__ inline void TanhSoftplusInto(const LocalTensor<C>& dst, const LocalTensor<C>& x, uint32_t n) {
  AscendC::Exp(dst, x, n);
  AscendC::Log1p(dst, dst, n);
  AscendC::Tanh(dst, dst, n);
}

template <typename C>
__aicore__ inline void Mish(const Operands<C>& o) {
  TanhSoftplusInto(o.t[0], o.x[0], o.n);
  AscendC::Mul(o.y, o.x[0], o.t[0], o.n);
}

// grad (t + x sigmoid(x) (1 - t^2)), t = tanh(softplus(x))
template <typename C>
__aicore__ inline void MishBackward(const Operands<C>& o) {
  TanhSoftplusInto(o.t[0], o.x[1], o.n);
  AscendC::Sigmoid(o.t[1], o.x[1], o.n);
  AscendC::Mul(o.t[2], o.t[0], o.t[0], o.n);
  AscendC::Muls(o.t[2], o.t[2], C(-1), o.n);
  AscendC::Adds(o.t[2], o.t[2], C(1), o.n);
  AscendC::Mul(o.t[2], o.t[2], o.t[1], o.n);
  AscendC::Mul(o.t[2], o.t[2], o.x[1], o.n);
  AscendC::Add(o.t[2], o.t[2], o.t[0], o.n);
  AscendC::Mul(o.y, o.t[2], o.x[0], o.n);
}

// min(x, 0) - log1p(exp(-|x|))
template <typename C>
__aicore__ inline void LogSigmoid(const Operands<C>& o) {
  AscendC::Abs(o.t[0], o.x[0], o.n);
  AscendC::Muls(o.t[0], o.t[0], C(-1), o.n);
  AscendC::Exp(o.t[0], o.t[0], o.n);
  AscendC::Log1p(o.t[0], o.t[0], o.n);
  AscendC::Mins(o.t[1], o.x[0], C(0), o.n);
  AscendC::Sub(o.y, o.t[1], o.t[0], o.n);
}

// grad (m - sign z / (1 + z)), z = exp(-|x|), (m, sign) = (1, 1) below 0, else (0, -1)
template <typename C>
__aicore__ inline void LogSigmoidBackward(const Operands<C>& o) {
  AscendC::Abs(o.t[0], o.x[1], o.n);
  AscendC::Muls(o.t[0], o.t[0], C(-1), o.n);
  AscendC::Exp(o.t[0], o.t[0], o.n);
  AscendC::Adds(o.t[1], o.t[0], C(1), o.n);
  AscendC::Div(o.t[0], o.t[0], o.t[1], o.n);  // z / (1 + z)
  AscendC::Muls(o.t[1], o.t[0], C(-1), o.n);
  AscendC::Adds(o.t[1], o.t[1], C(1), o.n);  // below 0: 1 - z / (1 + z)
  AscendC::CompareScalar(o.mask, o.x[1], C(0), CMPMODE::LT, o.n);
  AscendC::Select(o.t[2], o.mask, o.t[1], o.t[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  AscendC::Mul(o.y, o.t[2], o.x[0], o.n);
}


// grad / (x (1 - x)); outside [eps, 1 - eps] 0 when eps >= 0, outside [0, 1] NaN when eps < 0
template <typename C>
__aicore__ inline void LogitBackward(const Operands<C>& o) {
  const bool clamped = o.scalar.f >= 0;
  const C lo = clamped ? o.s : C(0);
  const C hi = clamped ? static_cast<C>(C(1) - o.s) : C(1);
  AscendC::Muls(o.t[0], o.x[1], C(-1), o.n);
  AscendC::Adds(o.t[0], o.t[0], C(1), o.n);
  AscendC::Mul(o.t[0], o.t[0], o.x[1], o.n);
  AscendC::Div(o.y, o.x[0], o.t[0], o.n);
  AscendC::Duplicate(o.t[1], clamped ? C(0) : std::numeric_limits<C>::quiet_NaN(), o.n);
  AscendC::CompareScalar(o.mask, o.x[1], lo, CMPMODE::LT, o.n);
  AscendC::Select(o.y, o.mask, o.t[1], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
  AscendC::CompareScalar(o.mask, o.x[1], hi, CMPMODE::GT, o.n);
  AscendC::Select(o.y, o.mask, o.t[1], o.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, o.n);
}


// ---- special functions (the simulator's special-function instructions) ----
template <typename C> __aicore__ inline void BesselJ0(const Operands<C>& o) { AscendC::BesselJ0(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselJ1(const Operands<C>& o) { AscendC::BesselJ1(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselY0(const Operands<C>& o) { AscendC::BesselY0(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselY1(const Operands<C>& o) { AscendC::BesselY1(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselI0(const Operands<C>& o) { AscendC::BesselI0(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselI1(const Operands<C>& o) { AscendC::BesselI1(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselI0e(const Operands<C>& o) { AscendC::BesselI0e(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselI1e(const Operands<C>& o) { AscendC::BesselI1e(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselK0(const Operands<C>& o) { AscendC::BesselK0(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselK1(const Operands<C>& o) { AscendC::BesselK1(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselK0e(const Operands<C>& o) { AscendC::BesselK0e(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void BesselK1e(const Operands<C>& o) { AscendC::BesselK1e(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void SphericalBesselJ0(const Operands<C>& o) { AscendC::SphericalBesselJ0(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void AiryAi(const Operands<C>& o) { AscendC::AiryAi(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Erfcx(const Operands<C>& o) { AscendC::Erfcx(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Ndtri(const Operands<C>& o) { AscendC::Ndtri(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void LogNdtr(const Operands<C>& o) { AscendC::LogNdtr(o.y, o.x[0], o.n); }
template <typename C> __aicore__ inline void Entr(const Operands<C>& o) { AscendC::Entr(o.y, o.x[0], o.n); }
template <typename C>
__aicore__ inline void Polygamma(const Operands<C>& o) {
  AscendC::Polygamma(o.y, o.x[0], o.scalar.i, o.n);
}


// ---- glu: a sigmoid(b) over the two halves of the input, and its gradients ----
template <typename C>
__aicore__ inline void Glu(const Operands<C>& o) {
  AscendC::Sigmoid(o.y, o.x[1], o.n);
  AscendC::Mul(o.y, o.x[0], o.y, o.n);
}
template <typename C>
__aicore__ inline void GluBackwardFirst(const Operands<C>& o) {
  AscendC::Sigmoid(o.y, o.x[1], o.n);
  AscendC::Mul(o.y, o.x[0], o.y, o.n);
}
template <typename C>
__aicore__ inline void GluBackwardSecond(const Operands<C>& o) {
  AscendC::Sigmoid(o.t[0], o.x[2], o.n);
  AscendC::Muls(o.t[1], o.t[0], C(-1), o.n);
  AscendC::Adds(o.t[1], o.t[1], C(1), o.n);
  AscendC::Mul(o.t[1], o.t[1], o.t[0], o.n);
  AscendC::Mul(o.t[1], o.t[1], o.x[1], o.n);
  AscendC::Mul(o.y, o.t[1], o.x[0], o.n);
}

}  // namespace ew_ops

// The operator `op` on one tile of compute-type (C) operands: the function of its row, when
// its types include C.
template <typename C>
__aicore__ inline void ComputeTile(EwOp op, const Operands<C>& o) {
  switch (op) {
#define ASCENDC_SIM_EW_OP(name, kernel, inputs, scratch, types, result, tiles) \
  case EwOp::k##name:                                                          \
    if constexpr (TypesAllow<C>(EwTypes::types)) {                             \
      ew_ops::name(o);                                                         \
      return;                                                                  \
    }                                                                          \
    break;
#include "kernels/elementwise_ops.def"
#undef ASCENDC_SIM_EW_OP
  }
  ascendc_sim::KernelFail("%s: operator not defined for this data type", EwKernelName(op));
}

// The kStorageType operators on the stored values of T (only those rows are instantiated).
template <typename T>
__aicore__ inline void ComputeStorageTile(EwOp op, const Operands<T>& o) {
  switch (op) {
#define ASCENDC_SIM_EW_OP(name, kernel, inputs, scratch, types, result, tiles)                    \
  case EwOp::k##name:                                                                             \
    if constexpr (EwTiles::tiles == EwTiles::kStorageType && TypesAllow<T>(EwTypes::types)) { \
      ew_ops::name(o);                                                                            \
      return;                                                                                     \
    }                                                                                             \
    break;
#include "kernels/elementwise_ops.def"
#undef ASCENDC_SIM_EW_OP
  }
  ascendc_sim::KernelFail("%s: operator not defined on stored values of this data type", EwKernelName(op));
}

template <typename T, typename TOut>
class ElementwiseKernel {
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
    if (params_.onStorage) return;
    if constexpr (!std::is_same<T, C>::value) {
      pipe_.InitBuffer(castBuf_, static_cast<uint32_t>(params_.arity) * tileLength_ * sizeof(C));
    }
    if constexpr (!std::is_same<TOut, C>::value) pipe_.InitBuffer(resultBuf_, tileLength_ * sizeof(C));
    if (params_.scratch > 0) {
      pipe_.InitBuffer(scratchBuf_, static_cast<uint32_t>(params_.scratch) * tileLength_ * sizeof(C));
    }
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
    LocalTensor<T> in[kMaxInputs];
    for (int i = 0; i < params_.arity; ++i) in[i] = inQueue_[i].template DeQue<T>();
    LocalTensor<TOut> y = outQueue_.template AllocTensor<TOut>();
    if constexpr (std::is_same<T, TOut>::value && !std::is_same<T, C>::value) {
      if (params_.onStorage) {
        Operands<T> o;
        o.n = count;
        o.y = y;
        o.scalar = params_.s;
        o.scalar2 = params_.s2;
        for (int i = 0; i < params_.arity; ++i) o.x[i] = in[i];
        ComputeStorageTile(params_.op, o);
        Finish(y, in);
        return;
      }
    }
    Operands<C> o;
    o.n = count;
    o.s = ScalarAs<T>(params_.s);
    o.s2 = ScalarAs<T>(params_.s2);
    o.s3 = ScalarAs<T>(params_.s3);
    o.scalar = params_.s;
    for (int i = 0; i < params_.arity; ++i) {
      if constexpr (std::is_same<T, C>::value) {
        o.x[i] = in[i];
      } else {
        o.x[i] = castBuf_.template Get<C>()[static_cast<uint32_t>(i) * tileLength_];
        AscendC::Cast(o.x[i], in[i], AscendC::RoundMode::CAST_NONE, count);
      }
    }
    for (int i = 0; i < params_.scratch; ++i) {
      o.t[i] = scratchBuf_.template Get<C>()[static_cast<uint32_t>(i) * tileLength_];
    }
    o.mask = maskBuf_.template Get<uint8_t>();
    if constexpr (std::is_same<TOut, C>::value) {
      o.y = y;
      ComputeTile(params_.op, o);
    } else {
      o.y = resultBuf_.template Get<C>();
      ComputeTile(params_.op, o);
      AscendC::Cast(y, o.y, AscendC::RoundMode::CAST_RINT, count);
    }
    Finish(y, in);
  }

  __aicore__ inline void Finish(const LocalTensor<TOut>& y, LocalTensor<T>* in) {
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
__global__ __aicore__ void elementwise_custom(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y,
                                              ElementwiseTiling tiling, EwKernelParams params) {
  ElementwiseKernel<T, TOut> op;
  op.Init(x0, x1, x2, y, tiling, params);
  op.Process();
}

bool IsFloatingKernelType(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
}

// Unified-buffer bytes per tile element of operator `info` over T (see ElementwiseKernel::Init).
template <typename T, typename TOut>
uint32_t UbBytesPerElement(const EwKernelParams& params) {
  using C = typename AscendC::detail::Arith<T>::Compute;
  const uint32_t arity = static_cast<uint32_t>(params.arity);
  uint32_t bytes = BUFFER_NUM * (arity * sizeof(T) + sizeof(TOut));  // the queues
  if (params.onStorage) return bytes;
  if (!std::is_same<T, C>::value) bytes += arity * sizeof(C);       // the inputs cast
  if (!std::is_same<TOut, C>::value) bytes += sizeof(C);            // the result before its cast
  return bytes + static_cast<uint32_t>(params.scratch) * sizeof(C) + 1;  // scratch tiles, mask bits
}

}  // namespace

int EwArity(EwOp op) { return Info(op).inputs; }

bool EwIsCompare(EwOp op) { return Info(op).result == EwResult::kBool; }

bool EwSupports(EwOp op, aclDataType dtype) {
  switch (Info(op).types) {
    case EwTypes::kFloating: return IsFloatingKernelType(dtype);
    case EwTypes::kNumeric: return dtype != ACL_BOOL;
    case EwTypes::kAll: return true;
    case EwTypes::kIntegral: return !IsFloatingKernelType(dtype) && dtype != ACL_BOOL;
    case EwTypes::kIntegralAndBool: return !IsFloatingKernelType(dtype);
  }
  return false;
}

const char* EwKernelName(EwOp op) { return Info(op).kernel; }

aclError LaunchElementwise(const EwArgs& args, aclrtStream stream) {
  const EwOpInfo& info = Info(args.op);
  if (!EwSupports(args.op, args.dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", info.kernel,
                      DataTypeName(args.dtype));
  }
  EwKernelParams params;
  params.op = args.op;
  params.arity = info.inputs;
  params.scratch = info.scratch;
  params.s = args.op == EwOp::kPowScalar ? StoredAs(args.dtype, args.s) : args.s;  // ATen's 16-bit pow: a 16-bit exponent
  params.s2 = args.s2;
  params.s3 = args.s3;
  return DispatchKernelType(args.dtype, info.kernel, [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    using C = typename AscendC::detail::Arith<T>::Compute;
    if (args.n == 0) return ACL_SUCCESS;
    params.onStorage = info.tiles == EwTiles::kStorageType && !std::is_same<T, C>::value;
    const uint32_t itemBytes = params.onStorage || sizeof(T) >= sizeof(C) ? sizeof(T) : sizeof(C);
    if (info.result == EwResult::kBool) {
      const ElementwiseTiling tiling = ComputeElementwiseTiling(args.n, UbBytesPerElement<T, bool>(params), itemBytes);
      return LaunchKernel(info.kernel, tiling.blockDim, stream, elementwise_custom<T, bool>, args.x[0], args.x[1],
                          args.x[2], args.y, tiling, params);
    }
    const ElementwiseTiling tiling = ComputeElementwiseTiling(args.n, UbBytesPerElement<T, T>(params), itemBytes);
    return LaunchKernel(info.kernel, tiling.blockDim, stream, elementwise_custom<T, T>, args.x[0], args.x[1],
                        args.x[2], args.y, tiling, params);
  });
}

aclError LaunchElementwise(EwOp op, aclDataType dtype, const void* x0, const void* x1, void* y, uint64_t n,
                           ScalarValue s, aclrtStream stream) {
  EwArgs args;
  args.op = op;
  args.dtype = dtype;
  args.x[0] = x0;
  args.x[1] = x1;
  args.y = y;
  args.n = n;
  args.s = s;
  return LaunchElementwise(args, stream);
}

}  // namespace kernels
}  // namespace ascendc_sim
