// acl_op types of one floating input on the elementwise kernel's math operators, one row each, and
// Round, Sign, Invert, NanToNum (declared in abi/aclop/unary_math.decl, which checks their dtypes and
// reads their attributes).
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

aclError Unary(OpContext& ctx, kernels::EwOp op, kernels::ScalarValue s = {}) {
  const aclError rc = ctx.RequireSameShape(ctx.inputs[0], "input x", ctx.outputs[0], "output y");
  if (rc != ACL_SUCCESS) return rc;
  return RunElementwiseBroadcast(ctx, op, 1, s);
}

}  // namespace

#define ASCENDC_SIM_UNARY_MATH_TYPE(TYPE, OP) \
  aclError Run##TYPE(OpContext& ctx, const TYPE##Attrs&) { return Unary(ctx, kernels::EwOp::k##OP); }

ASCENDC_SIM_UNARY_MATH_TYPE(Sin, Sin)
ASCENDC_SIM_UNARY_MATH_TYPE(Cos, Cos)
ASCENDC_SIM_UNARY_MATH_TYPE(Tan, Tan)
ASCENDC_SIM_UNARY_MATH_TYPE(Asin, Asin)
ASCENDC_SIM_UNARY_MATH_TYPE(Acos, Acos)
ASCENDC_SIM_UNARY_MATH_TYPE(Atan, Atan)
ASCENDC_SIM_UNARY_MATH_TYPE(Sinh, Sinh)
ASCENDC_SIM_UNARY_MATH_TYPE(Cosh, Cosh)
ASCENDC_SIM_UNARY_MATH_TYPE(Asinh, Asinh)
ASCENDC_SIM_UNARY_MATH_TYPE(Acosh, Acosh)
ASCENDC_SIM_UNARY_MATH_TYPE(Atanh, Atanh)
ASCENDC_SIM_UNARY_MATH_TYPE(Erf, Erf)
ASCENDC_SIM_UNARY_MATH_TYPE(Erfc, Erfc)
ASCENDC_SIM_UNARY_MATH_TYPE(Erfinv, Erfinv)
ASCENDC_SIM_UNARY_MATH_TYPE(Expm1, Expm1)
ASCENDC_SIM_UNARY_MATH_TYPE(Log1p, Log1p)
ASCENDC_SIM_UNARY_MATH_TYPE(Ceil, Ceil)
ASCENDC_SIM_UNARY_MATH_TYPE(Floor, Floor)
ASCENDC_SIM_UNARY_MATH_TYPE(Trunc, Trunc)
ASCENDC_SIM_UNARY_MATH_TYPE(Sign, Sign)
ASCENDC_SIM_UNARY_MATH_TYPE(Invert, BitwiseNot)

#undef ASCENDC_SIM_UNARY_MATH_TYPE

aclError RunRound(OpContext& ctx, const RoundAttrs& attrs) {
  if (attrs.decimals == 0) return Unary(ctx, kernels::EwOp::kRound);
  return Unary(ctx, kernels::EwOp::kRoundDecimals, kernels::ScalarValue::Integral(attrs.decimals));
}

aclError RunNanToNum(OpContext& ctx, const NanToNumAttrs& attrs) {
  const aclError rc = ctx.RequireSameShape(ctx.inputs[0], "input x", ctx.outputs[0], "output y");
  if (rc != ACL_SUCCESS) return rc;
  return RunElementwiseBroadcast(ctx, kernels::EwOp::kNanToNum, {0}, kernels::ScalarValue::Floating(attrs.nan),
                                 kernels::ScalarValue::Floating(attrs.posinf),
                                 kernels::ScalarValue::Floating(attrs.neginf));
}

}  // namespace aclop
}  // namespace ascendc_sim
