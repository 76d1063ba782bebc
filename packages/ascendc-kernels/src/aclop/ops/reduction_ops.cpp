// acl_op reductions along one dimension (declared in abi/aclop/reduction.decl): ArgMaxV2, ArgMin,
// ArgMaxWithValue, ArgMinWithValue on reduce_dim_custom. x is copied with the dimension moved last
// and cast to the kernel's compute type; its int64 index and compute-type value are cast to the outputs.
#include <vector>

#include "aclop/declared_ops.h"
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
  const OpOperand& x = ctx.inputs[0];
  const std::vector<int64_t>& shape = x.shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t span = rank == 0 ? 1 : rank;
  if (dim < -span || dim >= span) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "dimension %lld is out of range for a %lld-D x",
                    static_cast<long long>(dim), static_cast<long long>(rank));
  }
  if (rank > static_cast<int64_t>(kernels::kMaxViewDims)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x has %lld dimensions; at most %d are supported",
                    static_cast<long long>(rank), kernels::kMaxViewDims);
  }
  const int64_t axis = rank == 0 ? -1 : (dim < 0 ? dim + rank : dim);
  std::vector<int64_t> expected;
  kernels::ViewCopyArgs permute;  // x with `axis` moved last
  int64_t stride = 1;
  std::vector<int64_t> strides(shape.size());
  for (int64_t k = rank; k-- > 0;) {
    strides[k] = stride;
    stride *= shape[k];
  }
  for (int64_t k = 0; k < rank; ++k) {
    if (k != axis) {
      expected.push_back(shape[k]);
      permute.shape[permute.ndim] = shape[k];
      permute.src.strides[permute.ndim++] = strides[k];
    } else if (keepDims) {
      expected.push_back(1);
    }
  }
  const int64_t cols = axis < 0 ? 1 : shape[axis];
  if (axis >= 0) {
    permute.shape[permute.ndim] = cols;
    permute.src.strides[permute.ndim++] = strides[axis];
  }
  for (const OpOperand* out : {&indices, values}) {
    if (out != nullptr && out->shape() != expected) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output of shape %s, expected %s", ShapeToString(out->shape()).c_str(),
                      ShapeToString(expected).c_str());
    }
  }
  const uint64_t rows = static_cast<uint64_t>(indices.Numel());
  if (rows == 0) return ACL_SUCCESS;
  if (cols == 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "cannot reduce over a dimension of size 0 (an extreme of no elements)");
  }
  const aclDataType compute = kernels::DimReduceComputeType(x.dtype());
  void* dense = nullptr;
  void* index = nullptr;
  void* value = nullptr;
  aclError rc = ctx.AllocTemp(rows * static_cast<uint64_t>(cols) * DataTypeSize(compute), &dense);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(rows * sizeof(int64_t), &index);
  if (rc == ACL_SUCCESS && values != nullptr) rc = ctx.AllocTemp(rows * DataTypeSize(compute), &value);
  if (rc != ACL_SUCCESS) return rc;
  if (permute.ndim == 0) {  // a 0-D x: one element
    permute.ndim = 1;
    permute.shape[0] = 1;
  }
  int64_t dstStride = 1;
  for (int32_t k = permute.ndim; k-- > 0;) {
    permute.dst.strides[k] = dstStride;
    dstStride *= permute.shape[k];
  }
  permute.src.data = x.data;
  permute.src.dtype = x.dtype();
  permute.dst.data = dense;
  permute.dst.dtype = compute;
  if ((rc = kernels::LaunchViewCopy(permute, ctx.stream())) != ACL_SUCCESS) return rc;
  kernels::DimReduceArgs args;
  args.op = op;
  args.dtype = compute;
  args.x = dense;
  args.y0 = value;
  args.y1 = index;
  args.rows = rows;
  args.cols = static_cast<uint64_t>(cols);
  if ((rc = kernels::LaunchDimReduce(args, ctx.stream())) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchCast(ACL_INT64, index, indices.dtype(), indices.data, rows, ctx.stream());
  if (rc != ACL_SUCCESS || values == nullptr) return rc;
  return kernels::LaunchCast(compute, value, values->dtype(), values->data, rows, ctx.stream());
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

}  // namespace aclop
}  // namespace ascendc_sim
