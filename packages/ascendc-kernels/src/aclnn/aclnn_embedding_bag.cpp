// aclnnEmbeddingBag: torch's _embedding_bag forward on embedding_bag_bounds_custom + embedding_bag_custom.
#include "aclnnop/aclnn_embedding_bag.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::DataTypeName;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;

namespace {

const std::initializer_list<aclDataType> kWeightDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::initializer_list<aclDataType> kIndexDtypes = {ACL_INT32, ACL_INT64};

aclnnStatus RequireShape(const char* api, const aclTensor* t, const char* name, const std::vector<int64_t>& shape) {
  if (t->viewDims != shape) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, name,
                      ShapeToString(t->viewDims).c_str(), ShapeToString(shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus RequireDtype(const char* api, const aclTensor* t, const char* name, aclDataType dtype, const char* of) {
  if (t->dtype != dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, expected %s's %s", api, name,
                      DataTypeName(t->dtype), of, DataTypeName(dtype));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnEmbeddingBagGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                              const aclTensor* offsets, bool scaleGradByFreq, int64_t mode,
                                              bool sparse, const aclTensor* perSampleWeights, bool includeLastOffset,
                                              int64_t paddingIdx, aclTensor* output, aclTensor* offset2bag,
                                              aclTensor* bagSize, aclTensor* maxIndices, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  (void)scaleGradByFreq;
  (void)sparse;
  const char* api = "aclnnEmbeddingBag";
  aclnnStatus rc;
  const aclTensor* required[] = {weight, indices, offsets, output, offset2bag, bagSize, maxIndices};
  const char* names[] = {"weight", "indices", "offsets", "output", "offset2bag", "bagSize", "maxIndices"};
  for (size_t i = 0; i < 7; ++i) {
    if ((rc = CheckNotNull(api, required[i], names[i])) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, weight, "weight", kWeightDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, indices, "indices", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = RequireDtype(api, offsets, "offsets", indices->dtype, "indices")) != ACLNN_SUCCESS) return rc;
  if (weight->viewDims.size() != 2 || indices->viewDims.size() != 1 || offsets->viewDims.size() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: weight %s must be 2-D, indices %s and offsets %s 1-D", api,
                      ShapeToString(weight->viewDims).c_str(), ShapeToString(indices->viewDims).c_str(),
                      ShapeToString(offsets->viewDims).c_str());
  }
  if (mode < 0 || mode > 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: mode %lld is not 0 (sum), 1 (mean) or 2 (max)", api,
                      static_cast<long long>(mode));
  }
  const int64_t numIndices = indices->viewDims[0], numOffsets = offsets->viewDims[0];
  const int64_t numWeights = weight->viewDims[0], dim = weight->viewDims[1];
  if (includeLastOffset && numOffsets < 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: includeLastOffset needs at least one offset", api);
  }
  const int64_t numBags = numOffsets - (includeLastOffset ? 1 : 0);
  if (perSampleWeights != nullptr) {
    if (mode != 0) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: perSampleWeights are only supported with mode 0 (sum)", api);
    }
    if ((rc = RequireDtype(api, perSampleWeights, "perSampleWeights", weight->dtype, "weight")) != ACLNN_SUCCESS ||
        (rc = RequireShape(api, perSampleWeights, "perSampleWeights", {numIndices})) != ACLNN_SUCCESS) {
      return rc;
    }
  }
  if ((rc = RequireDtype(api, output, "output", weight->dtype, "weight")) != ACLNN_SUCCESS) return rc;
  if ((rc = RequireShape(api, output, "output", {numBags, dim})) != ACLNN_SUCCESS) return rc;
  const aclTensor* integers[] = {offset2bag, bagSize, maxIndices};
  const char* integerNames[] = {"offset2bag", "bagSize", "maxIndices"};
  for (size_t i = 0; i < 3; ++i) {
    if ((rc = RequireDtype(api, integers[i], integerNames[i], indices->dtype, "indices")) != ACLNN_SUCCESS) return rc;
  }
  const bool wantOffset2bag = offset2bag->Numel() > 0, wantBagSize = bagSize->Numel() > 0;
  const bool wantMaxIndices = maxIndices->Numel() > 0;
  if (wantOffset2bag && (rc = RequireShape(api, offset2bag, "offset2bag", {numIndices})) != ACLNN_SUCCESS) return rc;
  if (mode != 0 && (rc = RequireShape(api, bagSize, "bagSize", {numBags})) != ACLNN_SUCCESS) return rc;
  if (wantMaxIndices) {
    const std::vector<int64_t> shape = mode == 2 ? std::vector<int64_t>{numBags, dim} : bagSize->viewDims;
    if ((rc = RequireShape(api, maxIndices, "maxIndices", shape)) != ACLNN_SUCCESS) return rc;
  }
  ExecutorBuilder plan(api);
  ascendc_sim::kernels::EmbeddingBagArgs shape;
  shape.dtype = weight->dtype;
  shape.indexDtype = indices->dtype;
  shape.numIndices = numIndices;
  shape.numWeights = numWeights;
  shape.dim = dim;
  shape.numBags = numBags;
  shape.numOffsets = numOffsets;
  shape.bagSizeCount = bagSize->Numel();
  shape.mode = mode;
  shape.paddingIdx = paddingIdx;
  const aclDataType idx = indices->dtype;
  const DenseBuffer w = plan.InputReshaped(weight, "weight", {numWeights, dim}, weight->dtype);
  const DenseBuffer in = plan.InputReshaped(indices, "indices", {numIndices}, idx);
  const DenseBuffer off = plan.InputReshaped(offsets, "offsets", {numOffsets}, idx);
  const bool hasPsw = perSampleWeights != nullptr;
  const DenseBuffer psw = hasPsw ? plan.InputReshaped(perSampleWeights, "perSampleWeights", {numIndices},
                                                      weight->dtype) : DenseBuffer();
  const DenseBuffer y = plan.Output(output, "output", weight->dtype);
  const DenseBuffer o2b = wantOffset2bag ? plan.Output(offset2bag, "offset2bag", idx) : DenseBuffer();
  // mean mode divides by the bag sizes even when the caller does not want them
  const DenseBuffer bs = wantBagSize ? plan.Output(bagSize, "bagSize", idx)
                                     : plan.Scratch(mode == 1 ? numBags : 0, idx);
  const DenseBuffer mi = wantMaxIndices ? plan.Output(maxIndices, "maxIndices", idx) : DenseBuffer();
  const DenseBuffer starts = plan.Scratch(numBags + 1, ACL_INT64);
  if (mode == 1 && !wantBagSize) shape.bagSizeCount = numBags;
  const bool hasBagSize = wantBagSize || mode == 1;
  plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
    ascendc_sim::kernels::EmbeddingBagArgs args = shape;
    args.weight = w.Resolve(ws);
    args.indices = in.Resolve(ws);
    args.offsets = off.Resolve(ws);
    args.perSampleWeights = hasPsw ? psw.Resolve(ws) : nullptr;
    args.output = y.Resolve(ws);
    args.offset2bag = wantOffset2bag ? o2b.Resolve(ws) : nullptr;
    args.bagSize = hasBagSize ? bs.Resolve(ws) : nullptr;
    args.maxIndices = wantMaxIndices ? mi.Resolve(ws) : nullptr;
    args.starts = starts.Resolve(ws);
    return ascendc_sim::kernels::LaunchEmbeddingBag(args, stream);
  });
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnEmbeddingBag(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnEmbeddingBag", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
