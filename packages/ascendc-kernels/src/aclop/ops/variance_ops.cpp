// acl_op means and deviations (declared in abi/aclop/variance.decl): ReduceMeanD, ReduceStdWithMean and
// ReduceStdV2Update, and BroadcastTo (a view copy with stride 0 along the broadcast dimensions). x (and mean) are copied with the reduced dimensions last in float32; the elementwise
// kernel squares x - mean, reduce_dim_custom sums each row, the sums are divided (and square-rooted) and
// cast to y.
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/dim_last.h"
#include "aclop/ops/elementwise_run.h"
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

// y <- the row sums of `rows` x `cols` values (compute type) divided by `divisor`, square-rooted when
// `takeSqrt`.
aclError SumsToOutput(OpContext& ctx, const DimLast& plan, const void* values, double divisor, bool takeSqrt) {
  const OpOperand& y = ctx.outputs[0];
  void* sums = nullptr;
  aclError rc = ctx.AllocTemp(plan.rows * sizeof(float), &sums);
  if (rc != ACL_SUCCESS) return rc;
  kernels::DimReduceArgs args;
  args.op = kernels::DimReduceOp::kSum;
  args.dtype = ACL_FLOAT;
  args.x = values;  // none for a sum of no elements (0)
  args.y0 = sums;
  args.rows = plan.rows;
  args.cols = plan.cols;
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchElementwise(EwOp::kDivScalar, ACL_FLOAT, sums, nullptr, sums, plan.rows,
                                  ScalarValue::Floating(divisor), ctx.stream());
  if (rc == ACL_SUCCESS && takeSqrt) {
    rc = kernels::LaunchElementwise(EwOp::kSqrt, ACL_FLOAT, sums, nullptr, sums, plan.rows, ScalarValue{},
                                    ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(ACL_FLOAT, sums, y.dtype(), y.data, plan.rows, ctx.stream());
}

// y <- sum((x - mean)^2) / divisor over dims (its square root when takeSqrt).
aclError RunDeviation(OpContext& ctx, const std::vector<int64_t>& dims, bool unbiased, bool keepDims,
                      int64_t correction, bool takeSqrt) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& mean = ctx.inputs[1];
  if (mean.shape() != x.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input mean has shape %s, expected x's %s",
                    ShapeToString(mean.shape()).c_str(), ShapeToString(x.shape()).c_str());
  }
  DimLast plan;
  aclError rc = PlanAttrDims(ctx, dims, false, keepDims, &plan);
  if (rc != ACL_SUCCESS) return rc;
  const double count = static_cast<double>(plan.cols);
  const double divisor = unbiased ? count - static_cast<double>(correction) : count;
  if (divisor <= 0) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "a divisor of %g (%llu elements, correction %lld) is not supported",
                    divisor, static_cast<unsigned long long>(plan.cols), static_cast<long long>(correction));
  }
  if (plan.rows == 0) return ACL_SUCCESS;
  const uint64_t n = plan.rows * plan.cols;
  void* dx = nullptr;
  void* dm = nullptr;
  rc = CopyDimLast(ctx, plan, x, ACL_FLOAT, &dx);
  if (rc == ACL_SUCCESS) rc = CopyDimLast(ctx, plan, mean, ACL_FLOAT, &dm);
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(EwOp::kSub, ACL_FLOAT, dx, dm, dm, n, ScalarValue::Floating(1.0), ctx.stream());
  }
  if (rc == ACL_SUCCESS) rc = kernels::LaunchElementwise(EwOp::kMul, ACL_FLOAT, dm, dm, dm, n, ScalarValue{}, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return SumsToOutput(ctx, plan, dm, divisor, takeSqrt);
}

}  // namespace

aclError RunReduceMeanD(OpContext& ctx, const ReduceMeanDAttrs& attrs) {
  DimLast plan;
  aclError rc = PlanAttrDims(ctx, attrs.axes, false, attrs.keep_dims, &plan);
  if (rc != ACL_SUCCESS || plan.rows == 0) return rc;
  void* dense = nullptr;
  if (plan.cols > 0 && (rc = CopyDimLast(ctx, plan, ctx.inputs[0], ACL_FLOAT, &dense)) != ACL_SUCCESS) return rc;
  return SumsToOutput(ctx, plan, dense, static_cast<double>(plan.cols), false);
}

aclError RunReduceStdWithMean(OpContext& ctx, const ReduceStdWithMeanAttrs& attrs) {
  if (attrs.invert) return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "invert (the reciprocal) is not supported");
  return RunDeviation(ctx, attrs.dim, attrs.unbiased, attrs.keepdim, attrs.correction, true);
}

aclError RunReduceStdV2Update(OpContext& ctx, const ReduceStdV2UpdateAttrs& attrs) {
  return RunDeviation(ctx, attrs.dim, attrs.unbiased, attrs.keepdim, attrs.correction, attrs.if_std);
}

aclError RunBroadcastTo(OpContext& ctx, const BroadcastToAttrs&) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  std::vector<int64_t> shape;
  aclError rc = ConstantInts(ctx, 1, "shape", &shape);
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& from = x.shape();
  const size_t rank = shape.size();
  if (y.shape() != shape || from.size() > rank || rank > static_cast<size_t>(kernels::kMaxViewDims)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "cannot broadcast x of shape %s to %s (output y %s)",
                    ShapeToString(from).c_str(), ShapeToString(shape).c_str(), ShapeToString(y.shape()).c_str());
  }
  kernels::ViewCopyArgs v;
  v.ndim = rank == 0 ? 1 : static_cast<int32_t>(rank);
  v.shape[0] = 1;
  int64_t stride = 1;
  int64_t dense = 1;
  for (size_t k = rank; k-- > 0;) {
    const size_t lead = rank - from.size();
    const int64_t size = k < lead ? 1 : from[k - lead];
    if (size != shape[k] && size != 1) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "cannot broadcast x of shape %s to %s", ShapeToString(from).c_str(),
                      ShapeToString(shape).c_str());
    }
    v.shape[k] = shape[k];
    v.src.strides[k] = size == 1 ? 0 : stride;
    v.dst.strides[k] = dense;
    stride *= size;
    dense *= shape[k];
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  v.src.data = x.data;
  v.src.dtype = x.dtype();
  v.dst.data = y.data;
  v.dst.dtype = y.dtype();
  return kernels::LaunchViewCopy(v, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
