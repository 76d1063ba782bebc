// The complex path of the elementwise aclnn entry points (aclnn/aclnn_complex.h), and
// aclnnComplex / aclnnPolar.
#include "aclnn/aclnn_complex.h"

#include "aclnnop/aclnn_complex.h"

#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

using kernels::CxKind;
using kernels::CxOp;

aclDataType ResultTypeOf(CxOp op) {
  switch (kernels::CxKindOf(op)) {
    case CxKind::kComplexToReal:
    case CxKind::kRealToReal: return ACL_DOUBLE;
    case CxKind::kComplexToBool: return ACL_BOOL;
    default: return ACL_COMPLEX128;
  }
}

// The operand type the kernel reads: complex128, or double for the real parts of complex/polar.
aclDataType OperandTypeOf(CxOp op) {
  const CxKind kind = kernels::CxKindOf(op);
  return kind == CxKind::kRealToComplex || kind == CxKind::kRealToReal ? ACL_DOUBLE : ACL_COMPLEX128;
}

aclnnStatus CheckCommon(const char* api, std::initializer_list<std::pair<const aclTensor*, const char*>> tensors,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  for (const auto& t : tensors) {
    if ((rc = CheckNotNull(api, t.first, t.second)) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  for (const auto& t : tensors) {
    if ((rc = CheckTensor(api, t.first, t.second, kCopyDtypes)) != ACLNN_SUCCESS) return rc;
  }
  return ACLNN_SUCCESS;
}

// A complex result fits only a complex out; a real one any floating or complex out; bool any.
aclnnStatus CheckOut(const char* api, CxOp op, const aclTensor* out, const char* outName) {
  const CxKind kind = kernels::CxKindOf(op);
  const bool complexResult = kind == CxKind::kComplexToComplex || kind == CxKind::kRealToComplex;
  if (complexResult && !IsComplexType(out->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the complex result of %s cannot be cast to %s of dtype %s", api,
                      kernels::CxName(op), outName, DataTypeName(out->dtype));
  }
  if (kind == CxKind::kComplexToReal && !IsFloatingType(out->dtype) && !IsComplexType(out->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the floating result of %s cannot be cast to %s of dtype %s", api,
                      kernels::CxName(op), outName, DataTypeName(out->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus Run(const char* api, CxOp op, std::initializer_list<std::pair<const aclTensor*, const char*>> inputs,
                const aclScalar* scalar, const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
  std::vector<int64_t> shape;
  bool first = true;
  for (const auto& in : inputs) {
    if (first) {
      shape = in.first->viewDims;
      first = false;
      continue;
    }
    std::vector<int64_t> merged;
    if (!BroadcastShapes(shape, in.first->viewDims, &merged)) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s cannot be broadcast with %s", api, in.second,
                        ShapeToString(in.first->viewDims).c_str(), ShapeToString(shape).c_str());
    }
    shape = merged;
  }
  if (shape != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from the broadcast shape %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(shape).c_str());
  }
  aclnnStatus rc;
  if ((rc = CheckOut(api, op, out, outName)) != ACLNN_SUCCESS) return rc;
  kernels::CxArgs args;
  args.op = op;
  args.dtype = ACL_COMPLEX128;
  args.n = static_cast<uint64_t>(out->Numel());
  args.sRe = 1.0;  // the alpha of add/sub when none is given
  if (scalar != nullptr) scalar->ToComplex(&args.sRe, &args.sIm);
  ExecutorBuilder plan(api);
  if (args.n > 0) {
    DenseBuffer buffers[2];
    int count = 0;
    for (const auto& in : inputs) buffers[count++] = plan.Input(in.first, in.second, out->viewDims, OperandTypeOf(op));
    const DenseBuffer y = plan.Output(out, outName, ResultTypeOf(op));
    plan.AddStep([args, buffers, count, y](uint8_t* ws, aclrtStream stream) {
      kernels::CxArgs launch = args;
      for (int i = 0; i < count; ++i) launch.x[i] = buffers[i].Resolve(ws);
      launch.y = y.Resolve(ws);
      return kernels::LaunchComplexElementwise(launch, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace

bool ComplexOpOf(kernels::EwOp op, CxOp* cx) {
  using kernels::EwOp;
  switch (op) {
    case EwOp::kNeg: *cx = CxOp::kNeg; return true;
    case EwOp::kExp: *cx = CxOp::kExp; return true;
    case EwOp::kLog: *cx = CxOp::kLog; return true;
    case EwOp::kSqrt: *cx = CxOp::kSqrt; return true;
    case EwOp::kReciprocal: *cx = CxOp::kReciprocal; return true;
    case EwOp::kAbs: *cx = CxOp::kAbs; return true;
    case EwOp::kMulScalar: *cx = CxOp::kMulScalar; return true;
    case EwOp::kAddScalar: *cx = CxOp::kAddScalar; return true;
    case EwOp::kPowScalar: *cx = CxOp::kPowScalar; return true;
    case EwOp::kAdd: *cx = CxOp::kAdd; return true;
    case EwOp::kSub: *cx = CxOp::kSub; return true;
    case EwOp::kMul: *cx = CxOp::kMul; return true;
    case EwOp::kDiv: *cx = CxOp::kDiv; return true;
    case EwOp::kEq: *cx = CxOp::kEq; return true;
    case EwOp::kNe: *cx = CxOp::kNe; return true;
    default: return false;
  }
}

bool AnyComplex(std::initializer_list<const aclTensor*> tensors, const aclScalar* scalar) {
  for (const aclTensor* t : tensors) {
    if (t != nullptr && IsComplexType(t->dtype)) return true;
  }
  return scalar != nullptr && scalar->IsComplex();
}

aclnnStatus ComplexUnary(const char* api, CxOp op, const aclTensor* self, const char* selfName,
                         const aclScalar* scalar, const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
  aclnnStatus rc = CheckCommon(api, {{self, selfName}, {out, outName}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  return Run(api, op, {{self, selfName}}, scalar, out, outName, workspaceSize, executor);
}

aclnnStatus ComplexBinary(const char* api, CxOp op, const aclTensor* self, const char* selfName,
                          const aclTensor* other, const char* otherName, const aclScalar* alpha,
                          const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
  aclnnStatus rc =
      CheckCommon(api, {{self, selfName}, {other, otherName}, {out, outName}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  return Run(api, op, {{self, selfName}, {other, otherName}}, alpha, out, outName, workspaceSize, executor);
}

}  // namespace aclnn
}  // namespace ascendc_sim

// ---- complex numbers from real parts: aclnnComplex, aclnnPolar ----

namespace {

aclnnStatus FromParts(const char* api, ascendc_sim::kernels::CxOp op, const aclTensor* a, const char* aName,
                      const aclTensor* b, const char* bName, const aclTensor* out, uint64_t* workspaceSize,
                      aclOpExecutor** executor) {
  using namespace ascendc_sim;
  using namespace ascendc_sim::aclnn;
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, a, aName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, b, bName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, a, aName, {ACL_FLOAT, ACL_DOUBLE})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, b, bName, {ACL_FLOAT, ACL_DOUBLE})) != ACLNN_SUCCESS) return rc;
  if (a->dtype != b->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, %s has %s; both must have one dtype", api,
                      aName, DataTypeName(a->dtype), bName, DataTypeName(b->dtype));
  }
  const aclDataType want = a->dtype == ACL_FLOAT ? ACL_COMPLEX64 : ACL_COMPLEX128;
  if ((rc = CheckTensor(api, out, "out", {want})) != ACLNN_SUCCESS) return rc;
  return ComplexBinary(api, op, a, aName, b, bName, nullptr, out, "out", workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnComplexGetWorkspaceSize(const aclTensor* real, const aclTensor* imag, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return FromParts("aclnnComplex", ascendc_sim::kernels::CxOp::kComplex, real, "real", imag, "imag", out,
                   workspaceSize, executor);
}

aclnnStatus aclnnComplex(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnComplex", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnPolarGetWorkspaceSize(const aclTensor* input, const aclTensor* angle, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return FromParts("aclnnPolar", ascendc_sim::kernels::CxOp::kPolar, input, "input", angle, "angle", out,
                   workspaceSize, executor);
}

aclnnStatus aclnnPolar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnPolar", workspace, workspaceSize, executor, stream);
}

}  // extern "C"

// ---- angle and sgn, of complex and of real operands: aclnnAngleV2, aclnnSgn ----

extern "C" {

aclnnStatus aclnnAngleV2GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  using ascendc_sim::kernels::CxOp;
  const bool complexSelf = self != nullptr && ascendc_sim::IsComplexType(self->dtype);
  if (out != nullptr && !ascendc_sim::IsFloatingType(out->dtype)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "aclnnAngleV2: out has dtype %s; angle is floating",
                                   ascendc_sim::DataTypeName(out->dtype));
  }
  return ascendc_sim::aclnn::ComplexUnary("aclnnAngleV2", complexSelf ? CxOp::kAngle : CxOp::kRealAngle, self, "self",
                                          nullptr, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnAngleV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAngleV2", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSgnGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  using ascendc_sim::kernels::CxOp;
  const bool complexSelf = self != nullptr && ascendc_sim::IsComplexType(self->dtype);
  return ascendc_sim::aclnn::ComplexUnary("aclnnSgn", complexSelf ? CxOp::kSgn : CxOp::kRealSgn, self, "self",
                                          nullptr, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnSgn(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnSgn", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
