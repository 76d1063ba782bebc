// acl_op types LayerNorm and LayerNormGrad (declared in abi/aclop/norm.decl) on the layer norm row kernels
// (layer_norm_custom / layer_norm_grad_custom), the elementwise kernel and the column sum: CANN's types carry
// the per-row variance, so it is converted from and to the row kernels' rstd in float32. The batch norm types
// (BNTrainingReduce, BNTrainingUpdate, BNInfer, their gradients and the 3D ones) on batch_norm_custom in
// evaluation mode as a per-channel affine map (the statistics computed from the sums) and batch_norm_grad_custom.
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

// A float32 temporary of `n` elements.
aclError Float32Temp(OpContext& ctx, uint64_t n, void** out) { return ctx.AllocTemp(n * sizeof(float), out); }

// y = op(x0[, x1]) over n float32 elements.
aclError Float32Op(OpContext& ctx, kernels::EwOp op, const void* x0, const void* x1, void* y, uint64_t n,
                   double s = 0.0) {
  return kernels::LaunchElementwise(op, ACL_FLOAT, x0, x1, y, n, kernels::ScalarValue::Floating(s), ctx.stream());
}

// x of a batch norm type: (N, C, spatial...) of `rank` dimensions, as (n, c, l).
aclError BatchNormLayout(OpContext& ctx, const OpOperand& x, size_t rank, uint64_t* n, uint64_t* c, uint64_t* l) {
  const std::vector<int64_t>& shape = x.shape();
  if (shape.size() != rank) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "x has shape %s, expected %zu dimensions (N, C, ...)",
                    ShapeToString(shape).c_str(), rank);
  }
  *n = static_cast<uint64_t>(shape[0]);
  *c = static_cast<uint64_t>(shape[1]);
  *l = static_cast<uint64_t>(Product(shape, 2, rank));
  return ACL_SUCCESS;
}

// Every per-channel operand (inputs from `firstInput`, outputs from `firstOutput`) holds c elements.
aclError RequireChannels(OpContext& ctx, size_t firstInput, size_t firstOutput, uint64_t c) {
  for (size_t i = firstInput; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].Numel() != static_cast<int64_t>(c)) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input %zu has %lld elements, expected one per channel (%llu)", i,
                      static_cast<long long>(ctx.inputs[i].Numel()), static_cast<unsigned long long>(c));
    }
  }
  for (size_t i = firstOutput; i < ctx.outputs.size(); ++i) {
    if (ctx.outputs[i].Numel() != static_cast<int64_t>(c)) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output %zu has %lld elements, expected one per channel (%llu)", i,
                      static_cast<long long>(ctx.outputs[i].Numel()), static_cast<unsigned long long>(c));
    }
  }
  return ACL_SUCCESS;
}

// y = (x - mean) / sqrt(variance + eps) * scale + offset per channel: batch_norm_custom in evaluation mode.
aclError NormalizeWith(OpContext& ctx, const OpOperand& x, uint64_t n, uint64_t c, uint64_t l, double eps,
                       const void* scale, const void* offset, const void* mean, const void* variance, void* y) {
  kernels::BatchNormArgs args;
  args.dtype = x.dtype();
  args.n = n;
  args.c = c;
  args.l = l;
  args.training = false;
  args.eps = eps;
  args.x = x.data;
  args.weight = scale;
  args.bias = offset;
  args.runningMean = mean;
  args.runningVar = variance;
  args.y = y;
  return kernels::LaunchBatchNorm(args, ctx.stream());
}

