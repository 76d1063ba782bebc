// aclnnIndexSelect and aclnnEmbeddingDenseBackward: operands of any layout are
// made dense by the l0 view-copy, then index_select_custom or
// embedding_dense_backward_custom runs; a non-dense out is written back.
#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "aclnnop/aclnn_index_select.h"

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

const std::initializer_list<aclDataType> kIndexDtypes = {ACL_INT32, ACL_INT64};
const std::initializer_list<aclDataType> kGradDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus CheckPointers(const char* api, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  return CheckNotNull(api, executor, "executor");
}

}  // namespace

extern "C" {

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                             aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIndexSelect";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, index, "index")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, index, "index", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (index->viewDims.size() > 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: index must be 0-d or 1-D, got shape %s", api,
                      ShapeToString(index->viewDims).c_str());
  }
  if (out->dtype != self->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s, expected self's dtype %s", api,
                      DataTypeName(out->dtype), DataTypeName(self->dtype));
  }
  std::vector<int64_t> dims = self->viewDims;
  const bool scalar = dims.empty();
  if (scalar) dims.push_back(1);
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (dim < -rank || dim >= rank) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for self of %lld dimensions", api,
                      static_cast<long long>(dim), static_cast<long long>(self->viewDims.size()));
  }
  if (dim < 0) dim += rank;
  const int64_t count = index->Numel();
  std::vector<int64_t> expected = dims;
  expected[dim] = count;
  if (scalar) expected.clear();
  if (out->viewDims != expected) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(expected).c_str());
  }
  if (scalar && count != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: index of a 0-d self must have one element, got %lld", api,
                      static_cast<long long>(count));
  }
  if (count > 0 && dims[dim] == 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: index is not empty but self has size 0 in dimension %lld", api,
                      static_cast<long long>(dim));
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    ascendc_sim::kernels::IndexSelectArgs shape;
    shape.dtype = self->dtype;
    shape.indexDtype = index->dtype;
    shape.outer = 1;
    for (int64_t k = 0; k < dim; ++k) shape.outer *= dims[k];
    shape.inner = 1;
    for (int64_t k = dim + 1; k < rank; ++k) shape.inner *= dims[k];
    shape.dimSize = dims[dim];
    shape.count = count;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, self->dtype);
    const DenseBuffer idx = plan.Input(index, "index", index->viewDims, index->dtype);
    const DenseBuffer y = plan.Output(out, "out", self->dtype);
    plan.AddStep([x, idx, y, shape](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::IndexSelectArgs args = shape;
      args.x = x.Resolve(ws);
      args.index = idx.Resolve(ws);
      args.y = y.Resolve(ws);
      return ascendc_sim::kernels::LaunchIndexSelect(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnIndexSelect(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIndexSelect", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(const aclTensor* grad, const aclTensor* indices,
                                                        uint64_t numWeights, int64_t paddingIdx, bool scaleGradByFreq,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  const char* api = "aclnnEmbeddingDenseBackward";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, grad, "grad")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, indices, "indices")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, grad, "grad", kGradDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, indices, "indices", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kGradDtypes)) != ACLNN_SUCCESS) return rc;
  if (grad->viewDims.empty()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: grad must have at least one dimension", api);
  }
  const int64_t dim = grad->viewDims.back();
  const int64_t n = indices->Numel();
  if (grad->Numel() != n * dim) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: grad %s does not hold one row of %lld per index of indices %s",
                      api, ShapeToString(grad->viewDims).c_str(), static_cast<long long>(dim),
                      ShapeToString(indices->viewDims).c_str());
  }
  const std::vector<int64_t> expected = {static_cast<int64_t>(numWeights), dim};
  if (out->viewDims != expected) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(expected).c_str());
  }
  if (out->dtype != grad->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s, expected grad's dtype %s", api,
                      DataTypeName(out->dtype), DataTypeName(grad->dtype));
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    ascendc_sim::kernels::EmbeddingBackwardArgs shape;
    shape.dtype = grad->dtype;
    shape.indexDtype = indices->dtype;
    shape.numIndices = n;
    shape.numWeights = static_cast<int64_t>(numWeights);
    shape.dim = dim;
    shape.paddingIdx = paddingIdx;
    shape.scaleGradByFreq = scaleGradByFreq;
    const DenseBuffer g = plan.InputReshaped(grad, "grad", {n, dim}, grad->dtype);
    const DenseBuffer idx = plan.InputReshaped(indices, "indices", {n}, indices->dtype);
    const DenseBuffer counts = plan.Scratch(scaleGradByFreq ? shape.numWeights : 0, ACL_FLOAT);
    const DenseBuffer y = plan.Output(out, "out", ACL_FLOAT);  // float32 accumulation, cast into out
    plan.AddStep([g, idx, counts, y, shape](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::EmbeddingBackwardArgs args = shape;
      args.grad = g.Resolve(ws);
      args.indices = idx.Resolve(ws);
      args.counts = counts.Resolve(ws);
      args.gradWeight = y.Resolve(ws);
      return ascendc_sim::kernels::LaunchEmbeddingDenseBackward(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnEmbeddingDenseBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnEmbeddingDenseBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
