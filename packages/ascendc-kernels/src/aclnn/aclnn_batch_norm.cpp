// aclnnBatchNorm / aclnnBatchNormBackward: batch normalization over dimension 1
// of an (N, C, *) input, as torch's native_batch_norm and
// native_batch_norm_backward: the kernels batch_norm_custom and
// batch_norm_grad_custom on the input viewed as (N, C, L). Per-channel tensors
// (weight, bias, running and saved stats, weight/bias gradients) are float32 in
// the kernels; other float types are converted on the way in and out. In
// training the running stats (when given) are updated in place.
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"

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

// (n, c, l) of an input of at least 2 dimensions.
aclnnStatus InputGeometry(const char* api, const aclTensor* input, uint64_t* n, uint64_t* c, uint64_t* l) {
  const std::vector<int64_t>& d = input->viewDims;
  if (d.size() < 2) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: input must have at least 2 dimensions, got %zu", api,
                                   d.size());
  }
  *n = static_cast<uint64_t>(d[0]);
  *c = static_cast<uint64_t>(d[1]);
  *l = 1;
  for (size_t k = 2; k < d.size(); ++k) *l *= static_cast<uint64_t>(d[k]);
  return ACLNN_SUCCESS;
}

// A per-channel tensor: null is allowed; else float type and shape [c].
aclnnStatus CheckChannel(const char* api, const aclTensor* t, const char* name, uint64_t c) {
  if (t == nullptr) return ACLNN_SUCCESS;
  aclnnStatus rc = CheckTensor(api, t, name, kNormDtypes);
  if (rc != ACLNN_SUCCESS) return rc;
  if (t->viewDims != std::vector<int64_t>{static_cast<int64_t>(c)}) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected [%llu]", api, name,
                                   ascendc_sim::ShapeToString(t->viewDims).c_str(),
                                   static_cast<unsigned long long>(c));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                           aclTensor* runningMean, aclTensor* runningVar, bool training,
                                           double momentum, double eps, aclTensor* output, aclTensor* saveMean,
                                           aclTensor* saveInvstd, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnBatchNorm";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, input, "input")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, output, "output")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, input, "input", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, output, "output", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  uint64_t n = 0, c = 0, l = 0;
  if ((rc = InputGeometry(api, input, &n, &c, &l)) != ACLNN_SUCCESS) return rc;
  if (output->viewDims != input->viewDims) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: output has shape %s, expected %s", api,
                                   ascendc_sim::ShapeToString(output->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(input->viewDims).c_str());
  }
  if ((rc = CheckChannel(api, weight, "weight", c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckChannel(api, bias, "bias", c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckChannel(api, runningMean, "runningMean", c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckChannel(api, runningVar, "runningVar", c)) != ACLNN_SUCCESS) return rc;
  if ((runningMean == nullptr) != (runningVar == nullptr)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: runningMean and runningVar must both be given or "
                                   "both be null", api);
  }
  if (!training && runningMean == nullptr) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: running_mean and running_var must be defined in "
                                   "evaluation mode", api);
  }
  // Saved statistics: the mean and 1 / sqrt(var + eps) each channel was normalized with (training: the
  // batch's; eval: the running statistics'); an empty or null tensor is not written.
  if (saveMean != nullptr && saveMean->Numel() == 0) saveMean = nullptr;
  if (saveInvstd != nullptr && saveInvstd->Numel() == 0) saveInvstd = nullptr;
  if ((saveMean == nullptr) != (saveInvstd == nullptr)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: saveMean and saveInvstd must both be given", api);
  }
  if ((rc = CheckChannel(api, saveMean, "saveMean", c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckChannel(api, saveInvstd, "saveInvstd", c)) != ACLNN_SUCCESS) return rc;
  // Any eps is taken, as on CPU: a negative or NaN one gives NaN where var + eps is not positive.

  const aclDataType dtype = input->dtype;
  ExecutorBuilder plan(api);
  if (c > 0 && n * l > 0) {
    const DenseBuffer x = plan.Input(input, "input", input->viewDims, dtype);
    const DenseBuffer y = plan.Output(output, "output", dtype);
    DenseBuffer w, b, rm, rv, rmOut, rvOut, sm, si;
    const bool hasW = weight != nullptr, hasB = bias != nullptr, hasR = runningMean != nullptr;
    const bool update = training && hasR, hasSave = saveMean != nullptr;
    const std::vector<int64_t> cs = {static_cast<int64_t>(c)};
    if (hasW) w = plan.Input(weight, "weight", cs, ACL_FLOAT);
    if (hasB) b = plan.Input(bias, "bias", cs, ACL_FLOAT);
    if (hasR) {
      rm = plan.Input(runningMean, "runningMean", cs, ACL_FLOAT);
      rv = plan.Input(runningVar, "runningVar", cs, ACL_FLOAT);
    }
    if (update) {
      rmOut = plan.Output(runningMean, "runningMean", ACL_FLOAT);
      rvOut = plan.Output(runningVar, "runningVar", ACL_FLOAT);
    }
    if (hasSave) {
      sm = plan.Output(saveMean, "saveMean", ACL_FLOAT);
      si = plan.Output(saveInvstd, "saveInvstd", ACL_FLOAT);
    }
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::BatchNormArgs a;
      a.dtype = dtype;
      a.n = n;
      a.c = c;
      a.l = l;
      a.training = training;
      a.momentum = momentum;
      a.eps = eps;
      a.x = x.Resolve(ws);
      a.y = y.Resolve(ws);
      a.weight = hasW ? w.Resolve(ws) : nullptr;
      a.bias = hasB ? b.Resolve(ws) : nullptr;
      a.runningMean = hasR ? rm.Resolve(ws) : nullptr;
      a.runningVar = hasR ? rv.Resolve(ws) : nullptr;
      a.runningMeanOut = update ? rmOut.Resolve(ws) : nullptr;
      a.runningVarOut = update ? rvOut.Resolve(ws) : nullptr;
      a.saveMean = hasSave ? sm.Resolve(ws) : nullptr;
      a.saveInvstd = hasSave ? si.Resolve(ws) : nullptr;
      return ascendc_sim::kernels::LaunchBatchNorm(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnBatchNorm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                   const aclTensor* weight, const aclTensor* runningMean,
                                                   const aclTensor* runningVar, const aclTensor* saveMean,
                                                   const aclTensor* saveInvstd, bool training, double eps,
                                                   const aclBoolArray* outputMask, aclTensor* gradInput,
                                                   aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnBatchNormBackward";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, gradOut, "gradOut")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, input, "input")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, outputMask, "outputMask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if (outputMask->values.size() != 3) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: outputMask has %zu elements, expected 3", api,
                                   outputMask->values.size());
  }
  const bool wantDx = outputMask->values[0] != 0, wantDw = outputMask->values[1] != 0,
             wantDb = outputMask->values[2] != 0;
  if ((rc = CheckTensor(api, input, "input", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, gradOut, "gradOut", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  uint64_t n = 0, c = 0, l = 0;
  if ((rc = InputGeometry(api, input, &n, &c, &l)) != ACLNN_SUCCESS) return rc;
  if (gradOut->viewDims != input->viewDims) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradOut has shape %s, expected %s", api,
                                   ascendc_sim::ShapeToString(gradOut->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(input->viewDims).c_str());
  }
  const aclTensor* mean = training ? saveMean : runningMean;
  const aclTensor* stat = training ? saveInvstd : runningVar;
  const char* meanName = training ? "saveMean" : "runningMean";
  const char* statName = training ? "saveInvstd" : "runningVar";
  if ((rc = CheckNotNull(api, mean, meanName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, stat, statName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckChannel(api, mean, meanName, c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckChannel(api, stat, statName, c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckChannel(api, weight, "weight", c)) != ACLNN_SUCCESS) return rc;
  if (wantDx) {
    if ((rc = CheckNotNull(api, gradInput, "gradInput")) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckTensor(api, gradInput, "gradInput", kNormDtypes)) != ACLNN_SUCCESS) return rc;
    if (gradInput->viewDims != input->viewDims) {
      return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradInput has shape %s, expected %s", api,
                                     ascendc_sim::ShapeToString(gradInput->viewDims).c_str(),
                                     ascendc_sim::ShapeToString(input->viewDims).c_str());
    }
  }
  if (wantDw && (rc = CheckNotNull(api, gradWeight, "gradWeight")) != ACLNN_SUCCESS) return rc;
  if (wantDb && (rc = CheckNotNull(api, gradBias, "gradBias")) != ACLNN_SUCCESS) return rc;
  if (wantDw && (rc = CheckChannel(api, gradWeight, "gradWeight", c)) != ACLNN_SUCCESS) return rc;
  if (wantDb && (rc = CheckChannel(api, gradBias, "gradBias", c)) != ACLNN_SUCCESS) return rc;

  const aclDataType dtype = input->dtype;
  ExecutorBuilder plan(api);
  if (c > 0 && (wantDx || wantDw || wantDb)) {
    const std::vector<int64_t> cs = {static_cast<int64_t>(c)};
    const bool hasData = n * l > 0;
    DenseBuffer dy, x, w, mu, st, dx, dw, db;
    if (hasData) {
      dy = plan.Input(gradOut, "gradOut", input->viewDims, dtype);
      x = plan.Input(input, "input", input->viewDims, dtype);
    }
    const bool hasW = weight != nullptr;
    if (hasW) w = plan.Input(weight, "weight", cs, ACL_FLOAT);
    mu = plan.Input(mean, meanName, cs, ACL_FLOAT);
    st = plan.Input(stat, statName, cs, ACL_FLOAT);
    const bool doDx = wantDx && hasData;
    if (doDx) dx = plan.Output(gradInput, "gradInput", dtype);
    if (wantDw) dw = plan.Output(gradWeight, "gradWeight", ACL_FLOAT);
    if (wantDb) db = plan.Output(gradBias, "gradBias", ACL_FLOAT);
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      if (!hasData) {  // no elements: zero weight/bias gradients
        for (const auto* out : {wantDw ? &dw : nullptr, wantDb ? &db : nullptr}) {
          if (out == nullptr) continue;
          const aclError err = ascendc_sim::kernels::LaunchFill(ACL_FLOAT, out->Resolve(ws), c,
                                                                ascendc_sim::kernels::ScalarValue::Floating(0.0),
                                                                stream);
          if (err != ACL_SUCCESS) return err;
        }
        return ACL_SUCCESS;
      }
      ascendc_sim::kernels::BatchNormGradArgs a;
      a.dtype = dtype;
      a.n = n;
      a.c = c;
      a.l = l;
      a.training = training;
      a.eps = eps;
      a.dy = dy.Resolve(ws);
      a.x = x.Resolve(ws);
      a.weight = hasW ? w.Resolve(ws) : nullptr;
      a.mean = mu.Resolve(ws);
      a.invstdOrVar = st.Resolve(ws);
      a.dx = doDx ? dx.Resolve(ws) : nullptr;
      a.dweight = wantDw ? dw.Resolve(ws) : nullptr;
      a.dbias = wantDb ? db.Resolve(ws) : nullptr;
      return ascendc_sim::kernels::LaunchBatchNormGrad(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnBatchNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnBatchNormBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
