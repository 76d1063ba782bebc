// complex_elementwise: the complex operators of kernels/complex_api.h over dense operands.
// Each block takes a slice of the elements and moves it through the unified buffer tile
// by tile (copy-in of the operands' parts, the operator per element in double precision,
// copy-out of the result: complex parts, real values or bools). complex64 data is computed
// in complex128 and rounded once, as float16 is computed in float32.
#include <math.h>

#include <complex>

#include "common/dtype.h"
#include "common/error.h"
#include "kernels/complex_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using Complex = std::complex<double>;

// a / b as c10::complex divides: scaled by the larger part of b (Smith's algorithm).
inline Complex Divide(Complex a, Complex b) {
  const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (fabs(br) >= fabs(bi)) {
    if (br == 0.0 && bi == 0.0) return Complex(ar / fabs(br), ai / fabs(bi));
    const double rat = bi / br;
    const double scl = 1.0 / (br + bi * rat);
    return Complex((ar + ai * rat) * scl, (ai - ar * rat) * scl);
  }
  const double rat = br / bi;
  const double scl = 1.0 / (bi + br * rat);
  return Complex((ar * rat + ai) * scl, (ai * rat - ar) * scl);
}

inline Complex PowScalar(Complex z, Complex e) {
  if (e.imag() == 0.0) {
    if (e.real() == 2.0) return z * z;
    if (e.real() == 3.0) return z * z * z;
    if (e.real() == 0.5) return std::sqrt(z);
    if (e.real() == -1.0) return Divide(Complex(1.0, 0.0), z);
  }
  return std::pow(z, e);
}

inline Complex Unary(CxOp op, Complex z, Complex s) {
  switch (op) {
    case CxOp::kNeg: return -z;
    case CxOp::kConj: return std::conj(z);
    case CxOp::kExp: return std::exp(z);
    case CxOp::kLog: return std::log(z);
    case CxOp::kSqrt: return std::sqrt(z);
    case CxOp::kReciprocal: return Divide(Complex(1.0, 0.0), z);
    case CxOp::kSgn: {  // z / |z| as a complex division (NaN parts for an infinite or NaN z, as ATen)
      const double a = std::abs(z);
      return a == 0.0 ? Complex(0.0, 0.0) : Divide(z, Complex(a, 0.0));
    }
    case CxOp::kMulScalar: return z * s;
    case CxOp::kAddScalar: return z + s;
    case CxOp::kPowScalar: return PowScalar(z, s);
    default: return z;
  }
}

inline Complex Binary(CxOp op, Complex a, Complex b, Complex alpha) {
  switch (op) {
    case CxOp::kAdd: return alpha == Complex(1.0, 0.0) ? a + b : a + alpha * b;
    case CxOp::kSub: return alpha == Complex(1.0, 0.0) ? a - b : a - alpha * b;
    case CxOp::kMul: return a * b;
    case CxOp::kDiv: return Divide(a, b);
    default: return a;
  }
}

struct CxKernelParams {
  CxOp op = CxOp::kNeg;
  double sRe = 0.0;
  double sIm = 0.0;
  ElementwiseTiling tiling;
};

