// acl_op types LayerNorm and LayerNormGrad (declared in abi/aclop/norm.decl) on the layer norm row kernels
// (layer_norm_custom / layer_norm_grad_custom), the elementwise kernel and the column sum: CANN's types carry
// the per-row variance, so it is converted from and to the row kernels' rstd in float32.
#include <cmath>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// CANN's LayerNormGrad adds this to the variance before the reciprocal square root.
constexpr double kLayerNormGradEpsilon = 1e-12;

// The dimension an axis attribute names in a rank-`rank` x (negative: from the end).
aclError WrapAxis(OpContext& ctx, const char* name, int64_t axis, size_t rank, size_t* out) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis > r) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %lld is out of range for a %lld-D x", name,
                    static_cast<long long>(axis), static_cast<long long>(r));
  }
  *out = static_cast<size_t>(axis < 0 ? axis + r : axis);
  return ACL_SUCCESS;
}

int64_t Product(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= shape[i];
  return n;
}

// `operand` holds one value per row (`rows` of them).
aclError RequireRows(OpContext& ctx, const OpOperand& operand, const char* name, int64_t rows) {
  if (operand.Numel() != rows) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has %lld elements, expected one per row (%lld)", name,
                    static_cast<long long>(operand.Numel()), static_cast<long long>(rows));
  }
  return ACL_SUCCESS;
}

// `operand`'s shape is the normalized dimensions of x, shape[axis:].
aclError RequireNormalizedShape(OpContext& ctx, const OpOperand& operand, const char* name,
                                const std::vector<int64_t>& shape, size_t axis) {
  const std::vector<int64_t> expected(shape.begin() + static_cast<std::ptrdiff_t>(axis), shape.end());
  if (operand.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, expected x's normalized dimensions %s", name,
                    ShapeToString(operand.shape()).c_str(), ShapeToString(expected).c_str());
  }
  return ACL_SUCCESS;
}

// A float32 temporary of `n` elements holding `src` (of `dtype`) cast.
aclError Float32Copy(OpContext& ctx, aclDataType dtype, const void* src, uint64_t n, void** out) {
  aclError rc = ctx.AllocTemp(n * sizeof(float), out);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(dtype, src, ACL_FLOAT, *out, n, ctx.stream());
  return rc;
}

}  // namespace

aclError RunLayerNorm(OpContext& ctx, const LayerNormAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const std::vector<int64_t>& shape = x.shape();
  size_t axis = 0, paramsAxis = 0;
  aclError rc = WrapAxis(ctx, "begin_norm_axis", attrs.begin_norm_axis, shape.size(), &axis);
  if (rc == ACL_SUCCESS) rc = WrapAxis(ctx, "begin_params_axis", attrs.begin_params_axis, shape.size(), &paramsAxis);
  if (rc != ACL_SUCCESS) return rc;
  if (paramsAxis != axis) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "begin_params_axis %lld differs from begin_norm_axis %lld",
                    static_cast<long long>(attrs.begin_params_axis), static_cast<long long>(attrs.begin_norm_axis));
  }
  const int64_t rows = Product(shape, 0, axis), cols = Product(shape, axis, shape.size());
  if ((rc = RequireNormalizedShape(ctx, ctx.inputs[1], "gamma", shape, axis)) != ACL_SUCCESS) return rc;
  if ((rc = RequireNormalizedShape(ctx, ctx.inputs[2], "beta", shape, axis)) != ACL_SUCCESS) return rc;
  if ((rc = ctx.RequireSameShape(ctx.outputs[0], "y", x, "x")) != ACL_SUCCESS) return rc;
  if ((rc = RequireRows(ctx, ctx.outputs[1], "mean", rows)) != ACL_SUCCESS) return rc;
  if ((rc = RequireRows(ctx, ctx.outputs[2], "variance", rows)) != ACL_SUCCESS) return rc;
  const aclDataType dtype = x.dtype();
  const uint64_t r = static_cast<uint64_t>(rows), c = static_cast<uint64_t>(cols);
  if (rows == 0) return ACL_SUCCESS;
  if (cols == 0) {  // the mean and variance of no elements are NaN
    for (size_t i = 1; i < 3; ++i) {
      rc = kernels::LaunchFill(dtype, ctx.outputs[i].data, r, kernels::ScalarValue::Floating(NAN), ctx.stream());
      if (rc != ACL_SUCCESS) return rc;
    }
    return ACL_SUCCESS;
  }
  kernels::LayerNormArgs args;
  args.dtype = dtype;
  args.statsDtype = dtype;
  args.rows = r;
  args.cols = c;
  args.eps = attrs.epsilon;
  args.x = x.data;
  args.gamma = ctx.inputs[1].data;
  args.beta = ctx.inputs[2].data;
  args.y = ctx.outputs[0].data;
  args.mean = ctx.outputs[1].data;
  if ((rc = kernels::LaunchLayerNorm(args, ctx.stream())) != ACL_SUCCESS) return rc;
  // variance = 1 / rstd^2 of a second pass without epsilon (its y is discarded)
  void *y0 = nullptr, *rstd0 = nullptr, *variance = nullptr;
  rc = ctx.AllocTemp(r * c * DataTypeSize(dtype), &y0);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(r * sizeof(float), &rstd0);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(r * sizeof(float), &variance);
  if (rc != ACL_SUCCESS) return rc;
  args.statsDtype = ACL_FLOAT;
  args.eps = 0.0;
  args.gamma = nullptr;
  args.beta = nullptr;
  args.y = y0;
  args.mean = nullptr;
  args.rstd = rstd0;
  const kernels::ScalarValue none;
  rc = kernels::LaunchLayerNorm(args, ctx.stream());
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(kernels::EwOp::kMul, ACL_FLOAT, rstd0, rstd0, rstd0, r, none, ctx.stream());
  }
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(kernels::EwOp::kReciprocal, ACL_FLOAT, rstd0, nullptr, variance, r, none,
                                    ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(ACL_FLOAT, variance, dtype, ctx.outputs[2].data, r, ctx.stream());
}