aclError RunTrainingReduce(OpContext& ctx, size_t rank) {
  const OpOperand& x = ctx.inputs[0];
  uint64_t n = 0, c = 0, l = 0;
  aclError rc = BatchNormLayout(ctx, x, rank, &n, &c, &l);
  if (rc == ACL_SUCCESS) rc = RequireChannels(ctx, 1, 0, c);
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t numel = n * c * l;
  if (numel == 0) {  // sums of no elements
    rc = kernels::LaunchColumnSum(ACL_FLOAT, nullptr, ACL_FLOAT, ctx.outputs[0].data, 0, c, ctx.stream());
    if (rc != ACL_SUCCESS) return rc;
    return kernels::LaunchColumnSum(ACL_FLOAT, nullptr, ACL_FLOAT, ctx.outputs[1].data, 0, c, ctx.stream());
  }
  void *values = nullptr, *squares = nullptr, *rows = nullptr;
  if (x.dtype() == ACL_FLOAT) {
    values = x.data;
  } else {
    rc = Float32Copy(ctx, x.dtype(), x.data, numel, &values);
  }
  if (rc == ACL_SUCCESS) rc = Float32Temp(ctx, numel, &squares);
  if (rc == ACL_SUCCESS) rc = Float32Temp(ctx, n * c, &rows);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kMul, values, values, squares, numel);
  if (rc != ACL_SUCCESS) return rc;
  const void* sources[] = {values, squares};
  for (size_t i = 0; i < 2; ++i) {  // over the spatial positions, then over the batch
    rc = kernels::LaunchRowReduce(ACL_FLOAT, sources[i], ACL_FLOAT, rows, n * c, l, kernels::RowReduceOp::kSum,
                                  ctx.stream());
    if (rc == ACL_SUCCESS) {
      rc = kernels::LaunchColumnSum(ACL_FLOAT, rows, ACL_FLOAT, ctx.outputs[i].data, n, c, ctx.stream());
    }
    if (rc != ACL_SUCCESS) return rc;
  }
  return ACL_SUCCESS;
}

template <typename Attrs>
aclError RunTrainingUpdate(OpContext& ctx, const Attrs& attrs, size_t rank) {
  const OpOperand& x = ctx.inputs[0];
  uint64_t n = 0, c = 0, l = 0;
  aclError rc = BatchNormLayout(ctx, x, rank, &n, &c, &l);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(ctx.outputs[0], "y", x, "x");
  if (rc == ACL_SUCCESS) rc = RequireChannels(ctx, 1, 1, c);
  if (rc != ACL_SUCCESS) return rc;
  if (c == 0) return ACL_SUCCESS;
  const double count = static_cast<double>(n * l);
  void* const mean = ctx.outputs[3].data;
  void* const variance = ctx.outputs[4].data;
  void *meanSquared = nullptr, *kept = nullptr, *moved = nullptr;
  rc = Float32Temp(ctx, c, &meanSquared);
  if (rc == ACL_SUCCESS) rc = Float32Temp(ctx, c, &kept);
  if (rc == ACL_SUCCESS) rc = Float32Temp(ctx, c, &moved);
  // the statistics of no elements are NaN (0 / 0)
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kDivScalar, ctx.inputs[1].data, nullptr, mean, c, count);
  if (rc == ACL_SUCCESS) {
    rc = Float32Op(ctx, kernels::EwOp::kDivScalar, ctx.inputs[2].data, nullptr, variance, c, count);
  }
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kMul, mean, mean, meanSquared, c);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kSub, variance, meanSquared, variance, c, 1.0);
  // rounding may leave a constant channel's E[x^2] - E[x]^2 below zero
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kClampMinScalar, variance, nullptr, variance, c, 0.0);
  if (rc == ACL_SUCCESS && n * l > 0) {
    rc = NormalizeWith(ctx, x, n, c, l, attrs.epsilon, ctx.inputs[3].data, ctx.inputs[4].data, mean, variance,
                       ctx.outputs[0].data);
  }
  if (rc != ACL_SUCCESS) return rc;
  // running = running * (1 - factor) + batch * factor, the variance unbiased (m / (m - 1))
  const double factor = attrs.factor;
  const double unbiased = count / (count - 1.0);
  for (size_t i = 0; i < 2; ++i) {
    rc = Float32Op(ctx, kernels::EwOp::kMulScalar, ctx.inputs[5 + i].data, nullptr, kept, c, 1.0 - factor);
    if (rc == ACL_SUCCESS) {
      rc = Float32Op(ctx, kernels::EwOp::kMulScalar, i == 0 ? mean : variance, nullptr, moved, c,
                     i == 0 ? factor : factor * unbiased);
    }
    if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kAdd, kept, moved, ctx.outputs[1 + i].data, c);
    if (rc != ACL_SUCCESS) return rc;
  }
  return ACL_SUCCESS;
}

