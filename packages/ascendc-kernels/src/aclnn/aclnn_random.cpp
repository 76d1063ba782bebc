// aclnnInplaceUniform, aclnnInplaceNormal, aclnnInplaceBernoulli(Tensor): fill
// selfRef from the counter-based Philox kernels. A dense selfRef is written
// directly; a strided one gets a dense workspace tile that is view-copied into it
// (element i of the row-major view always draws block i, whatever the layout).
#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_uniform.h"

#include <math.h>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

const std::initializer_list<aclDataType> kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

aclnnStatus CheckCommon(const char* api, const aclTensor* self, std::initializer_list<aclDataType> dtypes,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "selfRef")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  return CheckTensor(api, self, "selfRef", dtypes);
}

// `launch(dtype, y, n, stream)` fills n dense elements.
template <typename Launch>
aclnnStatus PlanFill(const char* api, const aclTensor* self, uint64_t* workspaceSize, aclOpExecutor** executor,
                     Launch launch) {
  ExecutorBuilder plan(api);
  const int64_t numel = self->Numel();
  if (numel > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer y = plan.Output(self, "selfRef", dtype);
    plan.AddStep([y, numel, dtype, launch](uint8_t* ws, aclrtStream stream) {
      return launch(dtype, y.Resolve(ws), static_cast<uint64_t>(numel), stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

kernels::PhiloxArgs Rng(uint64_t seed, uint64_t offset) {
  kernels::PhiloxArgs rng;
  rng.seed = seed;
  rng.offset = offset;
  return rng;
}

aclnnStatus CheckProbability(const char* api, const char* name, double p) {
  if (p >= 0.0 && p <= 1.0) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must be in [0, 1], got %g", api, name, p);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;
namespace kernels = ascendc_sim::kernels;

extern "C" {

aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor* selfRef, double from, double to, uint64_t seed,
                                                uint64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceUniform";
  const aclnnStatus rc = CheckCommon(api, selfRef, kFloatDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!(from <= to) || !isfinite(from) || !isfinite(to)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: expects finite from <= to, got from=%g, to=%g", api,
                                   from, to);
  }
  const kernels::PhiloxArgs rng = Rng(seed, offset);
  return PlanFill(api, selfRef, workspaceSize, executor,
                  [from, to, rng](aclDataType dtype, void* y, uint64_t n, aclrtStream stream) {
                    return kernels::LaunchUniform(dtype, y, n, from, to, rng, stream);
                  });
}

aclnnStatus aclnnInplaceUniform(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceUniform", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor* selfRef, float mean, float std, int64_t seed,
                                               int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceNormal";
  const aclnnStatus rc = CheckCommon(api, selfRef, kFloatDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!(std >= 0.0f)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: std must be >= 0, got %g", api,
                                   static_cast<double>(std));
  }
  const kernels::PhiloxArgs rng = Rng(static_cast<uint64_t>(seed), static_cast<uint64_t>(offset));
  const double m = mean;
  const double s = std;
  return PlanFill(api, selfRef, workspaceSize, executor,
                  [m, s, rng](aclDataType dtype, void* y, uint64_t n, aclrtStream stream) {
                    return kernels::LaunchNormal(dtype, y, n, m, s, rng, stream);
                  });
}

aclnnStatus aclnnInplaceNormal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceNormal", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* prob, int64_t seed,
                                                  int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceBernoulli";
  aclnnStatus rc = CheckCommon(api, selfRef, kAllDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, prob, "prob")) != ACLNN_SUCCESS) return rc;
  if (prob->IsBool() || !ascendc_sim::IsKernelType(prob->dtype)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: prob has unsupported dtype %s", api,
                                   ascendc_sim::DataTypeName(prob->dtype));
  }
  const double p = prob->ToDouble();
  if ((rc = CheckProbability(api, "prob", p)) != ACLNN_SUCCESS) return rc;
  const kernels::PhiloxArgs rng = Rng(static_cast<uint64_t>(seed), static_cast<uint64_t>(offset));
  return PlanFill(api, selfRef, workspaceSize, executor,
                  [p, rng](aclDataType dtype, void* y, uint64_t n, aclrtStream stream) {
                    return kernels::LaunchBernoulli(dtype, y, n, p, rng, stream);
                  });
}

aclnnStatus aclnnInplaceBernoulli(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceBernoulli", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceBernoulliTensorGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* prob, int64_t seed,
                                                        int64_t offset, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  const char* api = "aclnnInplaceBernoulliTensor";
  aclnnStatus rc = CheckCommon(api, selfRef, kAllDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, prob, "prob")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, prob, "prob", kFloatDtypes)) != ACLNN_SUCCESS) return rc;
  if (!BroadcastsTo(prob->viewDims, selfRef->viewDims)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: prob shape %s does not broadcast to selfRef shape %s",
                                   api, ascendc_sim::ShapeToString(prob->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(selfRef->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  const int64_t numel = selfRef->Numel();
  if (numel > 0) {
    // Probabilities are read as float (double for a double prob), broadcast to selfRef's shape.
    const aclDataType probType = prob->dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
    const DenseBuffer p = plan.Input(prob, "prob", selfRef->viewDims, probType);
    const aclDataType dtype = selfRef->dtype;
    const DenseBuffer y = plan.Output(selfRef, "selfRef", dtype);
    const kernels::PhiloxArgs rng = Rng(static_cast<uint64_t>(seed), static_cast<uint64_t>(offset));
    plan.AddStep([p, y, numel, dtype, probType, rng](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchBernoulliTensor(dtype, y.Resolve(ws), probType, p.Resolve(ws),
                                            static_cast<uint64_t>(numel), rng, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnInplaceBernoulliTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceBernoulliTensor", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
