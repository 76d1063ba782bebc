// aclnnSearchSorted, aclnnBucketize and aclnnHistc over bucket_kernel.cpp: the sorted
// boundaries and the values are brought to dense tiles of their promoted dtype (the
// sorter to int64), then search_sorted_custom / histc_custom run; a strided out gets
// a dense tile that is view-copied into it.
#include "aclnnop/aclnn_bucketize.h"
#include "aclnnop/aclnn_histc.h"
#include "aclnnop/aclnn_search_sorted.h"

#include <math.h>

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "aclnn/type_promotion.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

namespace k = kernels;

aclnnStatus SearchWorkspace(const char* api, const aclTensor* sorted, const char* sortedName, const aclTensor* self,
                            bool outInt32, bool right, const aclTensor* sorter, aclTensor* out,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, sorted, sortedName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, sorted, sortedName, kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  const aclDataType outType = outInt32 ? ACL_INT32 : ACL_INT64;
  if ((rc = CheckTensor(api, out, "out", {outType})) != ACLNN_SUCCESS) return rc;
  if (sorter != nullptr && (rc = CheckTensor(api, sorter, "sorter", {ACL_INT64})) != ACLNN_SUCCESS) return rc;
  if (out->viewDims != self->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected self's %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(self->viewDims).c_str());
  }
  const std::vector<int64_t>& sd = sorted->viewDims;
  if (sd.empty()) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must have at least 1 dimension", api, sortedName);
  const bool shared = sd.size() == 1;
  if (!shared) {
    bool same = self->viewDims.size() == sd.size();
    for (size_t d = 0; same && d + 1 < sd.size(); ++d) same = self->viewDims[d] == sd[d];
    if (!same) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the leading dimensions of %s %s and self %s differ", api,
                        sortedName, ShapeToString(sd).c_str(), ShapeToString(self->viewDims).c_str());
    }
  }
  if (sorter != nullptr && sorter->viewDims != sd) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: sorter %s must have %s's shape %s", api,
                      ShapeToString(sorter->viewDims).c_str(), sortedName, ShapeToString(sd).c_str());
  }
  const aclDataType common = PromoteTypes(sorted->dtype, self->dtype);
  ExecutorBuilder plan(api);
  const int64_t numel = self->Numel();
  if (numel > 0) {
    k::SearchSortedArgs shape;
    shape.dtype = common;
    shape.n = sd.back();
    shape.sharedRow = shared;
    shape.rows = shared ? 1 : sorted->Numel() / std::max<int64_t>(shape.n, 1);
    shape.perRow = shared ? numel : (self->viewDims.empty() ? 1 : self->viewDims.back());
    shape.right = right;
    shape.out32 = outInt32;
    const DenseBuffer s = plan.Input(sorted, sortedName, sd, common);
    const DenseBuffer v = plan.Input(self, "self", self->viewDims, common);
    DenseBuffer order;
    if (sorter != nullptr) order = plan.Input(sorter, "sorter", sd, ACL_INT64);
    const DenseBuffer y = plan.Output(out, "out", outType);
    plan.AddStep([shape, s, v, order, y](uint8_t* ws, aclrtStream stream) {
      k::SearchSortedArgs args = shape;
      args.sorted = s.Resolve(ws);
      args.values = v.Resolve(ws);
      args.sorter = order.dtype == ACL_DT_UNDEFINED ? nullptr : order.Resolve(ws);
      args.out = y.Resolve(ws);
      return k::LaunchSearchSorted(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;

extern "C" {

aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor* sortedSequence, const aclTensor* self, bool outInt32,
                                              bool right, const aclTensor* sorter, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return SearchWorkspace("aclnnSearchSorted", sortedSequence, "sortedSequence", self, outInt32, right, sorter, out,
                         workspaceSize, executor);
}

aclnnStatus aclnnSearchSorted(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnSearchSorted", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBucketizeGetWorkspaceSize(const aclTensor* self, const aclTensor* boundaries, bool outInt32,
                                           bool right, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  if (boundaries != nullptr && boundaries->viewDims.size() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "aclnnBucketize: boundaries must be 1-D, got %s",
                      ascendc_sim::ShapeToString(boundaries->viewDims).c_str());
  }
  return SearchWorkspace("aclnnBucketize", boundaries, "boundaries", self, outInt32, right, nullptr, out,
                         workspaceSize, executor);
}

aclnnStatus aclnnBucketize(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnBucketize", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnHistcGetWorkspaceSize(const aclTensor* self, int64_t bins, const aclScalar* min,
                                       const aclScalar* max, aclTensor* out, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  const char* api = "aclnnHistc";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, min, "min")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, max, "max")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  const std::initializer_list<aclDataType> floats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
  if ((rc = CheckTensor(api, self, "self", floats)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", floats)) != ACLNN_SUCCESS) return rc;
  const double lo = min->ToDouble(), hi = max->ToDouble();
  if (bins <= 0 || !(lo < hi) || !isfinite(lo) || !isfinite(hi)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: needs bins > 0 and finite min < max, got %lld bins over [%g, %g]",
                      api, static_cast<long long>(bins), lo, hi);
  }
  if (out->viewDims != std::vector<int64_t>{bins} || out->dtype != self->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be [%lld] of self's dtype", api,
                      static_cast<long long>(bins));
  }
  ExecutorBuilder plan(api);
  const aclDataType dtype = self->dtype;
  const int64_t n = self->Numel();
  const DenseBuffer x = n > 0 ? plan.Input(self, "self", self->viewDims, dtype) : DenseBuffer{};
  const DenseBuffer y = plan.Output(out, "out", dtype);
  const DenseBuffer edges = plan.Scratch(bins + 1, ACL_DOUBLE);
  plan.AddStep([x, y, edges, dtype, n, bins, lo, hi](uint8_t* ws, aclrtStream stream) {
    return ascendc_sim::kernels::LaunchHistc(dtype, n > 0 ? x.Resolve(ws) : nullptr, n, y.Resolve(ws),
                                             edges.Resolve(ws), bins, lo, hi, stream);
  });
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnHistc(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnHistc", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
