// aclnnGroupNorm / aclnnGroupNormBackward: group normalization of an (N, C, *) input
// read as (N, C, HxW), with the per-(N, group) mean and rstd, on group_norm_custom and
// group_norm_grad_custom (whose per-(N, C) sums, in the workspace, give gradGamma/gradBeta).
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

namespace {

const std::initializer_list<aclDataType> kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// A null `t` passes; else `t` must have `numel` elements of `dtype` (any of kNormDtypes when undefined).
aclnnStatus CheckOperand(const char* api, const aclTensor* t, const char* name, aclDataType dtype, int64_t numel) {
  if (t == nullptr) return ACLNN_SUCCESS;
  aclnnStatus rc = CheckTensor(api, t, name, kNormDtypes);
  if (rc != ACLNN_SUCCESS) return rc;
  if (dtype != ACL_DT_UNDEFINED && t->dtype != dtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, expected %s", api, name,
                                   ascendc_sim::DataTypeName(t->dtype), ascendc_sim::DataTypeName(dtype));
  }
  if (t->Numel() != numel) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has %lld elements, expected %lld", api, name,
                                   static_cast<long long>(t->Numel()), static_cast<long long>(numel));
  }
  return ACLNN_SUCCESS;
}

// N, C, HxW and group describe `input` (N * C * HxW elements, group > 0 dividing C).
aclnnStatus CheckSizes(const char* api, const aclTensor* input, int64_t N, int64_t C, int64_t HxW, int64_t group) {
  if (N < 0 || C < 0 || HxW < 0 || group <= 0 || C % group != 0) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: N %lld, C %lld, HxW %lld, group %lld: expected sizes >= 0 and group > 0 dividing C",
                                   api, static_cast<long long>(N), static_cast<long long>(C),
                                   static_cast<long long>(HxW), static_cast<long long>(group));
  }
  return CheckOperand(api, input, "input", input->dtype, N * C * HxW);
}

std::vector<int64_t> DenseShape(int64_t N, int64_t C, int64_t HxW) {
  return {N, C, HxW};
}

}  // namespace

