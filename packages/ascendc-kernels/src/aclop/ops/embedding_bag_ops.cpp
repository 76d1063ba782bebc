// acl_op type EmbeddingBag (declared in abi/aclop/embedding_bag.decl) on embedding_bag_bounds_custom +
// embedding_bag_custom, the kernels of aclnnEmbeddingBag.
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

aclError RequireShape(OpContext& ctx, const OpOperand& t, const char* name, const std::vector<int64_t>& shape) {
  if (t.shape() != shape) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, expected %s", name, ShapeToString(t.shape()).c_str(),
                    ShapeToString(shape).c_str());
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError RunEmbeddingBag(OpContext& ctx, const EmbeddingBagAttrs& attrs) {
  const OpOperand& weight = ctx.inputs[0];
  const OpOperand& indices = ctx.inputs[1];
  const OpOperand& offsets = ctx.inputs[2];
  const bool hasPsw = ctx.inputs.size() > 3;
  const int64_t mode = attrs.mode == "sum" ? 0 : attrs.mode == "mean" ? 1 : attrs.mode == "max" ? 2 : -1;
  if (mode < 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "mode \"%s\" is not sum, mean or max", attrs.mode.c_str());
  if (weight.shape().size() != 2 || indices.shape().size() != 1 || offsets.shape().size() != 1) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "weight %s must be 2-D, indices %s and offsets %s 1-D",
                    ShapeToString(weight.shape()).c_str(), ShapeToString(indices.shape()).c_str(),
                    ShapeToString(offsets.shape()).c_str());
  }
  const int64_t numIndices = indices.shape()[0], numOffsets = offsets.shape()[0], dim = weight.shape()[1];
  if (attrs.include_last_offset && numOffsets < 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "include_last_offset needs at least one offset");
  }
  const int64_t numBags = numOffsets - (attrs.include_last_offset ? 1 : 0);
  aclError rc = ACL_SUCCESS;
  if (hasPsw && mode != 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "per_sample_weights are only supported with mode sum");
  }
  if (hasPsw && (rc = RequireShape(ctx, ctx.inputs[3], "per_sample_weights", {numIndices})) != ACL_SUCCESS) return rc;
  if ((rc = RequireShape(ctx, ctx.outputs[0], "y", {numBags, dim})) != ACL_SUCCESS) return rc;
  const OpOperand& bagSize = ctx.outputs[2];
  const OpOperand& maxIndices = ctx.outputs[3];
  if (mode != 0 && (rc = RequireShape(ctx, bagSize, "bag_size", {numBags})) != ACL_SUCCESS) return rc;
  const std::vector<int64_t> maxShape = mode == 2 ? std::vector<int64_t>{numBags, dim} : bagSize.shape();
  if ((rc = RequireShape(ctx, maxIndices, "max_indices", maxShape)) != ACL_SUCCESS) return rc;
  kernels::EmbeddingBagArgs args;
  args.dtype = weight.dtype();
  args.indexDtype = indices.dtype();
  args.numIndices = numIndices;
  args.numWeights = weight.shape()[0];
  args.dim = dim;
  args.numBags = numBags;
  args.numOffsets = numOffsets;
  args.bagSizeCount = bagSize.Numel();
  args.mode = mode;
  args.paddingIdx = attrs.padding_idx;
  args.weight = weight.data;
  args.indices = indices.data;
  args.offsets = offsets.data;
  args.perSampleWeights = hasPsw ? ctx.inputs[3].data : nullptr;
  args.output = ctx.outputs[0].data;
  args.offset2bag = ctx.outputs[1].Numel() == numIndices ? ctx.outputs[1].data : nullptr;
  args.bagSize = bagSize.Numel() > 0 ? bagSize.data : nullptr;
  args.maxIndices = maxIndices.Numel() > 0 ? maxIndices.data : nullptr;
  if ((rc = ctx.AllocTemp(static_cast<size_t>(numBags + 1) * sizeof(int64_t), &args.starts)) != ACL_SUCCESS) return rc;
  return kernels::LaunchEmbeddingBag(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
