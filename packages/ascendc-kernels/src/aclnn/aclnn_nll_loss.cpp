// aclnnNLLLoss / aclnnNLLLossBackward: the negative log likelihood loss of
// log-probabilities self (N x C, or C for one sample) at class targets (int64,
// or another integer type converted to int64) with optional class weights,
// ignoreIndex and reduction 0 none / 1 mean / 2 sum, as torch's nll_loss; the
// kernels nll_loss_custom and nll_loss_grad_custom (a zero fill of gradInput
// first).
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss_backward.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

namespace {

const std::initializer_list<aclDataType> kLossDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::initializer_list<aclDataType> kTargetDtypes = {ACL_INT64, ACL_INT32, ACL_UINT8, ACL_INT8, ACL_INT16};

aclnnStatus Invalid(const char* fmt, const char* api, const std::vector<int64_t>& got,
                    const std::vector<int64_t>& want, const char* name) {
  return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, fmt, api, name, ascendc_sim::ShapeToString(got).c_str(),
                                 ascendc_sim::ShapeToString(want).c_str());
}

aclnnStatus CheckShape(const char* api, const aclTensor* t, const char* name, const std::vector<int64_t>& want) {
  if (t->viewDims == want) return ACLNN_SUCCESS;
  return Invalid("%s: %s has shape %s, expected %s", api, t->viewDims, want, name);
}

