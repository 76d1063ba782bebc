// acl_op binary pointwise types (declared in abi/aclop/pointwise.decl): each runs one operator of the
// elementwise kernel over its inputs broadcast to y's shape; Fill is a broadcasting view copy and
// LinSpace the sequence kernel.
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

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

aclError RunFill(OpContext& ctx, const FillAttrs&) {
  const OpOperand& value = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  std::vector<int64_t> dims;
  aclError rc = ConstantInts(ctx, 0, "dims", &dims);
  if (rc != ACL_SUCCESS) return rc;
  const bool scalar_y = y.shape().empty() && dims == std::vector<int64_t>{1};
  if (dims != y.shape() && !scalar_y) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input dims is %s but output y has shape %s",
                    ShapeToString(dims).c_str(), ShapeToString(y.shape()).c_str());
  }
  if (value.Numel() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input value must have one element, got shape %s",
                    ShapeToString(value.shape()).c_str());
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  kernels::ViewCopyArgs args;  // a source stride of 0 broadcasts the one value
  args.ndim = 1;
  args.shape[0] = y.Numel();
  args.src = {value.data, value.dtype(), 0, {0}};
  args.dst = {y.data, y.dtype(), 0, {1}};
  return kernels::LaunchViewCopy(args, ctx.stream());
}

aclError RunLinSpace(OpContext& ctx, const LinSpaceAttrs&) {
  const OpOperand& y = ctx.outputs[0];
  kernels::ScalarValue start, stop;
  std::vector<int64_t> num;
  aclError rc = ConstantScalarInput(ctx, 0, "start", &start);
  if (rc == ACL_SUCCESS) rc = ConstantScalarInput(ctx, 1, "stop", &stop);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, 2, "num", &num);
  if (rc != ACL_SUCCESS) return rc;
  if (num.size() != 1 || num[0] < 0 || y.shape() != std::vector<int64_t>{num[0]}) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input num must be one non-negative count, the length of the 1-D y "
                    "(shape %s)", ShapeToString(y.shape()).c_str());
  }
  if (num[0] == 0) return ACL_SUCCESS;
  return kernels::LaunchSequence(y.dtype(), y.data, num[0], start.f, stop.f, false, 10.0, ctx.stream());
}

aclError RunLogSpaceD(OpContext& ctx, const LogSpaceDAttrs& attrs) {
  const OpOperand& assist = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(assist, "input assist", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  const aclDataType named = attrs.dtype == 0 ? ACL_FLOAT16 : attrs.dtype == 1 ? ACL_FLOAT : ACL_DT_UNDEFINED;
  if (named != y.dtype()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute dtype %lld does not name y's dtype (0: float16, 1: float32)",
                    static_cast<long long>(attrs.dtype));
  }
  if (attrs.steps != y.Numel()) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "attribute steps %lld differs from the %lld positions of assist",
                    static_cast<long long>(attrs.steps), static_cast<long long>(y.Numel()));
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  return kernels::LaunchSequence(y.dtype(), y.data, attrs.steps, attrs.start, attrs.end, true, attrs.base,
                                 ctx.stream(), assist.data);
}

}  // namespace aclop
}  // namespace ascendc_sim
