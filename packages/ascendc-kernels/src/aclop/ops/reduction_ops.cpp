// acl_op reductions and scans (declared in abi/aclop/reduction.decl): ArgMaxV2, ArgMin, ArgMaxWithValue,
// ArgMinWithValue, ReduceProd, TensorEqual and Trace on reduce_dim_custom, Cumsum and Cumprod on the scan
// kernel. x is copied with the reduced dimensions moved last and cast to the kernel's compute type; the
// int64 indices and compute-type values are cast to the outputs (a scan's copied back to x's layout).
#include <algorithm>
#include <utility>
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/dim_last.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "kernels/reduce_dim_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

using kernels::DimReduceOp;

// indices (and values, when not null) <- the arg-extreme `op` of input 0 along `dim`.
aclError RunArgExtreme(OpContext& ctx, DimReduceOp op, int64_t dim, bool keepDims, const OpOperand& indices,
                       const OpOperand* values) {
  DimLast plan;
  aclError rc = PlanDimLast(ctx, dim, keepDims, &plan);
  if (rc != ACL_SUCCESS) return rc;
  for (const OpOperand* out : {&indices, values}) {
    if (out != nullptr && out->shape() != plan.expected) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output of shape %s, expected %s", ShapeToString(out->shape()).c_str(),
                      ShapeToString(plan.expected).c_str());
    }
  }
  if (plan.rows == 0) return ACL_SUCCESS;
  if (plan.cols == 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "cannot reduce over a dimension of size 0 (an extreme of no elements)");
  }
  const aclDataType compute = kernels::DimReduceComputeType(ctx.inputs[0].dtype());
  void* dense = nullptr;
  void* index = nullptr;
  void* value = nullptr;
  rc = CopyDimLast(ctx, plan, ctx.inputs[0], compute, &dense);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(plan.rows * sizeof(int64_t), &index);
  if (rc == ACL_SUCCESS && values != nullptr) rc = ctx.AllocTemp(plan.rows * DataTypeSize(compute), &value);
  if (rc != ACL_SUCCESS) return rc;
  kernels::DimReduceArgs args;
  args.op = op;
  args.dtype = compute;
  args.x = dense;
  args.y0 = value;
  args.y1 = index;
  args.rows = plan.rows;
  args.cols = plan.cols;
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchCast(ACL_INT64, index, indices.dtype(), indices.data, plan.rows, ctx.stream());
  if (rc != ACL_SUCCESS || values == nullptr) return rc;
  return kernels::LaunchCast(compute, value, values->dtype(), values->data, plan.rows, ctx.stream());
}

// y <- the product of x over the constant (or host) input axes, in the kernel's compute type for y.
aclError RunProduct(OpContext& ctx, bool keepDims) {
  const OpOperand& y = ctx.outputs[0];
  std::vector<bool> reduced;
  aclError rc = ReducedAxes(ctx, &reduced);
  if (rc != ACL_SUCCESS) return rc;
  DimLast plan;
  if ((rc = PlanReducedLast(ctx, reduced, keepDims, &plan)) != ACL_SUCCESS) return rc;
  if (y.shape() != plan.expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(plan.expected).c_str());
  }
  if (plan.rows == 0) return ACL_SUCCESS;
  const aclDataType compute = kernels::DimReduceComputeType(y.dtype());
  void* dense = nullptr;
  void* product = nullptr;
  if (plan.cols > 0) rc = CopyDimLast(ctx, plan, ctx.inputs[0], compute, &dense);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(plan.rows * DataTypeSize(compute), &product);
  if (rc != ACL_SUCCESS) return rc;
  kernels::DimReduceArgs args;
  args.op = DimReduceOp::kProd;
  args.dtype = compute;
  args.x = dense;  // none for a product of no elements (1)
  args.y0 = product;
  args.rows = plan.rows;
  args.cols = plan.cols;
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(compute, product, y.dtype(), y.data, plan.rows, ctx.stream());
}