// invstd = 1 / sqrt(variance + eps) of c float32 elements, into a temporary.
aclError InvstdOf(OpContext& ctx, const void* variance, uint64_t c, double eps, void** invstd) {
  aclError rc = Float32Temp(ctx, c, invstd);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kAddScalar, variance, nullptr, *invstd, c, eps);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kRsqrt, *invstd, nullptr, *invstd, c);
  return rc;
}

// A float32 temporary of c elements holding `value`.
aclError Float32Filled(OpContext& ctx, uint64_t c, double value, void** out) {
  aclError rc = Float32Temp(ctx, c, out);
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchFill(ACL_FLOAT, *out, c, kernels::ScalarValue::Floating(value), ctx.stream());
  }
  return rc;
}

template <typename Attrs>
aclError RunTrainingUpdateGrad(OpContext& ctx, const Attrs& attrs, size_t rank) {
  const OpOperand& x = ctx.inputs[1];
  uint64_t n = 0, c = 0, l = 0;
  aclError rc = BatchNormLayout(ctx, x, rank, &n, &c, &l);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(ctx.inputs[0], "grads", x, "x");
  if (rc == ACL_SUCCESS) rc = RequireChannels(ctx, 2, 0, c);
  if (rc != ACL_SUCCESS || c == 0) return rc;
  if (n * l == 0) {  // sums of no elements
    for (size_t i = 0; i < 2 && rc == ACL_SUCCESS; ++i) {
      rc = kernels::LaunchColumnSum(ACL_FLOAT, nullptr, ACL_FLOAT, ctx.outputs[i].data, 0, c, ctx.stream());
    }
    return rc;
  }
  void* invstd = nullptr;
  if ((rc = InvstdOf(ctx, ctx.inputs[3].data, c, attrs.epsilon, &invstd)) != ACL_SUCCESS) return rc;
  kernels::BatchNormGradArgs args;
  args.dtype = x.dtype();
  args.n = n;
  args.c = c;
  args.l = l;
  args.training = true;
  args.eps = attrs.epsilon;
  args.dy = ctx.inputs[0].data;
  args.x = x.data;
  args.mean = ctx.inputs[2].data;
  args.invstdOrVar = invstd;
  args.dweight = ctx.outputs[0].data;
  args.dbias = ctx.outputs[1].data;
  return kernels::LaunchBatchNormGrad(args, ctx.stream());
}

template <typename Attrs>
aclError RunTrainingReduceGrad(OpContext& ctx, const Attrs& attrs, size_t rank) {
  const OpOperand& dy = ctx.inputs[0];
  const OpOperand& x = ctx.inputs[1];
  uint64_t n = 0, c = 0, l = 0;
  aclError rc = BatchNormLayout(ctx, x, rank, &n, &c, &l);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(dy, "grads", x, "x");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(ctx.outputs[0], "y", x, "x");
  if (rc == ACL_SUCCESS) rc = RequireChannels(ctx, 2, 1, c);
  const uint64_t numel = n * c * l;
  if (rc != ACL_SUCCESS || numel == 0) return rc;
  // y = dy * k + xhat * a + b per channel: k = scale * invstd, a = -k * diff_scale / m, b = -k * diff_offset / m
  const double m = static_cast<double>(n * l);
  void *invstd = nullptr, *k = nullptr, *a = nullptr, *b = nullptr, *zeros = nullptr, *ones = nullptr;
  void *fromDy = nullptr, *fromX = nullptr;
  rc = InvstdOf(ctx, ctx.inputs[6].data, c, attrs.epsilon, &invstd);
  if (rc == ACL_SUCCESS) rc = Float32Temp(ctx, c, &k);
  if (rc == ACL_SUCCESS) rc = Float32Temp(ctx, c, &a);
  if (rc == ACL_SUCCESS) rc = Float32Temp(ctx, c, &b);
  if (rc == ACL_SUCCESS) rc = Float32Filled(ctx, c, 0.0, &zeros);
  if (rc == ACL_SUCCESS) rc = Float32Filled(ctx, c, 1.0, &ones);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(numel * DataTypeSize(x.dtype()), &fromDy);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(numel * DataTypeSize(x.dtype()), &fromX);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kMul, ctx.inputs[4].data, invstd, k, c);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kMul, k, ctx.inputs[2].data, a, c);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kMulScalar, a, nullptr, a, c, -1.0 / m);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kMul, k, ctx.inputs[3].data, b, c);
  if (rc == ACL_SUCCESS) rc = Float32Op(ctx, kernels::EwOp::kMulScalar, b, nullptr, b, c, -1.0 / m);
  if (rc == ACL_SUCCESS) rc = NormalizeWith(ctx, dy, n, c, l, 0.0, k, zeros, zeros, ones, fromDy);
  if (rc == ACL_SUCCESS) {
    rc = NormalizeWith(ctx, x, n, c, l, attrs.epsilon, a, b, ctx.inputs[5].data, ctx.inputs[6].data, fromX);
  }
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(kernels::EwOp::kAdd, x.dtype(), fromDy, fromX, ctx.outputs[0].data, numel,
                                    kernels::ScalarValue::Floating(1.0), ctx.stream());
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