aclError RunLayerNormGrad(OpContext& ctx, const LayerNormGradAttrs& /*attrs*/) {
  const OpOperand& dy = ctx.inputs[0];
  const OpOperand& x = ctx.inputs[1];
  const OpOperand& gamma = ctx.inputs[4];
  const std::vector<int64_t>& shape = x.shape();
  aclError rc = ctx.RequireSameShape(dy, "dy", x, "x");
  if (rc != ACL_SUCCESS) return rc;
  if (gamma.shape().size() > shape.size()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "gamma has shape %s, more dimensions than x %s",
                    ShapeToString(gamma.shape()).c_str(), ShapeToString(shape).c_str());
  }
  const size_t axis = shape.size() - gamma.shape().size();
  if ((rc = RequireNormalizedShape(ctx, gamma, "gamma", shape, axis)) != ACL_SUCCESS) return rc;
  const int64_t rows = Product(shape, 0, axis), cols = Product(shape, axis, shape.size());
  if ((rc = RequireRows(ctx, ctx.inputs[2], "variance", rows)) != ACL_SUCCESS) return rc;
  if ((rc = RequireRows(ctx, ctx.inputs[3], "mean", rows)) != ACL_SUCCESS) return rc;
  if ((rc = ctx.RequireSameShape(ctx.outputs[0], "pd_x", x, "x")) != ACL_SUCCESS) return rc;
  if ((rc = ctx.RequireSameShape(ctx.outputs[1], "pd_gamma", gamma, "gamma")) != ACL_SUCCESS) return rc;
  if ((rc = ctx.RequireSameShape(ctx.outputs[2], "pd_beta", gamma, "gamma")) != ACL_SUCCESS) return rc;
  if (cols == 0) return ACL_SUCCESS;
  const aclDataType dtype = x.dtype();
  const uint64_t r = static_cast<uint64_t>(rows), c = static_cast<uint64_t>(cols);
  void* dyXhat = nullptr;
  if (rows > 0) {
    void *mean = nullptr, *rstd = nullptr;
    rc = Float32Copy(ctx, dtype, ctx.inputs[3].data, r, &mean);
    if (rc == ACL_SUCCESS) rc = Float32Copy(ctx, dtype, ctx.inputs[2].data, r, &rstd);
    if (rc == ACL_SUCCESS) {
      rc = kernels::LaunchElementwise(kernels::EwOp::kAddScalar, ACL_FLOAT, rstd, nullptr, rstd, r,
                                      kernels::ScalarValue::Floating(kLayerNormGradEpsilon), ctx.stream());
    }
    if (rc == ACL_SUCCESS) {
      rc = kernels::LaunchElementwise(kernels::EwOp::kRsqrt, ACL_FLOAT, rstd, nullptr, rstd, r, kernels::ScalarValue(),
                                      ctx.stream());
    }
    if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(r * c * sizeof(float), &dyXhat);
    if (rc != ACL_SUCCESS) return rc;
    kernels::LayerNormGradArgs args;
    args.dtype = dtype;
    args.statsDtype = ACL_FLOAT;
    args.rows = r;
    args.cols = c;
    args.dy = dy.data;
    args.x = x.data;
    args.mean = mean;
    args.rstd = rstd;
    args.gamma = gamma.data;
    args.dx = ctx.outputs[0].data;
    args.dyXhat = dyXhat;
    if ((rc = kernels::LaunchLayerNormGrad(args, ctx.stream())) != ACL_SUCCESS) return rc;
  }
  // no rows: the sums of no elements, zeros
  rc = kernels::LaunchColumnSum(ACL_FLOAT, dyXhat, dtype, ctx.outputs[1].data, r, c, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchColumnSum(dtype, rows > 0 ? dy.data : nullptr, dtype, ctx.outputs[2].data, r, c,
                                  ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
