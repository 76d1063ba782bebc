// acl_op types GatherV2 (index_select_custom), EmbeddingDenseGrad (embedding_dense_backward_custom),
// GatherElements and ScatterElements (gather_scatter_custom), InplaceIndexAdd (index_add_custom), declared in
// abi/aclop/index.decl.
#include <string.h>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

aclError RunGatherV2(OpContext& ctx, const GatherV2Attrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& axisIn = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  if (attrs.batch_dims != 0) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "batch_dims %lld: only 0 is supported",
                    static_cast<long long>(attrs.batch_dims));
  }
  if (!axisIn.desc->isConst || axisIn.Numel() != 1) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "input axis must be a constant of one element");
  }
  int64_t axis = 0;
  if (axisIn.dtype() == ACL_INT32) {
    int32_t v;
    memcpy(&v, axisIn.desc->constData.data(), 4);
    axis = v;
  } else {
    memcpy(&axis, axisIn.desc->constData.data(), 8);
  }
  if (indices.shape().size() > 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input indices of shape %s must be 0-D or 1-D",
                    ShapeToString(indices.shape()).c_str());
  }
  const std::vector<int64_t>& shape = x.shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t span = rank == 0 ? 1 : rank;
  if (axis < -span || axis >= span) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "axis %lld is out of range for a %lld-D x", static_cast<long long>(axis),
                    static_cast<long long>(rank));
  }
  if (axis < 0) axis += span;
  std::vector<int64_t> expected = shape;
  kernels::IndexSelectArgs args;
  args.dtype = x.dtype();
  args.indexDtype = indices.dtype();
  args.count = indices.Numel();
  args.outer = 1;
  args.inner = 1;
  if (rank == 0) {
    args.dimSize = 1;
  } else {
    expected[static_cast<size_t>(axis)] = args.count;
    args.dimSize = shape[static_cast<size_t>(axis)];
    for (int64_t k = 0; k < axis; ++k) args.outer *= shape[static_cast<size_t>(k)];
    for (int64_t k = axis + 1; k < rank; ++k) args.inner *= shape[static_cast<size_t>(k)];
  }
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  args.x = x.data;
  args.index = indices.data;
  args.y = y.data;
  args.op = "GatherV2";
  return kernels::LaunchIndexSelect(args, ctx.stream());
}

// The kernel accumulates in float32: a float16/bfloat16 y is cast from a float32 temporary.
aclError RunEmbeddingDenseGrad(OpContext& ctx, const EmbeddingDenseGradAttrs& attrs) {
  const OpOperand& grad = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  if (grad.shape().empty()) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input grad must have at least one dimension");
  if (attrs.num_weights < 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "num_weights %lld must be non-negative",
                    static_cast<long long>(attrs.num_weights));
  }
  const int64_t dim = grad.shape().back();
  const int64_t n = indices.Numel();
  if (grad.Numel() != n * dim) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input grad %s does not hold one row of %lld per index of %s",
                    ShapeToString(grad.shape()).c_str(), static_cast<long long>(dim),
                    ShapeToString(indices.shape()).c_str());
  }
  const std::vector<int64_t> expected = {attrs.num_weights, dim};
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  const uint64_t total = static_cast<uint64_t>(y.Numel());
  if (total == 0) return ACL_SUCCESS;
  kernels::EmbeddingBackwardArgs args;
  args.dtype = grad.dtype();
  args.indexDtype = indices.dtype();
  args.numIndices = n;
  args.numWeights = attrs.num_weights;
  args.dim = dim;
  args.paddingIdx = attrs.padding_idx;
  args.scaleGradByFreq = attrs.scale_grad_by_freq;
  args.grad = grad.data;
  args.indices = indices.data;
  aclError rc = ACL_SUCCESS;
  if (attrs.scale_grad_by_freq) {
    rc = ctx.AllocTemp(static_cast<size_t>(attrs.num_weights) * sizeof(float), &args.counts);
    if (rc != ACL_SUCCESS) return rc;
  }
  void* acc = y.data;
  if (y.dtype() != ACL_FLOAT) {
    rc = ctx.AllocTemp(total * sizeof(float), &acc);
    if (rc != ACL_SUCCESS) return rc;
  }
  args.gradWeight = acc;
  rc = kernels::LaunchEmbeddingDenseBackward(args, ctx.stream());
  if (rc != ACL_SUCCESS || acc == y.data) return rc;
  return kernels::LaunchCast(ACL_FLOAT, acc, y.dtype(), y.data, total, ctx.stream());
}

