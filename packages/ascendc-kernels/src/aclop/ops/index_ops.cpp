// acl_op types GatherV2 (index_select_custom) and EmbeddingDenseGrad (embedding_dense_backward_custom),
// declared in abi/aclop/index.decl.
#include <string.h>

#include "aclop/declared_ops.h"
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

}  // namespace aclop
}  // namespace ascendc_sim