// y <- the inclusive scan `op` of x along the constant (or host) input axis; exclusive and reverse
// scans are not simulated.
aclError RunScan(OpContext& ctx, kernels::ScanOp op, bool exclusive, bool reverse) {
  if (exclusive || reverse) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "only inclusive forward scans are supported (exclusive %d, "
                    "reverse %d)", exclusive ? 1 : 0, reverse ? 1 : 0);
  }
  const OpOperand& y = ctx.outputs[0];
  std::vector<int64_t> axis;
  aclError rc = ConstantInts(ctx, 1, "axis", &axis);
  if (rc != ACL_SUCCESS) return rc;
  if (axis.size() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input axis must hold one value, got %zu", axis.size());
  }
  DimLast plan;
  if ((rc = PlanDimLast(ctx, axis[0], true, &plan)) != ACL_SUCCESS) return rc;
  if (y.shape() != ctx.inputs[0].shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected x's %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(ctx.inputs[0].shape()).c_str());
  }
  if (plan.rows * plan.cols == 0) return ACL_SUCCESS;
  const aclDataType compute = kernels::DimReduceComputeType(y.dtype());
  void* dense = nullptr;
  void* scanned = nullptr;
  rc = CopyDimLast(ctx, plan, ctx.inputs[0], compute, &dense);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(plan.rows * plan.cols * DataTypeSize(compute), &scanned);
  if (rc != ACL_SUCCESS) return rc;
  kernels::ScanArgs args;
  args.op = op;
  args.dtype = compute;
  args.x = dense;
  args.y = scanned;
  args.rows = plan.rows;
  args.cols = plan.cols;
  if ((rc = kernels::LaunchScan(args, ctx.stream())) != ACL_SUCCESS) return rc;
  kernels::ViewCopyArgs back = plan.view;  // rows x cols back to x's layout, in y's dtype
  for (int32_t k = 0; k < back.ndim; ++k) std::swap(back.src.strides[k], back.dst.strides[k]);
  back.src.data = scanned;
  back.src.dtype = compute;
  back.dst.data = y.data;
  back.dst.dtype = y.dtype();
  return kernels::LaunchViewCopy(back, ctx.stream());
}

// The one value of the constant (or host) input dimension.
aclError DimensionInput(OpContext& ctx, int64_t* dim) {
  std::vector<int64_t> values;
  const aclError rc = ConstantInts(ctx, 1, "dimension", &values);
  if (rc != ACL_SUCCESS) return rc;
  if (values.size() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input dimension must hold one value, got %zu", values.size());
  }
  *dim = values[0];
  return ACL_SUCCESS;
}

}  // namespace

aclError RunArgMaxV2(OpContext& ctx, const ArgMaxV2Attrs& attrs) {
  int64_t dim = 0;
  const aclError rc = DimensionInput(ctx, &dim);
  if (rc != ACL_SUCCESS) return rc;
  return RunArgExtreme(ctx, DimReduceOp::kArgMax, dim, attrs.keep_dims, ctx.outputs[0], nullptr);
}

aclError RunArgMin(OpContext& ctx, const ArgMinAttrs& attrs) {
  int64_t dim = 0;
  const aclError rc = DimensionInput(ctx, &dim);
  if (rc != ACL_SUCCESS) return rc;
  return RunArgExtreme(ctx, DimReduceOp::kArgMin, dim, attrs.keep_dims, ctx.outputs[0], nullptr);
}

aclError RunArgMaxWithValue(OpContext& ctx, const ArgMaxWithValueAttrs& attrs) {
  return RunArgExtreme(ctx, DimReduceOp::kArgMax, attrs.dimension, attrs.keep_dims, ctx.outputs[0], &ctx.outputs[1]);
}