// Checks the shared arguments; n and c of the (n x c) view of self.
aclnnStatus CheckCommon(const char* api, const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                        int64_t reduction, uint64_t* n, uint64_t* c) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, target, "target")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kLossDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, target, "target", kTargetDtypes)) != ACLNN_SUCCESS) return rc;
  const size_t rank = self->viewDims.size();
  if (rank != 1 && rank != 2) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self must be 1-D or 2-D, got %zu dimensions", api,
                                   rank);
  }
  *n = rank == 2 ? static_cast<uint64_t>(self->viewDims[0]) : 1;
  *c = static_cast<uint64_t>(self->viewDims[rank - 1]);
  const std::vector<int64_t> targetShape = rank == 2 ? std::vector<int64_t>{self->viewDims[0]} : std::vector<int64_t>{};
  if ((rc = CheckShape(api, target, "target", targetShape)) != ACLNN_SUCCESS) return rc;
  if (weight != nullptr) {
    if ((rc = CheckTensor(api, weight, "weight", kLossDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckShape(api, weight, "weight", {static_cast<int64_t>(*c)})) != ACLNN_SUCCESS) return rc;
  }
  if (reduction < 0 || reduction > 2) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: reduction %lld is not 0 (none), 1 (mean) or 2 (sum)",
                                   api, static_cast<long long>(reduction));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                                         int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                                         aclTensor* totalWeightOut, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  const char* api = "aclnnNLLLoss";
  aclnnStatus rc;
  uint64_t n = 0, c = 0;
  if ((rc = CheckCommon(api, self, target, weight, reduction, &n, &c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, totalWeightOut, "totalWeightOut")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kLossDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, totalWeightOut, "totalWeightOut", kLossDtypes)) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t> outShape =
      reduction == 0 && self->viewDims.size() == 2 ? std::vector<int64_t>{static_cast<int64_t>(n)}
                                                   : std::vector<int64_t>{};
  if ((rc = CheckShape(api, out, "out", outShape)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckShape(api, totalWeightOut, "totalWeightOut", {})) != ACLNN_SUCCESS) return rc;
  const aclDataType dtype = self->dtype;
  ExecutorBuilder plan(api);
  const DenseBuffer total = plan.Output(totalWeightOut, "totalWeightOut", dtype);
  if (reduction == 0) {  // torch leaves total_weight 0 without a reduction
    plan.AddStep([total, dtype](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchFill(dtype, total.Resolve(ws), 1,
                                              ascendc_sim::kernels::ScalarValue::Floating(0.0), stream);
    });
  }
  if (reduction != 0 || n > 0) {
    const DenseBuffer y = plan.Output(out, "out", dtype);
    DenseBuffer x, t, w;
    if (n * c > 0) x = plan.Input(self, "self", self->viewDims, dtype);
    if (n > 0) t = plan.Input(target, "target", target->viewDims, ACL_INT64);
    const bool hasWeight = weight != nullptr;
    if (hasWeight) w = plan.Input(weight, "weight", weight->viewDims, dtype);
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::NllLossArgs a;
      a.dtype = dtype;
      a.n = n;
      a.c = c;
      a.reduction = reduction;
      a.ignoreIndex = ignoreIndex;
      a.x = n * c > 0 ? x.Resolve(ws) : nullptr;
      a.target = n > 0 ? t.Resolve(ws) : nullptr;
      a.weight = hasWeight ? w.Resolve(ws) : nullptr;
      a.y = y.Resolve(ws);
      a.totalWeight = total.Resolve(ws);
      return ascendc_sim::kernels::LaunchNllLoss(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnNLLLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNLLLoss", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* target, const aclTensor* weight, int64_t reduction,
                                                 int64_t ignoreIndex, const aclTensor* totalWeight,
                                                 aclTensor* gradInput, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  const char* api = "aclnnNLLLossBackward";
  aclnnStatus rc;
  uint64_t n = 0, c = 0;
  if ((rc = CheckCommon(api, self, target, weight, reduction, &n, &c)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, gradOutput, "gradOutput")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, totalWeight, "totalWeight")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, gradInput, "gradInput")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, gradOutput, "gradOutput", kLossDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, totalWeight, "totalWeight", kLossDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, gradInput, "gradInput", kLossDtypes)) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t> gShape =
      reduction == 0 && self->viewDims.size() == 2 ? std::vector<int64_t>{static_cast<int64_t>(n)}
                                                   : std::vector<int64_t>{};
  if ((rc = CheckShape(api, gradOutput, "gradOutput", gShape)) != ACLNN_SUCCESS) return rc;
  if (totalWeight->Numel() != 1) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: totalWeight has %lld elements, expected 1", api,
                                   static_cast<long long>(totalWeight->Numel()));
  }
  if ((rc = CheckShape(api, gradInput, "gradInput", self->viewDims)) != ACLNN_SUCCESS) return rc;
  const aclDataType dtype = self->dtype;
  ExecutorBuilder plan(api);
  if (n * c > 0) {
    const DenseBuffer dx = plan.Output(gradInput, "gradInput", dtype);
    const DenseBuffer g = plan.Input(gradOutput, "gradOutput", gradOutput->viewDims, dtype);
    const DenseBuffer t = plan.Input(target, "target", target->viewDims, ACL_INT64);
    const DenseBuffer tw = plan.Input(totalWeight, "totalWeight", totalWeight->viewDims, dtype);
    const bool hasWeight = weight != nullptr;
    DenseBuffer w;
    if (hasWeight) w = plan.Input(weight, "weight", weight->viewDims, dtype);
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      aclError err = ascendc_sim::kernels::LaunchFill(dtype, dx.Resolve(ws), n * c,
                                                      ascendc_sim::kernels::ScalarValue::Floating(0.0), stream);
      if (err != ACL_SUCCESS) return err;
      ascendc_sim::kernels::NllLossGradArgs a;
      a.dtype = dtype;
      a.n = n;
      a.c = c;
      a.reduction = reduction;
      a.ignoreIndex = ignoreIndex;
      a.gradOutput = g.Resolve(ws);
      a.target = t.Resolve(ws);
      a.weight = hasWeight ? w.Resolve(ws) : nullptr;
      a.totalWeight = tw.Resolve(ws);
      a.gradInput = dx.Resolve(ws);
      return ascendc_sim::kernels::LaunchNllLossGrad(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnNLLLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNLLLossBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
