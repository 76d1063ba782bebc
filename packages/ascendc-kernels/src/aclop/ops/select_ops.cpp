// acl_op types of three inputs and the activation gradients on the elementwise kernel: Addcmul, Addcdiv,
// Lerp, Select, MaskedFill, SigmoidGrad, TanhGrad, SiluGrad, GeluGradV2, ThresholdGradV2D (declared in
// abi/aclop/select.decl, which checks their dtypes and reads their attributes).
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// y = op(x0, x1, x2) with the constant one-element input `valueIndex` as the scalar parameter.
aclError TernaryWithConstant(OpContext& ctx, kernels::EwOp op, size_t valueIndex, const char* valueName) {
  kernels::ScalarValue value;
  const aclError rc = ConstantScalarInput(ctx, valueIndex, valueName, &value);
  if (rc != ACL_SUCCESS) return rc;
  return RunElementwiseBroadcast(ctx, op, static_cast<int>(valueIndex), value);
}

}  // namespace

aclError RunAddcmul(OpContext& ctx, const AddcmulAttrs&) {
  return TernaryWithConstant(ctx, kernels::EwOp::kAddcmul, 3, "value");
}

aclError RunAddcdiv(OpContext& ctx, const AddcdivAttrs&) {
  return TernaryWithConstant(ctx, kernels::EwOp::kAddcdiv, 3, "value");
}

// A constant one-element weight is the scalar form (start + w (end - start)), else the weight broadcasts.
aclError RunLerp(OpContext& ctx, const LerpAttrs&) {
  const OpOperand& weight = ctx.inputs[2];
  if (weight.desc->isConst && weight.Numel() == 1) {
    return TernaryWithConstant(ctx, kernels::EwOp::kLerpScalar, 2, "weight");
  }
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kLerpTensor, 3, {});
}

// The elementwise kernel's select reads its inputs in one dtype: the bool condition is widened to x1's.
aclError RunSelect(OpContext& ctx, const SelectAttrs&) {
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
  void* cond = nullptr;
  void* a = nullptr;
  void* b = nullptr;
  aclError rc = ctx.BroadcastInput(0, shape, &cond);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(1, shape, &a);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(2, shape, &b);
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  void* wide = cond;
  if (y.dtype() != ACL_BOOL) {
    rc = ctx.AllocTemp(n * DataTypeSize(y.dtype()), &wide);
    if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(ACL_BOOL, cond, y.dtype(), wide, n, ctx.stream());
    if (rc != ACL_SUCCESS) return rc;
  }
  kernels::EwArgs args;
  args.op = kernels::EwOp::kWhere;
  args.dtype = y.dtype();
  args.x[0] = wide;
  args.x[1] = a;
  args.x[2] = b;
  args.y = y.data;
  args.n = n;
  return kernels::LaunchElementwise(args, ctx.stream());
}

// The kernel's masked fill reads x and the mask in x's dtype: the bool mask is widened first.
aclError RunMaskedFill(OpContext& ctx, const MaskedFillAttrs&) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  kernels::ScalarValue value;
  aclError rc = ConstantScalarInput(ctx, 2, "value", &value);
  if (rc != ACL_SUCCESS) return rc;
  rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  void* mask = nullptr;
  rc = ctx.BroadcastInput(1, y.shape(), &mask);
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  void* wide = mask;
  if (y.dtype() != ACL_BOOL) {
    rc = ctx.AllocTemp(n * DataTypeSize(y.dtype()), &wide);
    if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(ACL_BOOL, mask, y.dtype(), wide, n, ctx.stream());
    if (rc != ACL_SUCCESS) return rc;
  }
  return kernels::LaunchElementwise(kernels::EwOp::kMaskedFill, y.dtype(), x.data, wide, y.data, n, value,
                                    ctx.stream());
}

// SigmoidGrad / TanhGrad take (y, dy); the kernel's operators read (grad, y).
aclError RunSigmoidGrad(OpContext& ctx, const SigmoidGradAttrs&) {
  const OpOperand& z = ctx.outputs[0];
  void* y = nullptr;
  void* dy = nullptr;
  aclError rc = ctx.BroadcastInput(0, z.shape(), &y);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(1, z.shape(), &dy);
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(kernels::EwOp::kSigmoidBackward, z.dtype(), dy, y, z.data,
                                    static_cast<uint64_t>(z.Numel()), {}, ctx.stream());
}

aclError RunTanhGrad(OpContext& ctx, const TanhGradAttrs&) {
  const OpOperand& z = ctx.outputs[0];
  void* y = nullptr;
  void* dy = nullptr;
  aclError rc = ctx.BroadcastInput(0, z.shape(), &y);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(1, z.shape(), &dy);
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(kernels::EwOp::kTanhBackward, z.dtype(), dy, y, z.data,
                                    static_cast<uint64_t>(z.Numel()), {}, ctx.stream());
}

aclError RunSiluGrad(OpContext& ctx, const SiluGradAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kSiluBackward, 2, {});
}

aclError RunGeluGradV2(OpContext& ctx, const GeluGradV2Attrs& attrs) {
  if (attrs.approximate != "none" && attrs.approximate != "tanh") {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "approximate is '%s'; expected 'none' or 'tanh'",
                    attrs.approximate.c_str());
  }
  return RunElementwiseBroadcast(
      ctx, attrs.approximate == "tanh" ? kernels::EwOp::kGeluTanhBackward : kernels::EwOp::kGeluBackward, 2, {});
}

aclError RunThresholdGradV2D(OpContext& ctx, const ThresholdGradV2DAttrs& attrs) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kThresholdBackward, 2,
                                 ScalarFor(ctx.inputs[0].dtype(), attrs.threshold));
}

}  // namespace aclop
}  // namespace ascendc_sim