aclError RunArgMinWithValue(OpContext& ctx, const ArgMinWithValueAttrs& attrs) {
  return RunArgExtreme(ctx, DimReduceOp::kArgMin, attrs.dimension, attrs.keep_dims, ctx.outputs[0], &ctx.outputs[1]);
}

aclError RunCumsum(OpContext& ctx, const CumsumAttrs& attrs) {
  return RunScan(ctx, kernels::ScanOp::kCumSum, attrs.exclusive, attrs.reverse);
}

aclError RunCumprod(OpContext& ctx, const CumprodAttrs& attrs) {
  return RunScan(ctx, kernels::ScanOp::kCumProd, attrs.exclusive, attrs.reverse);
}

aclError RunReduceProd(OpContext& ctx, const ReduceProdAttrs& attrs) { return RunProduct(ctx, attrs.keep_dims); }

// x1 and x2 compared elementwise in the kernel's compute type; another shape is false, no elements true.
aclError RunTensorEqual(OpContext& ctx, const TensorEqualAttrs&) {
  const OpOperand& x1 = ctx.inputs[0];
  const OpOperand& x2 = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  if (y.Numel() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y must hold one element, it has shape %s",
                    ShapeToString(y.shape()).c_str());
  }
  const uint64_t n = static_cast<uint64_t>(x1.Numel());
  if (x1.shape() != x2.shape() || n == 0) {
    const int64_t same = x1.shape() == x2.shape() ? 1 : 0;
    return kernels::LaunchFill(y.dtype(), y.data, 1, kernels::ScalarValue::Integral(same), ctx.stream());
  }
  const aclDataType compute = kernels::DimReduceComputeType(x1.dtype());
  void* a = nullptr;
  void* b = nullptr;
  void* flag = nullptr;
  aclError rc = ctx.AllocTemp(n * DataTypeSize(compute), &a);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(n * DataTypeSize(compute), &b);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(sizeof(int64_t), &flag);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(x1.dtype(), x1.data, compute, a, n, ctx.stream());
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(x2.dtype(), x2.data, compute, b, n, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  kernels::DimReduceArgs args;
  args.op = DimReduceOp::kEqual;
  args.dtype = compute;
  args.x = a;
  args.x2 = b;
  args.y0 = flag;
  args.rows = 1;
  args.cols = n;
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(ACL_INT64, flag, y.dtype(), y.data, 1, ctx.stream());
}

// The diagonal of the 2-D x copied out (a view with stride cols + 1), then summed by the row kernel.
aclError RunTrace(OpContext& ctx, const TraceAttrs&) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  if (x.shape().size() != 2 || !y.shape().empty()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x must be 2-D and output y 0-D, got %s and %s",
                    ShapeToString(x.shape()).c_str(), ShapeToString(y.shape()).c_str());
  }
  const int64_t n = std::min(x.shape()[0], x.shape()[1]);
  const aclDataType compute = kernels::DimReduceComputeType(y.dtype());
  void* diagonal = nullptr;
  void* sum = nullptr;
  aclError rc = ctx.AllocTemp(static_cast<uint64_t>(std::max<int64_t>(n, 1)) * DataTypeSize(compute), &diagonal);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(DataTypeSize(compute), &sum);
  if (rc != ACL_SUCCESS) return rc;
  if (n > 0) {
    kernels::ViewCopyArgs v;
    v.ndim = 1;
    v.shape[0] = n;
    v.src = {x.data, x.dtype(), 0, {x.shape()[1] + 1}};
    v.dst = {diagonal, compute, 0, {1}};
    if ((rc = kernels::LaunchViewCopy(v, ctx.stream())) != ACL_SUCCESS) return rc;
  }
  kernels::DimReduceArgs args;
  args.op = DimReduceOp::kSum;
  args.dtype = compute;
  args.x = n > 0 ? diagonal : nullptr;
  args.y0 = sum;
  args.rows = 1;
  args.cols = static_cast<uint64_t>(n);
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(compute, sum, y.dtype(), y.data, 1, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
