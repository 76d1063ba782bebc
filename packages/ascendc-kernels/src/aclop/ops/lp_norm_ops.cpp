// acl_op vector norms (declared in abi/aclop/lp_norm.decl): LpNormReduceV2 raises |x| to p with the elementwise
// kernel and sums each row with reduce_dim_custom's norm of order 1 (orders 0 and +-inf: its count of
// nonzeros and its maximum / minimum of |x| directly); LpNormUpdateV2 takes the 1/p-th power elementwise.
// Renorm takes the norm of each slice the same way and turns it into its factor with elementwise operators.
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

aclError RunRenorm(OpContext& ctx, const RenormAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  const int64_t rank = static_cast<int64_t>(x.shape().size());
  if (rank == 0 || attrs.dim < -rank || attrs.dim >= rank) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "dim %lld is out of range for a %lld-D x",
                    static_cast<long long>(attrs.dim), static_cast<long long>(rank));
  }
  const int64_t kept = attrs.dim < 0 ? attrs.dim + rank : attrs.dim;
  std::vector<int64_t> others;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != kept) others.push_back(d);
  }
  DimLast plan;
  aclError rc = PlanAttrDims(ctx, others, false, true, &plan);
  if (rc != ACL_SUCCESS || plan.rows == 0) return rc;
  const uint64_t rows = plan.rows;
  void* dense = nullptr;
  void* norms = nullptr;
  void* above = nullptr;
  void* mask = nullptr;
  void* ones = nullptr;
  if (plan.cols > 0) rc = CopyDimLast(ctx, plan, x, ACL_FLOAT, &dense);
  for (void** buffer : {&norms, &mask, &ones}) {
    if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(rows * sizeof(float), buffer);
  }
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(rows, &above);
  if (rc != ACL_SUCCESS) return rc;
  kernels::DimReduceArgs args;
  args.op = kernels::DimReduceOp::kNorm;
  args.dtype = ACL_FLOAT;
  args.x = dense;  // none for slices of no elements (norm 0)
  args.y0 = norms;
  args.rows = rows;
  args.cols = plan.cols;
  args.p = attrs.p;
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  const aclrtStream stream = ctx.stream();
  rc = kernels::LaunchElementwise(EwOp::kGtScalar, ACL_FLOAT, norms, nullptr, above, rows,
                                  ScalarValue::Floating(attrs.maxnorm), stream);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(ACL_BOOL, above, ACL_FLOAT, mask, rows, stream);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchFill(ACL_FLOAT, ones, rows, ScalarValue::Floating(1.0), stream);
  if (rc == ACL_SUCCESS) {  // norms <- maxnorm / (norm + 1e-7)
    rc = kernels::LaunchElementwise(EwOp::kAddScalar, ACL_FLOAT, norms, nullptr, norms, rows,
                                    ScalarValue::Floating(1e-7), stream);
  }
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(EwOp::kReciprocal, ACL_FLOAT, norms, nullptr, norms, rows, ScalarValue{}, stream);
  }
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(EwOp::kMulScalar, ACL_FLOAT, norms, nullptr, norms, rows,
                                    ScalarValue::Floating(attrs.maxnorm), stream);
  }
  if (rc != ACL_SUCCESS) return rc;
  kernels::EwArgs select;
  select.op = EwOp::kWhere;
  select.dtype = ACL_FLOAT;
  select.x[0] = mask;
  select.x[1] = norms;
  select.x[2] = ones;
  select.y = ones;
  select.n = rows;
  if ((rc = kernels::LaunchElementwise(select, stream)) != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(ACL_FLOAT, ones, y.dtype(), y.data, rows, stream);
}

}  // namespace aclop
}  // namespace ascendc_sim