aclError RunBNTrainingReduce(OpContext& ctx, const BNTrainingReduceAttrs& /*attrs*/) { return RunTrainingReduce(ctx, 4); }

aclError RunBN3DTrainingReduce(OpContext& ctx, const BN3DTrainingReduceAttrs& /*attrs*/) {
  return RunTrainingReduce(ctx, 5);
}

aclError RunBNTrainingUpdate(OpContext& ctx, const BNTrainingUpdateAttrs& attrs) {
  return RunTrainingUpdate(ctx, attrs, 4);
}

aclError RunBN3DTrainingUpdate(OpContext& ctx, const BN3DTrainingUpdateAttrs& attrs) {
  return RunTrainingUpdate(ctx, attrs, 5);
}

aclError RunBNInfer(OpContext& ctx, const BNInferAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  uint64_t n = 0, c = 0, l = 0;
  aclError rc = BatchNormLayout(ctx, x, 4, &n, &c, &l);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(ctx.outputs[0], "y", x, "x");
  if (rc == ACL_SUCCESS) rc = RequireChannels(ctx, 1, 1, c);
  if (rc != ACL_SUCCESS || n * c * l == 0) return rc;
  return NormalizeWith(ctx, x, n, c, l, attrs.epsilon, ctx.inputs[1].data, ctx.inputs[2].data, ctx.inputs[3].data,
                       ctx.inputs[4].data, ctx.outputs[0].data);
}

aclError RunBNTrainingUpdateGrad(OpContext& ctx, const BNTrainingUpdateGradAttrs& attrs) {
  return RunTrainingUpdateGrad(ctx, attrs, 4);
}

aclError RunBN3DTrainingUpdateGrad(OpContext& ctx, const BN3DTrainingUpdateGradAttrs& attrs) {
  return RunTrainingUpdateGrad(ctx, attrs, 5);
}

aclError RunBNTrainingReduceGrad(OpContext& ctx, const BNTrainingReduceGradAttrs& attrs) {
  return RunTrainingReduceGrad(ctx, attrs, 4);
}

aclError RunBN3DTrainingReduceGrad(OpContext& ctx, const BN3DTrainingReduceGradAttrs& attrs) {
  return RunTrainingReduceGrad(ctx, attrs, 5);
}

aclError RunBNInferGrad(OpContext& ctx, const BNInferGradAttrs& attrs) {
  const OpOperand& dy = ctx.inputs[0];
  uint64_t n = 0, c = 0, l = 0;
  aclError rc = BatchNormLayout(ctx, dy, 4, &n, &c, &l);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(ctx.outputs[0], "x_backprop", dy, "grads");
  if (rc == ACL_SUCCESS) rc = RequireChannels(ctx, 1, 1, c);
  if (rc != ACL_SUCCESS || n * c * l == 0) return rc;
  void* zeros = nullptr;
  if ((rc = Float32Filled(ctx, c, 0.0, &zeros)) != ACL_SUCCESS) return rc;
  return NormalizeWith(ctx, dy, n, c, l, attrs.epsilon, ctx.inputs[1].data, zeros, zeros, ctx.inputs[2].data,
                       ctx.outputs[0].data);
}

}  // namespace aclop
}  // namespace ascendc_sim
