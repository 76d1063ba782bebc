// acl_op types MaskedScatter (compress_custom), ScatterNdUpdate and ScatterNdAdd (advanced_index_custom)
// and IndexFillD (the elementwise kernel's select), declared in abi/aclop/scatter.decl.
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

aclError RunScatterNd(OpContext& ctx, bool accumulate) {
  const OpOperand& var = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& updates = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(var, "input var", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& shape = var.shape();
  const std::vector<int64_t>& ishape = indices.shape();
  if (ishape.empty()) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input indices must have at least one dimension");
  const int64_t k = ishape.back();
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (k < 1 || k > rank) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "the last dimension of indices %s must be in [1, %lld] (var's rank)",
                    ShapeToString(ishape).c_str(), static_cast<long long>(rank));
  }
  std::vector<int64_t> batch(ishape.begin(), ishape.end() - 1);
  std::vector<int64_t> expected = batch;
  expected.insert(expected.end(), shape.begin() + k, shape.end());
  if (updates.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input updates has shape %s, expected %s (indices' batch, then var's "
                    "dimensions past %lld)", ShapeToString(updates.shape()).c_str(), ShapeToString(expected).c_str(),
                    static_cast<long long>(k));
  }
  if (expected.size() > static_cast<size_t>(kernels::kMaxViewDims)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "updates has %zu dimensions, at most %d are supported",
                    expected.size(), kernels::kMaxViewDims);
  }
  if ((rc = CopyUnlessSame(ctx, var, y)) != ACL_SUCCESS) return rc;
  int64_t rows = 1;
  for (int64_t d : batch) rows *= d;
  if (updates.Numel() == 0) return ACL_SUCCESS;
  const std::vector<int64_t> strides = DenseStrides(shape);
  kernels::AdvancedIndexArgs args;
  args.dtype = var.dtype();
  args.put = true;
  args.accumulate = accumulate;
  args.op = ctx.type().c_str();
  args.ndim = static_cast<int32_t>(expected.size());
  args.bStart = 0;
  args.bRank = static_cast<int32_t>(batch.size());
  args.count = static_cast<int32_t>(k);
  for (size_t d = 0; d < expected.size(); ++d) {
    args.shape[d] = expected[d];
    args.selfStrides[d] = d < batch.size() ? 0 : strides[static_cast<size_t>(k) + d - batch.size()];
  }
  // Column j of indices, as a dense int64 tensor of the batch shape.
  for (int64_t j = 0; j < k; ++j) {
    void* column = nullptr;
    if ((rc = ctx.AllocTemp(static_cast<size_t>(rows) * sizeof(int64_t), &column)) != ACL_SUCCESS) return rc;
    kernels::ViewCopyArgs copy;
    copy.ndim = 1;
    copy.shape[0] = rows;
    copy.src = {indices.data, indices.dtype(), j, {k}};
    copy.dst = {column, ACL_INT64, 0, {1}};
    if ((rc = kernels::LaunchViewCopy(copy, ctx.stream())) != ACL_SUCCESS) return rc;
    args.indices[j] = column;
    args.indexDim[j] = static_cast<int32_t>(j);
    args.indexDimSize[j] = shape[static_cast<size_t>(j)];
    args.indexSelfStride[j] = strides[static_cast<size_t>(j)];
  }
  args.self = y.data;
  args.values = updates.data;
  return kernels::LaunchAdvancedIndex(args, ctx.stream());
}

}  // namespace

aclError RunMaskedScatter(OpContext& ctx, const MaskedScatterAttrs&) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& mask = ctx.inputs[1];
  const OpOperand& updates = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  std::vector<int64_t> shape;
  if (!BroadcastShapes(mask.shape(), x.shape(), &shape) || shape != x.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "mask %s does not broadcast to x %s", ShapeToString(mask.shape()).c_str(),
                    ShapeToString(x.shape()).c_str());
  }
  if ((rc = CopyUnlessSame(ctx, x, y)) != ACL_SUCCESS) return rc;
  if (x.Numel() == 0) return ACL_SUCCESS;
  void* m = nullptr;
  if ((rc = ctx.BroadcastInput(1, shape, &m)) != ACL_SUCCESS) return rc;
  void* counts = nullptr;
  if ((rc = ctx.AllocTemp((kernels::kCompressMaxBlocks + 1) * sizeof(int64_t), &counts)) != ACL_SUCCESS) return rc;
  void* source = nullptr;  // never read when no mask element is true
  if ((rc = ctx.AllocTemp(DataTypeSize(x.dtype()), &source)) != ACL_SUCCESS) return rc;
  kernels::CompressArgs args;
  args.mode = kernels::CompressMode::kExpand;
  args.dtype = x.dtype();
  args.n = x.Numel();
  args.limit = updates.Numel();
  args.mask = m;
  args.values = updates.Numel() > 0 ? updates.data : source;
  args.out = y.data;
  args.counts = counts;
  args.op = "MaskedScatter";
  return kernels::LaunchCompress(args, ctx.stream());
}

aclError RunScatterNdUpdate(OpContext& ctx, const ScatterNdUpdateAttrs&) { return RunScatterNd(ctx, false); }

aclError RunScatterNdAdd(OpContext& ctx, const ScatterNdAddAttrs&) { return RunScatterNd(ctx, true); }

aclError RunIndexFillD(OpContext& ctx, const IndexFillDAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  const int64_t rank = static_cast<int64_t>(x.shape().size());
  const int64_t span = rank == 0 ? 1 : rank;
  if (attrs.dim < -span || attrs.dim >= span) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "dim %lld is out of range for a %lld-D x", static_cast<long long>(attrs.dim),
                    static_cast<long long>(rank));
  }
  aclError rc = ctx.RequireSameShape(x, "input x", ctx.inputs[1], "input assist1");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(x, "input x", ctx.inputs[2], "input assist2");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS || y.Numel() == 0) return rc;
  kernels::EwArgs args;
  args.op = kernels::EwOp::kWhere;
  args.dtype = x.dtype();
  args.x[0] = ctx.inputs[1].data;
  args.x[1] = x.data;
  args.x[2] = ctx.inputs[2].data;
  args.y = y.data;
  args.n = static_cast<uint64_t>(y.Numel());
  return kernels::LaunchElementwise(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
