// acl_op types of one input on the elementwise kernel: Exp, Log (natural, 2, 10), Sqrt, Rsqrt, Reciprocal, Tanh,
// Sigmoid, Swish, GeluV2, Neg, Relu, Pow, ClipByValueV2; Tril and Triu on the triangle kernels, Range on the
// arange kernel (declared in abi/aclop/math.decl and rearrange.decl, which check their dtypes and read their
// attributes).
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

aclError Unary(OpContext& ctx, kernels::EwOp op, kernels::ScalarValue s = {}) {
  const aclError rc = ctx.RequireSameShape(ctx.inputs[0], "input x", ctx.outputs[0], "output y");
  if (rc != ACL_SUCCESS) return rc;
  return RunElementwiseBroadcast(ctx, op, 1, s);
}

// CANN's base ** (scale * x + shift) / log_base(scale * x + shift): only the natural form is simulated.
aclError RequireNaturalForm(OpContext& ctx, float base, float scale, float shift) {
  if (base == -1.0f && scale == 1.0f && shift == 0.0f) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                  "base %g, scale %g, shift %g: only base -1 (e), scale 1 and shift 0 are supported", base, scale,
                  shift);
}

}  // namespace

aclError RunExp(OpContext& ctx, const ExpAttrs& attrs) {
  const aclError rc = RequireNaturalForm(ctx, attrs.base, attrs.scale, attrs.shift);
  return rc != ACL_SUCCESS ? rc : Unary(ctx, kernels::EwOp::kExp);
}

// log2 and log10 are Log with base 2 and 10 (scale 1, shift 0).
aclError RunLog(OpContext& ctx, const LogAttrs& attrs) {
  if (attrs.scale == 1.0f && attrs.shift == 0.0f && (attrs.base == 2.0f || attrs.base == 10.0f)) {
    return Unary(ctx, attrs.base == 2.0f ? kernels::EwOp::kLog2 : kernels::EwOp::kLog10);
  }
  const aclError rc = RequireNaturalForm(ctx, attrs.base, attrs.scale, attrs.shift);
  return rc != ACL_SUCCESS ? rc : Unary(ctx, kernels::EwOp::kLog);
}

aclError RunSqrt(OpContext& ctx, const SqrtAttrs&) { return Unary(ctx, kernels::EwOp::kSqrt); }
aclError RunRsqrt(OpContext& ctx, const RsqrtAttrs&) { return Unary(ctx, kernels::EwOp::kRsqrt); }
aclError RunReciprocal(OpContext& ctx, const ReciprocalAttrs&) { return Unary(ctx, kernels::EwOp::kReciprocal); }
aclError RunTanh(OpContext& ctx, const TanhAttrs&) { return Unary(ctx, kernels::EwOp::kTanh); }
aclError RunSigmoid(OpContext& ctx, const SigmoidAttrs&) { return Unary(ctx, kernels::EwOp::kSigmoid); }
aclError RunNeg(OpContext& ctx, const NegAttrs&) { return Unary(ctx, kernels::EwOp::kNeg); }
aclError RunRelu(OpContext& ctx, const ReluAttrs&) { return Unary(ctx, kernels::EwOp::kRelu); }

aclError RunSwish(OpContext& ctx, const SwishAttrs& attrs) {
  if (attrs.scale != 1.0f) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "scale %g: only scale 1 (silu) is supported", attrs.scale);
  }
  return Unary(ctx, kernels::EwOp::kSilu);
}

aclError RunGeluV2(OpContext& ctx, const GeluV2Attrs& attrs) {
  if (attrs.approximate != "none" && attrs.approximate != "tanh") {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "approximate is '%s'; expected 'none' or 'tanh'",
                    attrs.approximate.c_str());
  }
  return Unary(ctx, attrs.approximate == "tanh" ? kernels::EwOp::kGeluTanh : kernels::EwOp::kGelu);
}

