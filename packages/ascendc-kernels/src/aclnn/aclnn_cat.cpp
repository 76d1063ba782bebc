// aclnnCat: one l0 view-copy (view_copy kernel, with dtype conversion) per input
// into its slice of out along dim; nothing else is allocated.
#include "aclnnop/aclnn_cat.h"

#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;

extern "C" {

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnCat";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, tensors, "tensors")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kCopyDtypes)) != ACLNN_SUCCESS) return rc;
  if (tensors->tensors.empty()) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: tensors must not be empty", api);
  const int64_t rank = static_cast<int64_t>(out->viewDims.size());
  if (rank == 0) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must have at least one dimension", api);
  if (dim < -rank || dim >= rank) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for %lld dimensions", api,
                      static_cast<long long>(dim), static_cast<long long>(rank));
  }
  if (dim < 0) dim += rank;
  std::vector<std::string> names;
  names.reserve(tensors->tensors.size());
  int64_t total = 0;
  for (size_t i = 0; i < tensors->tensors.size(); ++i) {
    names.push_back("tensors[" + std::to_string(i) + "]");
    const aclTensor* t = tensors->tensors[i];
    if ((rc = CheckNotNull(api, t, names[i].c_str())) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckTensor(api, t, names[i].c_str(), kCopyDtypes)) != ACLNN_SUCCESS) return rc;
    if (t->viewDims.size() == 1 && t->viewDims[0] == 0) continue;  // legacy empty tensor: skipped
    bool same = static_cast<int64_t>(t->viewDims.size()) == rank;
    for (int64_t k = 0; same && k < rank; ++k) same = k == dim || t->viewDims[k] == out->viewDims[k];
    if (!same) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, which does not fit out %s outside dim %lld",
                        api, names[i].c_str(), ShapeToString(t->viewDims).c_str(),
                        ShapeToString(out->viewDims).c_str(), static_cast<long long>(dim));
    }
    total += t->viewDims[dim];
  }
  if (total != out->viewDims[dim]) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the tensors add up to %lld along dim %lld, out has %lld", api,
                      static_cast<long long>(total), static_cast<long long>(dim),
                      static_cast<long long>(out->viewDims[dim]));
  }
  ExecutorBuilder plan(api);
  int64_t start = 0;
  for (size_t i = 0; i < tensors->tensors.size(); ++i) {
    const aclTensor* t = tensors->tensors[i];
    if (t->viewDims.size() == 1 && t->viewDims[0] == 0) continue;
    aclTensor slice = *out;  // out's view of this input's part
    slice.viewDims[dim] = t->viewDims[dim];
    slice.offset = out->offset + start * out->strides[dim];
    start += t->viewDims[dim];
    if (slice.Numel() == 0) continue;
    plan.CopyView(t, names[i].c_str(), &slice, "out");
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnCat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnCat", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