namespace {

std::vector<int64_t> AtLeast1d(const std::vector<int64_t>& d) { return d.empty() ? std::vector<int64_t>{1} : d; }

// `dim` wrapped for `rank` dimensions (a 0-D tensor has one).
aclError WrapDim(OpContext& ctx, const char* name, int64_t* dim, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank == 0 ? 1 : rank);
  if (*dim < -r || *dim >= r) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %lld is out of range for %zu dimensions", name,
                    static_cast<long long>(*dim), rank);
  }
  if (*dim < 0) *dim += r;
  return ACL_SUCCESS;
}

// index fits `other` (same rank; no larger size, except along dim when skipDim).
aclError CheckIndexFits(OpContext& ctx, const std::vector<int64_t>& index, const std::vector<int64_t>& other,
                        const char* otherName, int64_t dim, bool skipDim) {
  bool ok = index.size() == other.size() && index.size() <= static_cast<size_t>(kernels::kMaxGatherDims);
  for (size_t d = 0; ok && d < index.size(); ++d) {
    if (skipDim && static_cast<int64_t>(d) == dim) continue;
    ok = index[d] <= other[d];
  }
  if (ok) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_INVALID_PARAM, "indices %s do not fit %s %s (same rank, no larger size%s)",
                  ShapeToString(index).c_str(), otherName, ShapeToString(other).c_str(),
                  skipDim ? " outside the dimension" : "");
}

void FillShape(int64_t* to, const std::vector<int64_t>& from) {
  for (size_t d = 0; d < from.size(); ++d) to[d] = from[d];
}

}  // namespace

aclError RunGatherElements(OpContext& ctx, const GatherElementsAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  int64_t dim = attrs.dim;
  aclError rc = WrapDim(ctx, "dim", &dim, x.shape().size());
  if (rc != ACL_SUCCESS) return rc;
  if ((rc = ctx.RequireSameShape(indices, "input indices", y, "output y")) != ACL_SUCCESS) return rc;
  const std::vector<int64_t> selfShape = AtLeast1d(x.shape()), indexShape = AtLeast1d(indices.shape());
  if ((rc = CheckIndexFits(ctx, indexShape, selfShape, "x", dim, true)) != ACL_SUCCESS) return rc;
  if (y.Numel() == 0) return ACL_SUCCESS;
  kernels::GatherScatterArgs args;
  args.mode = kernels::GatherScatterMode::kGather;
  args.dtype = x.dtype();
  args.indexDtype = indices.dtype();
  args.ndim = static_cast<int32_t>(selfShape.size());
  args.dim = static_cast<int32_t>(dim);
  FillShape(args.indexShape, indexShape);
  FillShape(args.selfShape, selfShape);
  FillShape(args.srcShape, indexShape);
  args.self = x.data;
  args.index = indices.data;
  args.out = y.data;
  args.op = "GatherElements";
  return kernels::LaunchGatherScatter(args, ctx.stream());
}

