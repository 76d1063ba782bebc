// acl_op vector norms (declared in abi/aclop/norm.decl): LpNormReduceV2 raises |x| to p with the elementwise
// kernel and sums each row with reduce_dim_custom's norm of order 1 (orders 0 and +-inf: its count of
// nonzeros and its maximum / minimum of |x| directly); LpNormUpdateV2 takes the 1/p-th power elementwise.
#include <math.h>

#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/dim_last.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "kernels/reduce_dim_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

using kernels::EwOp;
using kernels::ScalarValue;

// CANN's stand-ins for the infinite orders: INT_MAX and INT_MIN as floats.
constexpr float kPlusInfOrder = 2147483648.0f;
constexpr float kMinusInfOrder = -2147483648.0f;

// p as a double (+-inf for the stand-ins); a nonzero epsilon and a NaN p fail.
aclError OrderOf(OpContext& ctx, float p, float epsilon, double* order) {
  if (epsilon != 0.0f) return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "epsilon %g is not supported", epsilon);
  if (isnan(p)) return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "p = nan is not supported");
  *order = p == kPlusInfOrder ? INFINITY : p == kMinusInfOrder ? -INFINITY : static_cast<double>(p);
  return ACL_SUCCESS;
}

}  // namespace

aclError RunLpNormReduceV2(OpContext& ctx, const LpNormReduceV2Attrs& attrs) {
  double p = 0;
  aclError rc = OrderOf(ctx, attrs.p, attrs.epsilon, &p);
  if (rc != ACL_SUCCESS) return rc;
  DimLast plan;
  if ((rc = PlanAttrDims(ctx, attrs.axes, true, attrs.keepdim, &plan)) != ACL_SUCCESS) return rc;
  if (plan.rows == 0) return ACL_SUCCESS;
  const OpOperand& y = ctx.outputs[0];
  const uint64_t n = plan.rows * plan.cols;
  const bool direct = p == 0 || p == 1 || isinf(p);  // the row kernel's own orders
  void* dense = nullptr;
  void* sums = nullptr;
  if (n > 0) rc = CopyDimLast(ctx, plan, ctx.inputs[0], ACL_FLOAT, &dense);
  if (rc == ACL_SUCCESS && n > 0 && !direct) {
    rc = kernels::LaunchElementwise(EwOp::kAbs, ACL_FLOAT, dense, nullptr, dense, n, ScalarValue{}, ctx.stream());
    if (rc == ACL_SUCCESS) {
      rc = kernels::LaunchElementwise(EwOp::kPowScalar, ACL_FLOAT, dense, nullptr, dense, n, ScalarValue::Floating(p),
                                      ctx.stream());
    }
  }
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(plan.rows * sizeof(float), &sums);
  if (rc != ACL_SUCCESS) return rc;
  kernels::DimReduceArgs args;
  args.op = kernels::DimReduceOp::kNorm;
  args.dtype = ACL_FLOAT;
  args.x = dense;  // none for a norm of no elements (0)
  args.y0 = sums;
  args.rows = plan.rows;
  args.cols = plan.cols;
  args.p = direct ? p : 1.0;
  if (isinf(p) && plan.cols == 0) {  // the extreme of no elements: 0, as the sum
    args.p = 1.0;
  }
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(ACL_FLOAT, sums, y.dtype(), y.data, plan.rows, ctx.stream());
}

aclError RunLpNormUpdateV2(OpContext& ctx, const LpNormUpdateV2Attrs& attrs) {
  double p = 0;
  const aclError rc = OrderOf(ctx, attrs.p, attrs.epsilon, &p);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  if (y.shape() != x.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected x's %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(x.shape()).c_str());
  }
  const uint64_t n = static_cast<uint64_t>(x.Numel());
  if (n == 0) return ACL_SUCCESS;
  if (p == 0 || p == 1 || isinf(p)) return kernels::LaunchCast(x.dtype(), x.data, y.dtype(), y.data, n, ctx.stream());
  const EwOp op = p == 2 ? EwOp::kSqrt : EwOp::kPowScalar;
  return kernels::LaunchElementwise(op, x.dtype(), x.data, nullptr, y.data, n, ScalarValue::Floating(1.0 / p),
                                    ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