// A one-element constant base with an exponent of y's shape runs the scalar-base operator (exp2: 2 ** x); a
// one-element constant exponent the scalar-exponent one (pow(x, 2)); other operands broadcast.
aclError RunPow(OpContext& ctx, const PowAttrs&) {
  const OpOperand& x1 = ctx.inputs[0];
  const OpOperand& x2 = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  if (x1.desc->isConst && x1.Numel() == 1 && !x2.desc->isConst && x2.shape() == y.shape()) {
    kernels::ScalarValue base;
    const aclError rc = ConstantScalarInput(ctx, 0, "x1", &base);
    if (rc != ACL_SUCCESS) return rc;
    return kernels::LaunchElementwise(kernels::EwOp::kPowScalarTensor, y.dtype(), x2.data, nullptr, y.data,
                                      static_cast<uint64_t>(y.Numel()), base, ctx.stream());
  }
  if (!x2.desc->isConst || x2.Numel() != 1 || x1.shape() != y.shape()) {
    return RunElementwiseBroadcast(ctx, kernels::EwOp::kPowTensorTensor, 2, {});
  }
  kernels::ScalarValue exponent;
  const aclError rc = ConstantScalarInput(ctx, 1, "x2", &exponent);
  if (rc != ACL_SUCCESS) return rc;
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kPowScalar, 1, exponent);
}

// max then min on the broadcast operands: the elementwise kernel's Maximum and Minimum propagate NaN.
aclError RunClipByValueV2(OpContext& ctx, const ClipByValueV2Attrs&) {
  const OpOperand& y = ctx.outputs[0];
  std::vector<int64_t> shape = ctx.inputs[0].shape();
  for (size_t i = 1; i < 3; ++i) {
    std::vector<int64_t> next;
    if (!BroadcastShapes(shape, ctx.inputs[i].shape(), &next)) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input %zu of shape %s does not broadcast with %s", i,
                      ShapeToString(ctx.inputs[i].shape()).c_str(), ShapeToString(shape).c_str());
    }
    shape = next;
  }
  if (shape != y.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s but the inputs broadcast to %s",
                    ShapeToString(y.shape()).c_str(), ShapeToString(shape).c_str());
  }
  void* x = nullptr;
  void* lo = nullptr;
  void* hi = nullptr;
  aclError rc = ctx.BroadcastInput(0, shape, &x);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(1, shape, &lo);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(2, shape, &hi);
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  rc = kernels::LaunchElementwise(kernels::EwOp::kMaximum, y.dtype(), x, lo, y.data, n, {}, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(kernels::EwOp::kMinimum, y.dtype(), y.data, hi, y.data, n, {}, ctx.stream());
}

namespace {

using TriangleLaunch = aclError (*)(aclDataType, const void*, void*, uint64_t, uint64_t, uint64_t, int64_t,
                                    aclrtStream);

// y = x with one triangle of each matrix (the last two dimensions) zeroed by `launch` (tril or triu).
aclError RunTriangle(OpContext& ctx, int64_t diagonal, TriangleLaunch launch) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& shape = x.shape();
  if (shape.size() < 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x of shape %s must have at least 2 dimensions",
                    ShapeToString(shape).c_str());
  }
  const int64_t m = shape[shape.size() - 2];
  const int64_t n = shape[shape.size() - 1];
  const int64_t batch = m * n == 0 ? 0 : x.Numel() / (m * n);
  if (batch == 0) return ACL_SUCCESS;
  return launch(x.dtype(), x.data, y.data, static_cast<uint64_t>(batch), static_cast<uint64_t>(m),
                static_cast<uint64_t>(n), diagonal, ctx.stream());
}

}  // namespace

aclError RunTril(OpContext& ctx, const TrilAttrs& attrs) { return RunTriangle(ctx, attrs.diagonal, kernels::LaunchTril); }
aclError RunTriu(OpContext& ctx, const TriuAttrs& attrs) { return RunTriangle(ctx, attrs.diagonal, kernels::LaunchTriu); }

// The arange kernel: computed in double for floating y (int64 for integral y) from the constants.
aclError RunRange(OpContext& ctx, const RangeAttrs&) {
  const OpOperand& y = ctx.outputs[0];
  kernels::ScalarValue start, limit, delta;
  aclError rc = ConstantScalarInput(ctx, 0, "start", &start);
  if (rc == ACL_SUCCESS) rc = ConstantScalarInput(ctx, 1, "limit", &limit);
  if (rc == ACL_SUCCESS) rc = ConstantScalarInput(ctx, 2, "delta", &delta);
  if (rc != ACL_SUCCESS) return rc;
  if (y.shape().size() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y of shape %s must be 1-D", ShapeToString(y.shape()).c_str());
  }
  if (delta.f == 0.0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "delta must be nonzero");
  if (y.Numel() == 0) return ACL_SUCCESS;
  return kernels::LaunchArange(y.dtype(), y.data, static_cast<uint64_t>(y.Numel()), start.f, delta.f, start.i,
                               delta.i, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
