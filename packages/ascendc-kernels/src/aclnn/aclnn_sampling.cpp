// aclnnMultinomial and aclnnRandperm over the sampling kernels (sampling_kernel.cpp):
// the weights are read as dense float32 (double stays double); the result is written
// into out or a dense workspace tile view-copied into it.
#include "aclnnop/aclnn_multinomial.h"
#include "aclnnop/aclnn_randperm.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;
namespace k = ascendc_sim::kernels;

extern "C" {

aclnnStatus aclnnMultinomialGetWorkspaceSize(const aclTensor* self, int64_t numsamples, bool replacement, int64_t seed,
                                             int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  const char* api = "aclnnMultinomial";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_INT64})) != ACLNN_SUCCESS) return rc;
  const size_t rank = self->viewDims.size();
  if (rank != 1 && rank != 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self must be 1-D or 2-D, got %zu dimensions", api, rank);
  }
  const int64_t n = self->viewDims.back();
  const int64_t rows = rank == 2 ? self->viewDims[0] : 1;
  if (numsamples <= 0 || (!replacement && numsamples > n)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cannot draw %lld samples from %lld categories%s", api,
                      static_cast<long long>(numsamples), static_cast<long long>(n),
                      replacement ? "" : " without replacement");
  }
  std::vector<int64_t> expected = rank == 2 ? std::vector<int64_t>{rows, numsamples} : std::vector<int64_t>{numsamples};
  if (out->viewDims != expected) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(expected).c_str());
  }
  ExecutorBuilder plan(api);
  if (rows > 0) {
    if (n == 0) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self has no categories", api);
    k::MultinomialArgs shape;
    shape.probType = self->dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
    shape.rows = rows;
    shape.n = n;
    shape.samples = numsamples;
    shape.replacement = replacement;
    shape.rng.seed = static_cast<uint64_t>(seed);
    shape.rng.offset = static_cast<uint64_t>(offset);
    const DenseBuffer p = plan.Input(self, "self", self->viewDims, shape.probType);
    const DenseBuffer y = plan.Output(out, "out", ACL_INT64);
    const DenseBuffer scratch = plan.Scratch(k::MultinomialBlocks(rows) * n, ACL_DOUBLE);
    plan.AddStep([shape, p, y, scratch](uint8_t* ws, aclrtStream stream) {
      k::MultinomialArgs args = shape;
      args.prob = p.Resolve(ws);
      args.out = y.Resolve(ws);
      args.scratch = scratch.Resolve(ws);
      return k::LaunchMultinomial(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMultinomial(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMultinomial", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnRandpermGetWorkspaceSize(int64_t n, int64_t seed, int64_t offset, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRandperm";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if (n < 0 || out->viewDims != std::vector<int64_t>{n}) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be 1-D [%lld] (n >= 0), got %s", api,
                      static_cast<long long>(n), ShapeToString(out->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  if (n > 0) {
    const aclDataType dtype = out->dtype;
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const DenseBuffer scratch = plan.Scratch(2 * n, ACL_INT64);
    k::PhiloxArgs rng;
    rng.seed = static_cast<uint64_t>(seed);
    rng.offset = static_cast<uint64_t>(offset);
    plan.AddStep([y, scratch, dtype, n, rng](uint8_t* ws, aclrtStream stream) {
      return k::LaunchRandperm(dtype, y.Resolve(ws), scratch.Resolve(ws), n, rng, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnRandperm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnRandperm", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