aclError RunScatterElements(OpContext& ctx, const ScatterElementsAttrs& attrs) {
  const OpOperand& data = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& updates = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  if (attrs.reduction != "none" && attrs.reduction != "add") {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "reduction is '%s'; expected 'none' or 'add'", attrs.reduction.c_str());
  }
  int64_t axis = attrs.axis;
  aclError rc = WrapDim(ctx, "axis", &axis, data.shape().size());
  if (rc != ACL_SUCCESS) return rc;
  if ((rc = ctx.RequireSameShape(data, "input data", y, "output y")) != ACL_SUCCESS) return rc;
  const bool value = updates.desc->isConst && updates.Numel() == 1;
  const std::vector<int64_t> selfShape = AtLeast1d(data.shape()), indexShape = AtLeast1d(indices.shape());
  const std::vector<int64_t> srcShape = value ? indexShape : AtLeast1d(updates.shape());
  if ((rc = CheckIndexFits(ctx, indexShape, selfShape, "data", axis, true)) != ACL_SUCCESS) return rc;
  if ((rc = CheckIndexFits(ctx, indexShape, srcShape, "updates", axis, false)) != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  if (n == 0) return ACL_SUCCESS;
  if (y.data != data.data) {  // y starts as a copy of data
    rc = kernels::LaunchCast(data.dtype(), data.data, y.dtype(), y.data, n, ctx.stream());
    if (rc != ACL_SUCCESS) return rc;
  }
  if (indices.Numel() == 0) return ACL_SUCCESS;
  kernels::GatherScatterArgs args;
  if (value) {
    if (attrs.reduction == "add") {
      return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "reduction 'add' of a constant value is not supported");
    }
    args.mode = kernels::GatherScatterMode::kScatterValue;
    if ((rc = ConstantScalarInput(ctx, 2, "updates", &args.value)) != ACL_SUCCESS) return rc;
  } else {
    args.mode = attrs.reduction == "add" ? kernels::GatherScatterMode::kScatterAdd : kernels::GatherScatterMode::kScatter;
    args.src = updates.data;
  }
  args.dtype = data.dtype();
  args.indexDtype = indices.dtype();
  args.ndim = static_cast<int32_t>(selfShape.size());
  args.dim = static_cast<int32_t>(axis);
  FillShape(args.indexShape, indexShape);
  FillShape(args.selfShape, selfShape);
  FillShape(args.srcShape, srcShape);
  args.self = y.data;
  args.index = indices.data;
  args.op = "ScatterElements";
  return kernels::LaunchGatherScatter(args, ctx.stream());
}

aclError RunInplaceIndexAdd(OpContext& ctx, const InplaceIndexAddAttrs& attrs) {
  const OpOperand& var = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& updates = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  kernels::IndexAddArgs args;
  aclError rc = ConstantScalarInput(ctx, 3, "alpha", &args.alpha);
  if (rc != ACL_SUCCESS) return rc;
  int64_t axis = attrs.axis;
  if ((rc = WrapDim(ctx, "axis", &axis, var.shape().size())) != ACL_SUCCESS) return rc;
  if ((rc = ctx.RequireSameShape(var, "input var", y, "output y")) != ACL_SUCCESS) return rc;
  if (indices.shape().size() > 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input indices of shape %s must be 0-D or 1-D",
                    ShapeToString(indices.shape()).c_str());
  }
  const std::vector<int64_t> shape = AtLeast1d(var.shape());
  std::vector<int64_t> expected = shape;
  expected[static_cast<size_t>(axis)] = indices.Numel();
  if (AtLeast1d(updates.shape()) != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input updates has shape %s, expected %s",
                    ShapeToString(updates.shape()).c_str(), ShapeToString(expected).c_str());
  }
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  if (n == 0) return ACL_SUCCESS;
  if (y.data != var.data) {
    rc = kernels::LaunchCast(var.dtype(), var.data, y.dtype(), y.data, n, ctx.stream());
    if (rc != ACL_SUCCESS) return rc;
  }
  if (indices.Numel() == 0) return ACL_SUCCESS;
  args.dtype = var.dtype();
  args.indexDtype = indices.dtype();
  args.outer = 1;
  args.inner = 1;
  for (int64_t k = 0; k < axis; ++k) args.outer *= shape[static_cast<size_t>(k)];
  for (size_t k = static_cast<size_t>(axis) + 1; k < shape.size(); ++k) args.inner *= shape[k];
  args.dimSize = shape[static_cast<size_t>(axis)];
  args.count = indices.Numel();
  args.self = y.data;
  args.index = indices.data;
  args.source = updates.data;
  return kernels::LaunchIndexAdd(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
