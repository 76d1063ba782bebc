// aclnnNLLLoss2d / aclnnNLLLoss2dBackward: the nll_loss kernels (nll_loss_custom,
// nll_loss_grad_custom) over the N * H * W positions of self [N, C, H, W]: self is read
// through its [N, H, W, C] permutation into dense rows of C classes, and the gradient rows are
// written back through the same permutation of gradInput.
#include "aclnnop/aclnn_nll_loss2d.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;

namespace {

const std::initializer_list<aclDataType> kLossDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::initializer_list<aclDataType> kTargetDtypes = {ACL_INT64, ACL_INT32, ACL_UINT8, ACL_INT8, ACL_INT16};

#define RETURN_IF_ERROR(expr)             \
  do {                                    \
    const aclnnStatus rc_ = (expr);       \
    if (rc_ != ACLNN_SUCCESS) return rc_; \
  } while (0)

aclnnStatus CheckShape(const char* api, const aclTensor* t, const char* name, const std::vector<int64_t>& want) {
  if (t->viewDims == want) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, name,
                    ShapeToString(t->viewDims).c_str(), ShapeToString(want).c_str());
}

// The [N, H, W, C] view of a [N, C, H, W] tensor (same storage).
aclTensor ChannelsLast(const aclTensor& t) {
  aclTensor v = t;
  v.viewDims = {t.viewDims[0], t.viewDims[2], t.viewDims[3], t.viewDims[1]};
  v.strides = {t.strides[0], t.strides[2], t.strides[3], t.strides[1]};
  return v;
}

aclnnStatus CheckCommon(const char* api, const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                        int64_t reduction) {
  RETURN_IF_ERROR(CheckNotNull(api, self, "self"));
  RETURN_IF_ERROR(CheckNotNull(api, target, "target"));
  RETURN_IF_ERROR(CheckTensor(api, self, "self", kLossDtypes));
  RETURN_IF_ERROR(CheckTensor(api, target, "target", kTargetDtypes));
  if (self->viewDims.size() != 4) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self must be 4-D [N, C, H, W], got shape %s", api,
                      ShapeToString(self->viewDims).c_str());
  }
  const std::vector<int64_t>& d = self->viewDims;
  RETURN_IF_ERROR(CheckShape(api, target, "target", {d[0], d[2], d[3]}));
  if (weight != nullptr) {
    RETURN_IF_ERROR(CheckTensor(api, weight, "weight", kLossDtypes));
    RETURN_IF_ERROR(CheckShape(api, weight, "weight", {d[1]}));
  }
  if (reduction < 0 || reduction > 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: reduction %lld is not 0 (none), 1 (mean) or 2 (sum)", api,
                      static_cast<long long>(reduction));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                                           int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                                           aclTensor* totalWeight, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  const char* api = "aclnnNLLLoss2d";
  RETURN_IF_ERROR(CheckCommon(api, self, target, weight, reduction));
  RETURN_IF_ERROR(CheckNotNull(api, out, "out"));
  RETURN_IF_ERROR(CheckNotNull(api, totalWeight, "totalWeight"));
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckTensor(api, out, "out", {self->dtype}));
  RETURN_IF_ERROR(CheckTensor(api, totalWeight, "totalWeight", {self->dtype}));
  const std::vector<int64_t>& d = self->viewDims;
  RETURN_IF_ERROR(CheckShape(api, out, "out", reduction == 0 ? target->viewDims : std::vector<int64_t>{}));
  RETURN_IF_ERROR(CheckShape(api, totalWeight, "totalWeight", {}));
  const aclDataType dtype = self->dtype;
  const uint64_t n = static_cast<uint64_t>(d[0] * d[2] * d[3]), c = static_cast<uint64_t>(d[1]);
  ExecutorBuilder plan(api);
  const DenseBuffer total = plan.Output(totalWeight, "totalWeight", dtype);
  if (reduction == 0) {  // torch leaves total_weight 0 without a reduction
    plan.AddStep([total, dtype](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchFill(dtype, total.Resolve(ws), 1,
                                              ascendc_sim::kernels::ScalarValue::Floating(0.0), stream);
    });
  }
  if (reduction != 0 || n > 0) {
    const DenseBuffer y = plan.Output(out, "out", dtype);
    DenseBuffer x, t, w;
    if (n * c > 0) {
      const aclTensor rows = ChannelsLast(*self);
      x = plan.Input(&rows, "self", rows.viewDims, dtype);
    }
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

aclnnStatus aclnnNLLLoss2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNLLLoss2d", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclTensor* target, const aclTensor* weight,
                                                   int64_t reduction, int64_t ignoreIndex,
                                                   const aclTensor* totalWeight, aclTensor* gradInput,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNLLLoss2dBackward";
  RETURN_IF_ERROR(CheckCommon(api, self, target, weight, reduction));
  RETURN_IF_ERROR(CheckNotNull(api, gradOutput, "gradOutput"));
  RETURN_IF_ERROR(CheckNotNull(api, totalWeight, "totalWeight"));
  RETURN_IF_ERROR(CheckNotNull(api, gradInput, "gradInput"));
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckTensor(api, gradOutput, "gradOutput", {self->dtype}));
  RETURN_IF_ERROR(CheckTensor(api, totalWeight, "totalWeight", {self->dtype}));
  RETURN_IF_ERROR(CheckTensor(api, gradInput, "gradInput", {self->dtype}));
  RETURN_IF_ERROR(CheckShape(api, gradOutput, "gradOutput", reduction == 0 ? target->viewDims : std::vector<int64_t>{}));
  if (totalWeight->Numel() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: totalWeight has %lld elements, expected 1", api,
                      static_cast<long long>(totalWeight->Numel()));
  }
  RETURN_IF_ERROR(CheckShape(api, gradInput, "gradInput", self->viewDims));
  const std::vector<int64_t>& d = self->viewDims;
  const aclDataType dtype = self->dtype;
  const uint64_t n = static_cast<uint64_t>(d[0] * d[2] * d[3]), c = static_cast<uint64_t>(d[1]);
  ExecutorBuilder plan(api);
  if (n * c > 0) {
    const std::vector<int64_t> rowsShape = {d[0], d[2], d[3], d[1]};
    const DenseBuffer dx = plan.Scratch(static_cast<int64_t>(n * c), dtype);
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
    const aclTensor rows = ChannelsLast(*gradInput);
    plan.CopyDenseToView(dx, rowsShape, &rows, "gradInput");
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnNLLLoss2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnNLLLoss2dBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
