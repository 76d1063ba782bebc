// acl_op types with two inputs and numpy broadcasting: Add, Mul, Axpy, AxpyV2 (its alpha a constant input),
// LogicalAnd, LogicalOr, Sub, RealDiv,
// Maximum, Minimum (declared in
// abi/aclop/binary.decl, which checks their dtypes and reads their attributes).
#include <math.h>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// y = op(x1, x2) with the inputs broadcast to y's shape.
aclError RunBroadcastBinary(OpContext& ctx, kernels::EwOp op, kernels::ScalarValue s) {
  const OpOperand& x1 = ctx.inputs[0];
  const OpOperand& x2 = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  std::vector<int64_t> shape;
  if (!BroadcastShapes(x1.shape(), x2.shape(), &shape)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input shapes %s and %s cannot broadcast",
                    ShapeToString(x1.shape()).c_str(), ShapeToString(x2.shape()).c_str());
  }
  if (shape != y.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s but the inputs broadcast to %s",
                    ShapeToString(y.shape()).c_str(), ShapeToString(shape).c_str());
  }
  void* a = nullptr;
  void* b = nullptr;
  aclError rc = ctx.BroadcastInput(0, shape, &a);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(1, shape, &b);
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(op, y.dtype(), a, b, y.data, static_cast<uint64_t>(y.Numel()), s, ctx.stream());
}

}  // namespace

aclError RunAdd(OpContext& ctx, const AddAttrs&) { return RunBroadcastBinary(ctx, kernels::EwOp::kAdd, {}); }

aclError RunMul(OpContext& ctx, const MulAttrs&) { return RunBroadcastBinary(ctx, kernels::EwOp::kMul, {}); }

// On bool, multiplication is "and" and addition "or" (the elementwise kernel saturates to 1).
aclError RunLogicalAnd(OpContext& ctx, const LogicalAndAttrs&) {
  return RunBroadcastBinary(ctx, kernels::EwOp::kMul, {});
}

aclError RunLogicalOr(OpContext& ctx, const LogicalOrAttrs&) {
  return RunBroadcastBinary(ctx, kernels::EwOp::kAdd, {});
}

aclError RunAxpy(OpContext& ctx, const AxpyAttrs& attrs) {
  const aclDataType dtype = ctx.inputs[0].dtype();
  if (IsIntegralType(dtype, false) && attrs.alpha != truncf(attrs.alpha)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "alpha %g must be integral for data type %s", attrs.alpha,
                    DataTypeName(dtype));
  }
  const kernels::ScalarValue alpha = IsFloatingType(dtype)
                                         ? kernels::StoredAs(dtype, kernels::ScalarValue::Floating(attrs.alpha))
                                         : kernels::ScalarValue::Integral(static_cast<int64_t>(attrs.alpha));
  return RunBroadcastBinary(ctx, kernels::EwOp::kAxpy, alpha);
}

aclError RunAxpyV2(OpContext& ctx, const AxpyV2Attrs&) {
  kernels::ScalarValue alpha;
  const aclError rc = ConstantScalarInput(ctx, 2, "alpha", &alpha);
  if (rc != ACL_SUCCESS) return rc;
  return RunBroadcastBinary(ctx, kernels::EwOp::kAxpy, alpha);
}

aclError RunSub(OpContext& ctx, const SubAttrs&) {
  return RunBroadcastBinary(ctx, kernels::EwOp::kSub, ScalarFor(ctx.inputs[0].dtype(), 1.0));
}

aclError RunRealDiv(OpContext& ctx, const RealDivAttrs&) { return RunBroadcastBinary(ctx, kernels::EwOp::kDiv, {}); }

aclError RunMaximum(OpContext& ctx, const MaximumAttrs&) {
  return RunBroadcastBinary(ctx, kernels::EwOp::kMaximum, {});
}

aclError RunMinimum(OpContext& ctx, const MinimumAttrs&) {
  return RunBroadcastBinary(ctx, kernels::EwOp::kMinimum, {});
}

}  // namespace aclop
}  // namespace ascendc_sim