extern "C" {

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                           int64_t N, int64_t C, int64_t HxW, int64_t group, double eps,
                                           aclTensor* out, aclTensor* meanOut, aclTensor* rstdOut,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnGroupNorm";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSizes(api, self, N, C, HxW, group)) != ACLNN_SUCCESS) return rc;
  const aclDataType dtype = self->dtype;
  if ((rc = CheckOperand(api, gamma, "gamma", dtype, C)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOperand(api, beta, "beta", dtype, C)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOperand(api, out, "out", dtype, N * C * HxW)) != ACLNN_SUCCESS) return rc;
  const aclDataType statsDtype = meanOut != nullptr ? meanOut->dtype : rstdOut != nullptr ? rstdOut->dtype : dtype;
  if (statsDtype != dtype && statsDtype != ACL_FLOAT) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: meanOut/rstdOut have dtype %s, expected %s or float",
                                   api, ascendc_sim::DataTypeName(statsDtype), ascendc_sim::DataTypeName(dtype));
  }
  if ((rc = CheckOperand(api, meanOut, "meanOut", statsDtype, N * group)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOperand(api, rstdOut, "rstdOut", statsDtype, N * group)) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  if (N * group > 0) {
    const bool hasData = N * C * HxW > 0;
    DenseBuffer x, y, g, b, mean, rstd;
    if (hasData) {
      x = plan.InputReshaped(self, "self", DenseShape(N, C, HxW), dtype);
      y = plan.Output(out, "out", dtype);
    }
    if (gamma != nullptr) g = plan.InputReshaped(gamma, "gamma", {C}, dtype);
    if (beta != nullptr) b = plan.InputReshaped(beta, "beta", {C}, dtype);
    if (meanOut != nullptr) mean = plan.Output(meanOut, "meanOut", statsDtype);
    if (rstdOut != nullptr) rstd = plan.Output(rstdOut, "rstdOut", statsDtype);
    const bool hasGamma = gamma != nullptr, hasBeta = beta != nullptr;
    const bool hasMean = meanOut != nullptr, hasRstd = rstdOut != nullptr;
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::GroupNormArgs a;
      a.dtype = dtype;
      a.statsDtype = statsDtype;
      a.n = static_cast<uint64_t>(N);
      a.c = static_cast<uint64_t>(C);
      a.hw = static_cast<uint64_t>(HxW);
      a.groups = static_cast<uint64_t>(group);
      a.eps = eps;
      a.x = hasData ? x.Resolve(ws) : nullptr;
      a.y = hasData ? y.Resolve(ws) : nullptr;
      a.gamma = hasGamma ? g.Resolve(ws) : nullptr;
      a.beta = hasBeta ? b.Resolve(ws) : nullptr;
      a.mean = hasMean ? mean.Resolve(ws) : nullptr;
      a.rstd = hasRstd ? rstd.Resolve(ws) : nullptr;
      return ascendc_sim::kernels::LaunchGroupNorm(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnGroupNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnGroupNorm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                   const aclTensor* mean, const aclTensor* rstd,
                                                   const aclTensor* gamma, int64_t N, int64_t C, int64_t HxW,
                                                   int64_t group, const aclBoolArray* outputMask,
                                                   aclTensor* gradInput, aclTensor* gradGammaOut,
                                                   aclTensor* gradBetaOut, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnGroupNormBackward";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, gradOut, "gradOut")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, input, "input")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, mean, "mean")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, rstd, "rstd")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, outputMask, "outputMask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if (outputMask->values.size() != 3) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: outputMask has %zu elements, expected 3", api,
                                   outputMask->values.size());
  }
  const bool wantDx = outputMask->values[0] != 0, wantDg = outputMask->values[1] != 0,
             wantDb = outputMask->values[2] != 0;
  if (wantDx && (rc = CheckNotNull(api, gradInput, "gradInput")) != ACLNN_SUCCESS) return rc;
  if (wantDg && (rc = CheckNotNull(api, gradGammaOut, "gradGammaOut")) != ACLNN_SUCCESS) return rc;
  if (wantDb && (rc = CheckNotNull(api, gradBetaOut, "gradBetaOut")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, input, "input", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSizes(api, input, N, C, HxW, group)) != ACLNN_SUCCESS) return rc;
  const aclDataType dtype = input->dtype;
  if ((rc = CheckOperand(api, gradOut, "gradOut", dtype, N * C * HxW)) != ACLNN_SUCCESS) return rc;
  const aclDataType statsDtype = mean->dtype;
  if ((rc = CheckOperand(api, mean, "mean", statsDtype, N * group)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOperand(api, rstd, "rstd", statsDtype, N * group)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOperand(api, gamma, "gamma", dtype, C)) != ACLNN_SUCCESS) return rc;
  if (wantDx && (rc = CheckOperand(api, gradInput, "gradInput", dtype, N * C * HxW)) != ACLNN_SUCCESS) return rc;
  if (wantDg && (rc = CheckOperand(api, gradGammaOut, "gradGammaOut", dtype, C)) != ACLNN_SUCCESS) return rc;
  if (wantDb && (rc = CheckOperand(api, gradBetaOut, "gradBetaOut", dtype, C)) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  const bool hasData = N * C * HxW > 0, wantSums = (wantDg || wantDb) && C > 0;
  if ((wantDx && hasData) || wantSums) {
    DenseBuffer dy, x, mu, rs, g, dx, dgamma, dbeta, ds, db;
    const bool hasGamma = gamma != nullptr, hasDx = wantDx && hasData;
    if (hasData) {
      dy = plan.InputReshaped(gradOut, "gradOut", DenseShape(N, C, HxW), dtype);
      x = plan.InputReshaped(input, "input", DenseShape(N, C, HxW), dtype);
    }
    if (N * group > 0) {
      mu = plan.InputReshaped(mean, "mean", {N * group}, statsDtype);
      rs = plan.InputReshaped(rstd, "rstd", {N * group}, statsDtype);
    }
    if (hasGamma) g = plan.InputReshaped(gamma, "gamma", {C}, dtype);
    if (hasDx) dx = plan.Output(gradInput, "gradInput", dtype);
    if (wantDg) dgamma = plan.Output(gradGammaOut, "gradGammaOut", dtype);
    if (wantDb) dbeta = plan.Output(gradBetaOut, "gradBetaOut", dtype);
    if (wantSums && N > 0) {
      ds = plan.Scratch(N * C, ACL_FLOAT);
      db = plan.Scratch(N * C, ACL_FLOAT);
    }
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::GroupNormGradArgs a;
      a.dtype = dtype;
      a.statsDtype = statsDtype;
      a.n = static_cast<uint64_t>(N);
      a.c = static_cast<uint64_t>(C);
      a.hw = static_cast<uint64_t>(HxW);
      a.groups = static_cast<uint64_t>(group);
      a.dy = hasData ? dy.Resolve(ws) : nullptr;
      a.x = hasData ? x.Resolve(ws) : nullptr;
      a.mean = N * group > 0 ? mu.Resolve(ws) : nullptr;
      a.rstd = N * group > 0 ? rs.Resolve(ws) : nullptr;
      a.gamma = hasGamma ? g.Resolve(ws) : nullptr;
      a.dx = hasDx ? dx.Resolve(ws) : nullptr;
      a.dgamma = wantDg ? dgamma.Resolve(ws) : nullptr;
      a.dbeta = wantDb ? dbeta.Resolve(ws) : nullptr;
      a.ds = wantSums && N > 0 ? ds.Resolve(ws) : nullptr;
      a.db = wantSums && N > 0 ? db.Resolve(ws) : nullptr;
      return ascendc_sim::kernels::LaunchGroupNormGrad(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnGroupNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnGroupNormBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
