// acl_op binary pointwise types (declared in abi/aclop/pointwise.decl): each runs one operator of the
// elementwise kernel over its inputs broadcast to y's shape.
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"

namespace ascendc_sim {
namespace aclop {

aclError RunAtan2(OpContext& ctx, const Atan2Attrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kAtan2, 2, {});
}
aclError RunBitwiseAnd(OpContext& ctx, const BitwiseAndAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kBitwiseAnd, 2, {});
}
aclError RunBitwiseOr(OpContext& ctx, const BitwiseOrAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kBitwiseOr, 2, {});
}
aclError RunBitwiseXor(OpContext& ctx, const BitwiseXorAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kBitwiseXor, 2, {});
}
aclError RunLeftShift(OpContext& ctx, const LeftShiftAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kLeftShift, 2, {});
}
aclError RunRightShift(OpContext& ctx, const RightShiftAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kRightShift, 2, {});
}
aclError RunMod(OpContext& ctx, const ModAttrs&) { return RunElementwiseBroadcast(ctx, kernels::EwOp::kFmod, 2, {}); }
aclError RunFloorMod(OpContext& ctx, const FloorModAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kRemainder, 2, {});
}
aclError RunFloorDiv(OpContext& ctx, const FloorDivAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kDivFloor, 2, {});
}
aclError RunXlogy(OpContext& ctx, const XlogyAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kXlogy, 2, {});
}
aclError RunTrunc(OpContext& ctx, const TruncAttrs&) {
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kTrunc, 1, {});
}

// logaddexp (base e, written -1) and logaddexp2 (base 2); other bases, scales and shifts are not simulated.
aclError RunLogAddExp(OpContext& ctx, const LogAddExpAttrs& attrs) {
  if (attrs.scale != 1.0f || attrs.shift != 0.0f || (attrs.base != -1.0f && attrs.base != 2.0f)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "LogAddExp: only base -1 (e) or 2, scale 1 and shift 0 are supported (base %g, scale %g, shift %g)",
                    attrs.base, attrs.scale, attrs.shift);
  }
  return RunElementwiseBroadcast(ctx, attrs.base == 2.0f ? kernels::EwOp::kLogAddExp2 : kernels::EwOp::kLogAddExp, 2,
                                 {});
}

}  // namespace aclop
}  // namespace ascendc_sim
