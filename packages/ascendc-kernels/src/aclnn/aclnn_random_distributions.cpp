// aclnnInplaceExponential, aclnnInplaceCauchy, aclnnInplaceLogNormal,
// aclnnInplaceGeometric and aclnnInplaceRandom: selfRef filled by random_custom
// (kernels/random_kernel.cpp) with (seed, offset); a strided selfRef gets a dense
// workspace tile that is view-copied into it, so element i of the row-major view
// always draws Philox block i.
#include "aclnnop/aclnn_normal_tensor.h"
#include "aclnnop/aclnn_random_distributions.h"

#include <math.h>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

const std::initializer_list<aclDataType> kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

aclnnStatus CheckSelf(const char* api, const aclTensor* self, std::initializer_list<aclDataType> dtypes,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "selfRef")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  return CheckTensor(api, self, "selfRef", dtypes);
}

kernels::PhiloxArgs Rng(int64_t seed, int64_t offset) {
  kernels::PhiloxArgs rng;
  rng.seed = static_cast<uint64_t>(seed);
  rng.offset = static_cast<uint64_t>(offset);
  return rng;
}

// `launch(dtype, y, n, stream)` fills n dense elements of selfRef's row-major view.
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

aclnnStatus PlanTransform(const char* api, const aclTensor* self,
                          kernels::RandomTransform kind, double a, double b, int64_t seed, int64_t offset,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const kernels::PhiloxArgs rng = Rng(seed, offset);
  return PlanFill(api, self, workspaceSize, executor,
                  [kind, a, b, rng](aclDataType dtype, void* y, uint64_t n, aclrtStream stream) {
                    return kernels::LaunchRandomTransform(dtype, y, n, kind, a, b, rng, stream);
                  });
}

aclnnStatus Invalid(const char* api, const char* what, double v) {
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s, got %g", api, what, v);
}