// P: the part type of the complex operands (float, double).
template <typename P>
class KernelComplexElementwise {
 public:
  __aicore__ inline void Init(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, const CxKernelParams& p) {
    p_ = &p;
    kind_ = CxKindOf(p.op);
    arity_ = CxArity(p.op);
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    const uint64_t offset = p.tiling.BlockOffset(block);
    length_ = p.tiling.BlockElements(block);
    tileLength_ = p.tiling.tileLength;
    const uint64_t inParts = InParts();
    const uint64_t outBytes = OutBytes();
    x0Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ P*>(x0) + offset * inParts, length_ * inParts);
    if (arity_ > 1) x1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ P*>(x1) + offset * inParts, length_ * inParts);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(y) + offset * outBytes, length_ * outBytes);
    pipe_.InitBuffer(in0_, BUFFER_NUM, tileLength_ * inParts * sizeof(P));
    if (arity_ > 1) pipe_.InitBuffer(in1_, BUFFER_NUM, tileLength_ * inParts * sizeof(P));
    pipe_.InitBuffer(out_, BUFFER_NUM, tileLength_ * outBytes);
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    const uint32_t inParts = static_cast<uint32_t>(InParts());
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      AscendC::LocalTensor<P> a = in0_.AllocTensor<P>();
      CopyTileIn(a, x0Gm_[start * inParts], count * inParts);
      in0_.EnQue(a);
      AscendC::LocalTensor<P> b;
      if (arity_ > 1) {
        b = in1_.AllocTensor<P>();
        CopyTileIn(b, x1Gm_[start * inParts], count * inParts);
        in1_.EnQue(b);
      }
      AscendC::LocalTensor<P> aIn = in0_.DeQue<P>();
      AscendC::LocalTensor<P> bIn;
      if (arity_ > 1) bIn = in1_.DeQue<P>();
      AscendC::LocalTensor<uint8_t> y = out_.AllocTensor<uint8_t>();
      Compute(aIn.GetPhyAddr(), arity_ > 1 ? bIn.GetPhyAddr() : nullptr, y.GetPhyAddr(), count);
      out_.EnQue(y);
      in0_.FreeTensor(aIn);
      if (arity_ > 1) in1_.FreeTensor(bIn);
      AscendC::LocalTensor<uint8_t> yOut = out_.DeQue<uint8_t>();
      CopyTileOut(yGm_[start * OutBytes()], yOut, static_cast<uint32_t>(count * OutBytes()));
      out_.FreeTensor(yOut);
    }
  }

 private:
  uint64_t InParts() const { return kind_ == CxKind::kRealToComplex || kind_ == CxKind::kRealToReal ? 1 : 2; }

  uint64_t OutBytes() const {
    switch (kind_) {
      case CxKind::kComplexToComplex:
      case CxKind::kRealToComplex: return 2 * sizeof(P);
      case CxKind::kComplexToReal:
      case CxKind::kRealToReal: return sizeof(P);
      case CxKind::kComplexToBool: return 1;
    }
    return 0;
  }

  void Compute(const P* a, const P* b, uint8_t* out, uint32_t count) const {
    const CxOp op = p_->op;
    const Complex s(p_->sRe, p_->sIm);
    switch (kind_) {
      case CxKind::kComplexToComplex: {
        P* y = reinterpret_cast<P*>(out);
        for (uint32_t j = 0; j < count; ++j) {
          const Complex z(a[2 * j], a[2 * j + 1]);
          const Complex r = arity_ > 1 ? Binary(op, z, Complex(b[2 * j], b[2 * j + 1]), s) : Unary(op, z, s);
          y[2 * j] = static_cast<P>(r.real());
          y[2 * j + 1] = static_cast<P>(r.imag());
        }
        return;
      }
      case CxKind::kComplexToReal: {
        P* y = reinterpret_cast<P*>(out);
        for (uint32_t j = 0; j < count; ++j) {
          const Complex z(a[2 * j], a[2 * j + 1]);
          y[j] = static_cast<P>(op == CxOp::kAbs ? std::abs(z) : std::arg(z));
        }
        return;
      }
      case CxKind::kComplexToBool: {
        bool* y = reinterpret_cast<bool*>(out);
        for (uint32_t j = 0; j < count; ++j) {
          const P re = a[2 * j], im = a[2 * j + 1];
          switch (op) {
            case CxOp::kEq: y[j] = re == b[2 * j] && im == b[2 * j + 1]; break;
            case CxOp::kNe: y[j] = !(re == b[2 * j] && im == b[2 * j + 1]); break;
            case CxOp::kIsNan: y[j] = isnan(re) || isnan(im); break;
            default: y[j] = isfinite(re) && isfinite(im); break;
          }
        }
        return;
      }
      case CxKind::kRealToReal: {
        P* y = reinterpret_cast<P*>(out);
        for (uint32_t j = 0; j < count; ++j) {
          const P x = a[j];
          if (op == CxOp::kRealAngle) {
            y[j] = isnan(x) ? x : x < P(0) ? static_cast<P>(M_PI) : P(0);
          } else {
            y[j] = x > P(0) ? P(1) : x < P(0) ? P(-1) : P(0);
          }
        }
        return;
      }
      case CxKind::kRealToComplex: {
        P* y = reinterpret_cast<P*>(out);
        for (uint32_t j = 0; j < count; ++j) {
          if (op == CxOp::kComplex) {
            y[2 * j] = a[j];
            y[2 * j + 1] = b[j];
          } else {  // polar: abs * (cos(angle), sin(angle))
            const double r = a[j], t = b[j];
            y[2 * j] = static_cast<P>(r * cos(t));
            y[2 * j + 1] = static_cast<P>(r * sin(t));
          }
        }
        return;
      }
    }
  }

  const CxKernelParams* p_ = nullptr;
  CxKind kind_ = CxKind::kComplexToComplex;
  int arity_ = 1;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> in0_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> in1_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> out_;
  AscendC::GlobalTensor<P> x0Gm_;
  AscendC::GlobalTensor<P> x1Gm_;
  AscendC::GlobalTensor<uint8_t> yGm_;
};

