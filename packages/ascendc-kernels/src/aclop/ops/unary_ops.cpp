// acl_op types with one input: Abs, Muls, Fills, OnesLike, ZerosLike, LogicalNot, Cast (declared in
// abi/aclop/unary.decl, which checks their dtypes and reads their attributes).
#include <math.h>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

aclError RequireSameShapeXY(OpContext& ctx) {
  return ctx.RequireSameShape(ctx.inputs[0], "input x", ctx.outputs[0], "output y");
}

uint64_t ElementsOfY(const OpContext& ctx) { return static_cast<uint64_t>(ctx.outputs[0].Numel()); }

}  // namespace

aclError RunAbs(OpContext& ctx, const AbsAttrs&) {
  const aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchElementwise(kernels::EwOp::kAbs, y.dtype(), ctx.inputs[0].data, nullptr, y.data,
                                    ElementsOfY(ctx), {}, ctx.stream());
}

aclError RunMuls(OpContext& ctx, const MulsAttrs& attrs) {
  const aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  if (!IsFloatingType(y.dtype()) && attrs.value != truncf(attrs.value)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "value %g must be integral for data type %s", attrs.value,
                    DataTypeName(y.dtype()));
  }
  const kernels::ScalarValue scalar = IsFloatingType(y.dtype())
                                          ? kernels::ScalarValue::Floating(attrs.value)
                                          : kernels::ScalarValue::Integral(static_cast<int64_t>(attrs.value));
  return kernels::LaunchElementwise(kernels::EwOp::kMulScalar, y.dtype(), ctx.inputs[0].data, nullptr, y.data,
                                    ElementsOfY(ctx), scalar, ctx.stream());
}

aclError RunFills(OpContext& ctx, const FillsAttrs& attrs) {
  const aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchFill(y.dtype(), y.data, ElementsOfY(ctx), kernels::ScalarValue::Floating(attrs.value),
                             ctx.stream());
}

aclError RunOnesLike(OpContext& ctx, const OnesLikeAttrs&) {
  const aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchFill(y.dtype(), y.data, ElementsOfY(ctx), kernels::ScalarValue::Integral(1), ctx.stream());
}

aclError RunZerosLike(OpContext& ctx, const ZerosLikeAttrs&) {
  const aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchFill(y.dtype(), y.data, ElementsOfY(ctx), kernels::ScalarValue::Integral(0), ctx.stream());
}

// not x is x == 0 (a compare, whose result is bool like x).
aclError RunLogicalNot(OpContext& ctx, const LogicalNotAttrs&) {
  const aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchElementwise(kernels::EwOp::kEqScalar, y.dtype(), ctx.inputs[0].data, nullptr, y.data,
                                    ElementsOfY(ctx), kernels::ScalarValue::Integral(0), ctx.stream());
}

aclError RunCast(OpContext& ctx, const CastAttrs& attrs) {
  const aclError rc = RequireSameShapeXY(ctx);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  if (attrs.dst_type != static_cast<int64_t>(y.dtype())) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute dst_type is %lld (%s) but output y has data type %s",
                    static_cast<long long>(attrs.dst_type), DataTypeName(static_cast<aclDataType>(attrs.dst_type)),
                    DataTypeName(y.dtype()));
  }
  return kernels::LaunchCast(x.dtype(), x.data, y.dtype(), y.data, ElementsOfY(ctx), ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
