// aclnnLayerNormBackward: the gradients of aclnnLayerNorm over the last
// len(normalizedShape) dimensions, from the forward's per-row mean and rstd.
// gradInput: the row kernel layer_norm_grad_custom; gradWeight: the column sum
// (column_sum_custom) of dy * xhat, which the row kernel leaves in the
// workspace (float32); gradBias: the column sum of dy. outputMask selects the
// outputs (an unselected one may be null).
#include "aclnnop/aclnn_layer_norm_backward.h"

#include <algorithm>
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

aclnnStatus CheckShape(const char* api, const aclTensor* t, const char* name, const std::vector<int64_t>& shape) {
  if (t->viewDims != shape) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, name,
                                   ascendc_sim::ShapeToString(t->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(shape).c_str());
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                   const aclIntArray* normalizedShape, const aclTensor* mean,
                                                   const aclTensor* rstd, const aclTensor* weightOptional,
                                                   const aclTensor* biasOptional, const aclBoolArray* outputMask,
                                                   aclTensor* gradInputOut, aclTensor* gradWeightOut,
                                                   aclTensor* gradBiasOut, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api = "aclnnLayerNormBackward";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, gradOut, "gradOut")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, input, "input")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, normalizedShape, "normalizedShape")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, mean, "mean")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, rstd, "rstd")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, outputMask, "outputMask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if (outputMask->values.size() != 3) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: outputMask has %zu elements, expected 3", api,
                                   outputMask->values.size());
  }
  const bool wantDx = outputMask->values[0] != 0, wantDw = outputMask->values[1] != 0,
             wantDb = outputMask->values[2] != 0;
  if (wantDx && (rc = CheckNotNull(api, gradInputOut, "gradInputOut")) != ACLNN_SUCCESS) return rc;
  if (wantDw && (rc = CheckNotNull(api, gradWeightOut, "gradWeightOut")) != ACLNN_SUCCESS) return rc;
  if (wantDb && (rc = CheckNotNull(api, gradBiasOut, "gradBiasOut")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, input, "input", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, gradOut, "gradOut", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, mean, "mean", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, rstd, "rstd", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  const aclDataType dtype = input->dtype;
  const std::vector<int64_t>& dims = input->viewDims;
  const std::vector<int64_t>& norm = normalizedShape->values;
  if (norm.empty() || norm.size() > dims.size() ||
      !std::equal(norm.begin(), norm.end(), dims.end() - static_cast<std::ptrdiff_t>(norm.size()))) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: normalizedShape %s must be a non-empty suffix of input shape %s", api,
                                   ascendc_sim::ShapeToString(norm).c_str(), ascendc_sim::ShapeToString(dims).c_str());
  }
  if ((rc = CheckShape(api, gradOut, "gradOut", dims)) != ACLNN_SUCCESS) return rc;
  if (gradOut->dtype != dtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradOut has dtype %s, expected input's %s", api,
                                   ascendc_sim::DataTypeName(gradOut->dtype), ascendc_sim::DataTypeName(dtype));
  }
  uint64_t cols = 1;
  for (int64_t d : norm) cols *= static_cast<uint64_t>(d);
  const uint64_t numel = static_cast<uint64_t>(input->Numel());
  uint64_t rows = 1;
  for (size_t k = 0; k + norm.size() < dims.size(); ++k) rows *= static_cast<uint64_t>(dims[k]);
  const aclDataType statsDtype = mean->dtype;
  if (rstd->dtype != statsDtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: rstd has dtype %s, expected mean's %s", api,
                                   ascendc_sim::DataTypeName(rstd->dtype), ascendc_sim::DataTypeName(statsDtype));
  }
  for (const aclTensor* s : {mean, rstd}) {
    if (static_cast<uint64_t>(s->Numel()) != rows) {
      return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has %lld elements, expected %llu (one per row)",
                                     api, s == mean ? "mean" : "rstd", static_cast<long long>(s->Numel()),
                                     static_cast<unsigned long long>(rows));
    }
  }
  if (weightOptional != nullptr) {
    if ((rc = CheckTensor(api, weightOptional, "weight", kNormDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckShape(api, weightOptional, "weight", norm)) != ACLNN_SUCCESS) return rc;
  }
  (void)biasOptional;  // the gradients do not depend on bias
  if (wantDx) {
    if ((rc = CheckTensor(api, gradInputOut, "gradInputOut", kNormDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckShape(api, gradInputOut, "gradInputOut", dims)) != ACLNN_SUCCESS) return rc;
  }
  if (wantDw) {
    if ((rc = CheckTensor(api, gradWeightOut, "gradWeightOut", kNormDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckShape(api, gradWeightOut, "gradWeightOut", norm)) != ACLNN_SUCCESS) return rc;
  }
  if (wantDb) {
    if ((rc = CheckTensor(api, gradBiasOut, "gradBiasOut", kNormDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckShape(api, gradBiasOut, "gradBiasOut", norm)) != ACLNN_SUCCESS) return rc;
  }

  ExecutorBuilder plan(api);
  if (cols > 0) {
    DenseBuffer dy, x, mu, rs, gamma, dx, dyXhat;
    const bool hasGamma = weightOptional != nullptr;
    if (numel > 0) {
      dy = plan.Input(gradOut, "gradOut", dims, dtype);
      x = plan.Input(input, "input", dims, dtype);
      mu = plan.Input(mean, "mean", mean->viewDims, statsDtype);
      rs = plan.Input(rstd, "rstd", rstd->viewDims, statsDtype);
      if (hasGamma) gamma = plan.Input(weightOptional, "weight", norm, dtype);
      if (wantDx) dx = plan.Output(gradInputOut, "gradInputOut", dtype);
      if (wantDw) dyXhat = plan.Scratch(static_cast<int64_t>(numel), ACL_FLOAT);
      if (wantDx || wantDw) {
        plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
          ascendc_sim::kernels::LayerNormGradArgs a;
          a.dtype = dtype;
          a.statsDtype = statsDtype;
          a.rows = rows;
          a.cols = cols;
          a.dy = dy.Resolve(ws);
          a.x = x.Resolve(ws);
          a.mean = mu.Resolve(ws);
          a.rstd = rs.Resolve(ws);
          a.gamma = hasGamma ? gamma.Resolve(ws) : nullptr;
          a.dx = wantDx ? dx.Resolve(ws) : nullptr;
          a.dyXhat = wantDw ? dyXhat.Resolve(ws) : nullptr;
          return ascendc_sim::kernels::LaunchLayerNormGrad(a, stream);
        });
      }
    }
    if (wantDw) {
      const aclDataType wType = gradWeightOut->dtype;
      const DenseBuffer dw = plan.Output(gradWeightOut, "gradWeightOut", wType);
      plan.AddStep([dyXhat, dw, rows, cols, wType, numel](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchColumnSum(ACL_FLOAT, numel > 0 ? dyXhat.Resolve(ws) : nullptr, wType,
                                                     dw.Resolve(ws), numel > 0 ? rows : 0, cols, stream);
      });
    }
    if (wantDb) {
      const aclDataType bType = gradBiasOut->dtype;
      const DenseBuffer db = plan.Output(gradBiasOut, "gradBiasOut", bType);
      plan.AddStep([dy, db, rows, cols, dtype, bType, numel](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchColumnSum(dtype, numel > 0 ? dy.Resolve(ws) : nullptr, bType,
                                                     db.Resolve(ws), numel > 0 ? rows : 0, cols, stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnLayerNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnLayerNormBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