// out = mean + std * z with a tensor or scalar mean and std (at least one a tensor).
aclnnStatus NormalTensorWorkspace(const char* api, const aclTensor* mean, double meanValue, const aclTensor* std,
                                  double stdValue, int64_t seed, int64_t offset, aclTensor* out,
                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckSelf(api, out, kFloatDtypes, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  for (const aclTensor* t : {mean, std}) {
    if (t == nullptr) continue;
    const char* name = t == mean ? "mean" : "std";
    if ((rc = CheckTensor(api, t, name, kNumericDtypes)) != ACLNN_SUCCESS) return rc;
    if (!BroadcastsTo(t->viewDims, out->viewDims)) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s %s does not broadcast to out %s", api, name,
                        ShapeToString(t->viewDims).c_str(), ShapeToString(out->viewDims).c_str());
    }
  }
  if (std == nullptr && !(stdValue >= 0.0)) return Invalid(api, "std must be >= 0", stdValue);
  ExecutorBuilder plan(api);
  const int64_t numel = out->Numel();
  if (numel > 0) {
    const aclDataType dtype = out->dtype;
    const uint64_t n = static_cast<uint64_t>(numel);
    const DenseBuffer z = plan.Scratch(numel, dtype);
    const DenseBuffer m = mean != nullptr ? plan.Input(mean, "mean", out->viewDims, dtype) : plan.Scratch(numel, dtype);
    const DenseBuffer s = std != nullptr ? plan.Input(std, "std", out->viewDims, dtype) : plan.Scratch(numel, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const kernels::PhiloxArgs rng = Rng(seed, offset);
    const bool fillMean = mean == nullptr, fillStd = std == nullptr;
    plan.AddStep([z, m, s, y, n, dtype, rng, fillMean, fillStd, meanValue, stdValue](uint8_t* ws,
                                                                                      aclrtStream stream) {
      aclError err = kernels::LaunchNormal(dtype, z.Resolve(ws), n, 0.0, 1.0, rng, stream);
      if (err == ACL_SUCCESS && fillMean) {
        err = kernels::LaunchFill(dtype, m.Resolve(ws), n, kernels::ScalarValue::Floating(meanValue), stream);
      }
      if (err == ACL_SUCCESS && fillStd) {
        err = kernels::LaunchFill(dtype, s.Resolve(ws), n, kernels::ScalarValue::Floating(stdValue), stream);
      }
      if (err != ACL_SUCCESS) return err;
      kernels::EwArgs args;
      args.op = kernels::EwOp::kAddcmul;  // mean + 1 * z * std
      args.dtype = dtype;
      args.x[0] = m.Resolve(ws);
      args.x[1] = z.Resolve(ws);
      args.x[2] = s.Resolve(ws);
      args.y = y.Resolve(ws);
      args.n = n;
      args.s = kernels::ScalarValue::Floating(1.0);
      return kernels::LaunchElementwise(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;
namespace kernels = ascendc_sim::kernels;

extern "C" {

aclnnStatus aclnnInplaceExponentialGetWorkspaceSize(aclTensor* selfRef, double lambd, int64_t seed, int64_t offset,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceExponential";
  const aclnnStatus rc = CheckSelf(api, selfRef, kFloatDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!(lambd > 0.0)) return Invalid(api, "lambd must be positive", lambd);
  return PlanTransform(api, selfRef, kernels::RandomTransform::kExponential, lambd, 0.0, seed, offset,
                       workspaceSize, executor);
}

aclnnStatus aclnnInplaceExponential(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceExponential", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceCauchyGetWorkspaceSize(aclTensor* selfRef, double median, double sigma, int64_t seed,
                                               int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceCauchy";
  const aclnnStatus rc = CheckSelf(api, selfRef, kFloatDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!(sigma > 0.0)) return Invalid(api, "sigma must be positive", sigma);
  return PlanTransform(api, selfRef, kernels::RandomTransform::kCauchy, median, sigma, seed, offset,
                       workspaceSize, executor);
}

aclnnStatus aclnnInplaceCauchy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceCauchy", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceLogNormalGetWorkspaceSize(aclTensor* selfRef, double mean, double std, int64_t seed,
                                                  int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceLogNormal";
  const aclnnStatus rc = CheckSelf(api, selfRef, kFloatDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!(std > 0.0)) return Invalid(api, "std must be positive", std);
  return PlanTransform(api, selfRef, kernels::RandomTransform::kLogNormal, mean, std, seed, offset,
                       workspaceSize, executor);
}

aclnnStatus aclnnInplaceLogNormal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceLogNormal", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceGeometricGetWorkspaceSize(aclTensor* selfRef, double p, int64_t seed, int64_t offset,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceGeometric";
  const aclnnStatus rc = CheckSelf(api, selfRef, kNumericDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!(p > 0.0 && p <= 1.0)) return Invalid(api, "p must be in (0, 1]", p);
  return PlanTransform(api, selfRef, kernels::RandomTransform::kGeometric, p, 0.0, seed, offset,
                       workspaceSize, executor);
}

aclnnStatus aclnnInplaceGeometric(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceGeometric", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceRandomGetWorkspaceSize(aclTensor* selfRef, int64_t from, int64_t to, int64_t seed,
                                               int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceRandom";
  const aclnnStatus rc = CheckSelf(api, selfRef, kAllDtypes, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (from >= to) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: from (%lld) must be less than to (%lld)", api,
                                   static_cast<long long>(from), static_cast<long long>(to));
  }
  const uint64_t range = static_cast<uint64_t>(to) - static_cast<uint64_t>(from);
  const kernels::PhiloxArgs rng = Rng(seed, offset);
  return PlanFill(api, selfRef, workspaceSize, executor,
                  [from, range, rng](aclDataType dtype, void* y, uint64_t n, aclrtStream stream) {
                    return kernels::LaunchRandomInteger(dtype, y, n, from, range, rng, stream);
                  });
}

aclnnStatus aclnnInplaceRandom(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceRandom", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNormalTensorTensorGetWorkspaceSize(const aclTensor* mean, const aclTensor* std, int64_t seed,
                                                   int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnNormalTensorTensor";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, mean, "mean")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, std, "std")) != ACLNN_SUCCESS) return rc;
  return NormalTensorWorkspace(api, mean, 0.0, std, 0.0, seed, offset, out, workspaceSize, executor);
}

aclnnStatus aclnnNormalTensorTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNormalTensorTensor", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNormalTensorFloatGetWorkspaceSize(const aclTensor* mean, float std, int64_t seed, int64_t offset,
                                                  aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const aclnnStatus rc = CheckNotNull("aclnnNormalTensorFloat", mean, "mean");
  if (rc != ACLNN_SUCCESS) return rc;
  return NormalTensorWorkspace("aclnnNormalTensorFloat", mean, 0.0, nullptr, std, seed, offset, out, workspaceSize,
                               executor);
}

aclnnStatus aclnnNormalTensorFloat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNormalTensorFloat", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNormalFloatTensorGetWorkspaceSize(float mean, const aclTensor* std, int64_t seed, int64_t offset,
                                                  aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const aclnnStatus rc = CheckNotNull("aclnnNormalFloatTensor", std, "std");
  if (rc != ACLNN_SUCCESS) return rc;
  return NormalTensorWorkspace("aclnnNormalFloatTensor", nullptr, mean, std, 0.0, seed, offset, out, workspaceSize,
                               executor);
}

aclnnStatus aclnnNormalFloatTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNormalFloatTensor", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