template <typename P>
__global__ __aicore__ void complex_elementwise(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, CxKernelParams params) {
  KernelComplexElementwise<P> op;
  op.Init(x0, x1, y, params);
  op.Process();
}

}  // namespace

CxKind CxKindOf(CxOp op) {
  switch (op) {
    case CxOp::kAbs:
    case CxOp::kAngle: return CxKind::kComplexToReal;
    case CxOp::kEq:
    case CxOp::kNe:
    case CxOp::kIsNan:
    case CxOp::kIsFinite: return CxKind::kComplexToBool;
    case CxOp::kComplex:
    case CxOp::kPolar: return CxKind::kRealToComplex;
    case CxOp::kRealAngle:
    case CxOp::kRealSgn: return CxKind::kRealToReal;
    default: return CxKind::kComplexToComplex;
  }
}

int CxArity(CxOp op) {
  switch (op) {
    case CxOp::kAdd:
    case CxOp::kSub:
    case CxOp::kMul:
    case CxOp::kDiv:
    case CxOp::kEq:
    case CxOp::kNe:
    case CxOp::kComplex:
    case CxOp::kPolar: return 2;
    default: return 1;
  }
}

const char* CxName(CxOp op) {
  switch (op) {
    case CxOp::kNeg: return "neg";
    case CxOp::kConj: return "conj";
    case CxOp::kExp: return "exp";
    case CxOp::kLog: return "log";
    case CxOp::kSqrt: return "sqrt";
    case CxOp::kReciprocal: return "reciprocal";
    case CxOp::kSgn: return "sgn";
    case CxOp::kAdd: return "add";
    case CxOp::kSub: return "sub";
    case CxOp::kMul: return "mul";
    case CxOp::kDiv: return "div";
    case CxOp::kMulScalar: return "mul (scalar)";
    case CxOp::kAddScalar: return "add (scalar)";
    case CxOp::kPowScalar: return "pow (scalar)";
    case CxOp::kAbs: return "abs";
    case CxOp::kAngle: return "angle";
    case CxOp::kEq: return "eq";
    case CxOp::kNe: return "ne";
    case CxOp::kIsNan: return "isnan";
    case CxOp::kIsFinite: return "isfinite";
    case CxOp::kComplex: return "complex";
    case CxOp::kPolar: return "polar";
    case CxOp::kRealAngle: return "angle";
    case CxOp::kRealSgn: return "sgn";
  }
  return "?";
}

aclError LaunchComplexElementwise(const CxArgs& args, aclrtStream stream) {
  if (!IsComplexType(args.dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'complex_elementwise' (%s) does not support data type %s",
                      CxName(args.op), DataTypeName(args.dtype));
  }
  if (args.n == 0) return ACL_SUCCESS;
  CxKernelParams params;
  params.op = args.op;
  params.sRe = args.sRe;
  params.sIm = args.sIm;
  const uint32_t part = args.dtype == ACL_COMPLEX64 ? 4 : 8;
  // Per element: up to two complex inputs and a complex output, double-buffered.
  params.tiling = ComputeElementwiseTiling(args.n, BUFFER_NUM * 3 * 2 * part, 2 * part);
  void* x0 = const_cast<void*>(args.x[0]);
  void* x1 = const_cast<void*>(args.x[1] != nullptr ? args.x[1] : args.x[0]);
  if (args.dtype == ACL_COMPLEX64) {
    return LaunchKernel("complex_elementwise", params.tiling.blockDim, stream, complex_elementwise<float>, x0, x1,
                        args.y, params);
  }
  return LaunchKernel("complex_elementwise", params.tiling.blockDim, stream, complex_elementwise<double>, x0, x1,
                      args.y, params);
}

}  // namespace kernels
}  // namespace ascendc_sim
