// acl_op reductions ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceAll, ReduceAny (declared in
// abi/aclop/reduce.decl, which checks their dtypes and reads keep_dims). The axes are a constant (or host)
// input. float32/float16/bfloat16 run on reduce_custom (x permuted so that the reduced dimensions are the
// trailing ones, then one row per kept multi-index; a sum or mean over dimensions followed by kept ones on
// column_sum_custom, which reads x in place); other dtypes, and all() / any(), on reduce_exact_custom,
// which reads x's permuted view in place and accumulates in int64 or double, cast to y's dtype afterwards.
#include <math.h>
#include <string.h>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

using kernels::RowReduceOp;

bool IsVectorFloat(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }

aclError RunReduce(OpContext& ctx, RowReduceOp op, bool keepDims, bool noneIsFalse = false) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  std::vector<bool> reduced;
  aclError rc = ReducedAxes(ctx, &reduced);
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& shape = x.shape();
  const size_t rank = shape.size();
  if (rank > static_cast<size_t>(kernels::kMaxViewDims)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x has %zu dimensions; at most %d are supported", rank,
                    kernels::kMaxViewDims);
  }
  // Contiguous strides of x; the kept dimensions first, then the reduced ones.
  std::vector<int64_t> strides(rank, 1);
  for (size_t k = rank; k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  std::vector<int64_t> expected;
  kernels::StridedRows layout;
  uint64_t rows = 1, cols = 1;
  for (size_t k = 0; k < rank; ++k) {
    if (!reduced[k]) {
      expected.push_back(shape[k]);
      layout.keptSizes[layout.keptDims] = shape[k];
      layout.keptStrides[layout.keptDims++] = strides[k];
      rows *= static_cast<uint64_t>(shape[k]);
    } else {
      if (keepDims) expected.push_back(1);
      layout.reducedSizes[layout.reducedDims] = shape[k];
      layout.reducedStrides[layout.reducedDims++] = strides[k];
      cols *= static_cast<uint64_t>(shape[k]);
    }
  }
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  if (rows == 0) return ACL_SUCCESS;
  if (cols == 0) {
    if ((op == RowReduceOp::kMax || op == RowReduceOp::kMin) && !noneIsFalse) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "cannot reduce over a dimension of size 0 (the %s of no elements)",
                      op == RowReduceOp::kMax ? "maximum" : "minimum");
    }
    const double empty = op == RowReduceOp::kMean ? NAN : op == RowReduceOp::kAll ? 1.0 : 0.0;  // any: 0
    return kernels::LaunchFill(y.dtype(), y.data, rows, kernels::ScalarValue::Floating(empty), ctx.stream());
  }
  kernels::ColumnReduceShape columns;
  if (IsVectorFloat(x.dtype()) && (op == RowReduceOp::kSum || op == RowReduceOp::kMean) &&
      kernels::ColumnReduceShapeOf(shape, reduced, &columns)) {
    return kernels::LaunchColumnReduce(x.dtype(), x.data, y.dtype(), y.data, columns.batch, columns.rows,
                                       columns.cols, op, ctx.stream());
  }
  if (IsVectorFloat(x.dtype()) && op != RowReduceOp::kAll) {
    void* dense = x.data;
    bool trailing = true;  // the reduced dimensions already are the last ones
    for (size_t k = 1; k < rank; ++k) trailing = trailing && !(reduced[k - 1] && !reduced[k]);
    if (!trailing) {
      kernels::ViewCopyArgs args;
      args.ndim = static_cast<int32_t>(rank);
      int32_t i = 0;
      for (int32_t k = 0; k < layout.keptDims; ++k, ++i) {
        args.shape[i] = layout.keptSizes[k];
        args.src.strides[i] = layout.keptStrides[k];
      }
      for (int32_t k = 0; k < layout.reducedDims; ++k, ++i) {
        args.shape[i] = layout.reducedSizes[k];
        args.src.strides[i] = layout.reducedStrides[k];
      }
      int64_t stride = 1;
      for (int32_t k = args.ndim; k-- > 0;) {
        args.dst.strides[k] = stride;
        stride *= args.shape[k];
      }
      rc = ctx.AllocTemp(rows * cols * DataTypeSize(x.dtype()), &dense);
      if (rc != ACL_SUCCESS) return rc;
      args.src.data = x.data;
      args.src.dtype = x.dtype();
      args.dst.data = dense;
      args.dst.dtype = x.dtype();
      if ((rc = kernels::LaunchViewCopy(args, ctx.stream())) != ACL_SUCCESS) return rc;
    }
    return kernels::LaunchRowReduce(x.dtype(), dense, y.dtype(), y.data, rows, cols, op, ctx.stream());
  }
  // Exact: x read in place through the permuted layout, the int64/double accumulator cast to y's dtype.
  if (layout.reducedDims == 0) {  // a 0-D x: one row of one element
    layout.reducedSizes[0] = 1;
    layout.reducedStrides[0] = 1;
    layout.reducedDims = 1;
  }
  const aclDataType acc = kernels::ExactReduceAccType(x.dtype(), op);
  void* accData = y.data;
  if (acc != y.dtype()) {
    rc = ctx.AllocTemp(rows * DataTypeSize(acc), &accData);
    if (rc != ACL_SUCCESS) return rc;
  }
  rc = kernels::LaunchStridedReduceExact(x.dtype(), x.data, layout, accData, op, ctx.stream());
  if (rc != ACL_SUCCESS || accData == y.data) return rc;
  return kernels::LaunchCast(acc, accData, y.dtype(), y.data, rows, ctx.stream());
}

}  // namespace

aclError RunReduceSum(OpContext& ctx, const ReduceSumAttrs& attrs) {
  return RunReduce(ctx, RowReduceOp::kSum, attrs.keep_dims);
}
aclError RunReduceMean(OpContext& ctx, const ReduceMeanAttrs& attrs) {
  return RunReduce(ctx, RowReduceOp::kMean, attrs.keep_dims);
}
aclError RunReduceMax(OpContext& ctx, const ReduceMaxAttrs& attrs) {
  return RunReduce(ctx, RowReduceOp::kMax, attrs.keep_dims);
}
aclError RunReduceMin(OpContext& ctx, const ReduceMinAttrs& attrs) {
  return RunReduce(ctx, RowReduceOp::kMin, attrs.keep_dims);
}
aclError RunReduceAll(OpContext& ctx, const ReduceAllAttrs& attrs) {
  return RunReduce(ctx, RowReduceOp::kAll, attrs.keep_dims);
}
// any over bool is the maximum, false over no elements.
aclError RunReduceAny(OpContext& ctx, const ReduceAnyAttrs& attrs) {
  return RunReduce(ctx, RowReduceOp::kMax, attrs.keep_dims, /*noneIsFalse=*/true);
}

}  // namespace aclop
}  // namespace ascendc_sim
