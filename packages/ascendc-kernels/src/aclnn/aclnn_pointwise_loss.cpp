// aclnnMseLoss, aclnnSmoothL1Loss, aclnnHuberLoss, aclnnBinaryCrossEntropy and their backwards:
// the elementwise losses over pointwise_loss_custom / pointwise_loss_grad_custom. self and
// target (and binary cross entropy's weight) are brought into dense tiles of the computation
// type (out's, gradInput's), broadcast to their common shape (the gradients: with the incoming
// gradient too; a mean's gradient divides by self's element count, as ATen's does); the kernel
// computes in that type.
#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "aclnnop/aclnn_pointwise_loss.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;
using ascendc_sim::kernels::PointwiseLossKind;

namespace {

// The computation (out's, gradInput's dtype) is floating; the operands of mse and smooth_l1 may be
// any real type and are converted to it (an integer self against a float target, as torch
// promotes them); huber and binary cross entropy take floating operands only, as on CPU.
const std::initializer_list<aclDataType> kLossDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::initializer_list<aclDataType> kOperandDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                                                           ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL};

#define RETURN_IF_ERROR(expr)             \
  do {                                    \
    const aclnnStatus rc_ = (expr);       \
    if (rc_ != ACLNN_SUCCESS) return rc_; \
  } while (0)

int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

aclnnStatus CheckReduction(const char* api, int64_t reduction) {
  if (reduction >= 0 && reduction <= 2) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: reduction %lld is not 0 (none), 1 (mean) or 2 (sum)", api,
                    static_cast<long long>(reduction));
}

// self, target (and weight) present, of the loss dtypes, self's and target's dtypes equal; the
// shape they broadcast to in *shape.
aclnnStatus CheckOperands(const char* api, PointwiseLossKind kind, const aclTensor* self, const aclTensor* target,
                          const aclTensor* weight, int64_t reduction, std::vector<int64_t>* shape) {
  // (mse and smooth_l1 are structured in ATen and promote; huber and binary cross entropy compute
  // in self's dtype on CPU, which rejects an integral self)
  const bool promotes = kind == PointwiseLossKind::kMse || kind == PointwiseLossKind::kSmoothL1;
  const auto& operandDtypes = promotes ? kOperandDtypes : kLossDtypes;
  RETURN_IF_ERROR(CheckNotNull(api, self, "self"));
  RETURN_IF_ERROR(CheckNotNull(api, target, "target"));
  RETURN_IF_ERROR(CheckTensor(api, self, "self", operandDtypes));
  RETURN_IF_ERROR(CheckTensor(api, target, "target", operandDtypes));
  RETURN_IF_ERROR(CheckReduction(api, reduction));
  if (!BroadcastShapes(self->viewDims, target->viewDims, shape)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self %s and target %s do not broadcast", api,
                      ShapeToString(self->viewDims).c_str(), ShapeToString(target->viewDims).c_str());
  }
  if (weight != nullptr) {
    RETURN_IF_ERROR(CheckTensor(api, weight, "weight", operandDtypes));
    if (!BroadcastsTo(weight->viewDims, *shape)) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: weight %s does not broadcast to %s", api,
                        ShapeToString(weight->viewDims).c_str(), ShapeToString(*shape).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus LossForward(const char* api, PointwiseLossKind kind, const aclTensor* self, const aclTensor* target,
                        const aclTensor* weight, int64_t reduction, float param, aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  std::vector<int64_t> shape;
  RETURN_IF_ERROR(CheckOperands(api, kind, self, target, weight, reduction, &shape));
  RETURN_IF_ERROR(CheckNotNull(api, out, "out"));
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckTensor(api, out, "out", kLossDtypes));
  const std::vector<int64_t> outShape = reduction == 0 ? shape : std::vector<int64_t>{};
  if (out->viewDims != outShape) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(outShape).c_str());
  }
  const aclDataType dtype = out->dtype;  // the promoted type of self and target
  const int64_t n = Numel(shape);
  ExecutorBuilder plan(api);
  if (reduction != 0 || n > 0) {
    const DenseBuffer y = plan.Output(out, "out", dtype);
    DenseBuffer x, t, w;
    if (n > 0) {
      x = plan.Input(self, "self", shape, dtype);
      t = plan.Input(target, "target", shape, dtype);
      if (weight != nullptr) w = plan.Input(weight, "weight", shape, dtype);
    }
    const bool hasWeight = weight != nullptr && n > 0;
    const uint64_t partialBytes = reduction != 0 ? ascendc_sim::kernels::PointwiseLossPartialBytes(n) : 0;
    DenseBuffer partials;
    if (partialBytes > 0) partials = plan.Scratch(static_cast<int64_t>(partialBytes / sizeof(float)), ACL_FLOAT);
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::PointwiseLossArgs a;
      a.dtype = dtype;
      a.kind = kind;
      a.n = static_cast<uint64_t>(n);
      a.reduction = reduction;
      a.param = param;
      a.x = n > 0 ? x.Resolve(ws) : nullptr;
      a.target = n > 0 ? t.Resolve(ws) : nullptr;
      a.weight = hasWeight ? w.Resolve(ws) : nullptr;
      a.y = y.Resolve(ws);
      a.partials = partialBytes > 0 ? partials.Resolve(ws) : nullptr;
      return ascendc_sim::kernels::LaunchPointwiseLoss(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus LossBackward(const char* api, PointwiseLossKind kind, const aclTensor* gradOutput, const aclTensor* self,
                         const aclTensor* target, const aclTensor* weight, int64_t reduction, float param,
                         aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  std::vector<int64_t> shape;
  RETURN_IF_ERROR(CheckOperands(api, kind, self, target, weight, reduction, &shape));
  RETURN_IF_ERROR(CheckNotNull(api, gradOutput, "gradOutput"));
  RETURN_IF_ERROR(CheckNotNull(api, gradInput, "gradInput"));
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckTensor(api, gradOutput, "gradOutput", kOperandDtypes));
  RETURN_IF_ERROR(CheckTensor(api, gradInput, "gradInput", kLossDtypes));
  std::vector<int64_t> full;  // self, target and gradOutput broadcast (self's shape unless they are larger)
  if (!BroadcastShapes(shape, gradOutput->viewDims, &full)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradOutput %s does not broadcast with %s", api,
                      ShapeToString(gradOutput->viewDims).c_str(), ShapeToString(shape).c_str());
  }
  shape = full;
  if (gradInput->viewDims != shape) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: gradInput has shape %s, expected %s", api,
                      ShapeToString(gradInput->viewDims).c_str(), ShapeToString(shape).c_str());
  }
  const aclDataType dtype = gradInput->dtype;
  const int64_t n = Numel(shape);
  const int64_t meanCount = Numel(self->viewDims);  // a mean divides by self's elements, as ATen does
  ExecutorBuilder plan(api);
  if (n > 0) {
    const DenseBuffer dx = plan.Output(gradInput, "gradInput", dtype);
    const DenseBuffer g = plan.Input(gradOutput, "gradOutput", shape, dtype);
    const DenseBuffer x = plan.Input(self, "self", shape, dtype);
    const DenseBuffer t = plan.Input(target, "target", shape, dtype);
    DenseBuffer w;
    const bool hasWeight = weight != nullptr;
    if (hasWeight) w = plan.Input(weight, "weight", shape, dtype);
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::PointwiseLossGradArgs a;
      a.dtype = dtype;
      a.kind = kind;
      a.n = static_cast<uint64_t>(n);
      a.reduction = reduction;
      a.param = param;
      a.gradOutput = g.Resolve(ws);
      a.x = x.Resolve(ws);
      a.target = t.Resolve(ws);
      a.weight = hasWeight ? w.Resolve(ws) : nullptr;
      a.gradInput = dx.Resolve(ws);
      a.meanCount = static_cast<uint64_t>(meanCount);
      return ascendc_sim::kernels::LaunchPointwiseLossGrad(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus CheckNonNegative(const char* api, const char* name, float v) {
  if (v >= 0.0f) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must be non-negative, got %g", api, name, static_cast<double>(v));
}

aclnnStatus CheckPositive(const char* api, const char* name, float v) {
  if (v > 0.0f) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must be positive, got %g", api, name, static_cast<double>(v));
}

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return LossForward("aclnnMseLoss", PointwiseLossKind::kMse, self, target, nullptr, reduction, 0.0f, out,
                     workspaceSize, executor);
}

aclnnStatus aclnnMseLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMseLoss", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* target, int64_t reduction, aclTensor* gradInput,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return LossBackward("aclnnMseLossBackward", PointwiseLossKind::kMse, gradOutput, self, target, nullptr, reduction,
                      0.0f, gradInput, workspaceSize, executor);
}

aclnnStatus aclnnMseLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMseLossBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                              float beta, aclTensor* result, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNonNegative("aclnnSmoothL1Loss", "beta", beta));
  return LossForward("aclnnSmoothL1Loss", PointwiseLossKind::kSmoothL1, self, target, nullptr, reduction, beta,
                     result, workspaceSize, executor);
}

aclnnStatus aclnnSmoothL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnSmoothL1Loss", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self,
                                                      const aclTensor* target, int64_t reduction, float beta,
                                                      aclTensor* gradInput, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNonNegative("aclnnSmoothL1LossBackward", "beta", beta));
  return LossBackward("aclnnSmoothL1LossBackward", PointwiseLossKind::kSmoothL1, gradOut, self, target, nullptr,
                      reduction, beta, gradInput, workspaceSize, executor);
}

aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnSmoothL1LossBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnHuberLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                           float delta, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckPositive("aclnnHuberLoss", "delta", delta));
  return LossForward("aclnnHuberLoss", PointwiseLossKind::kHuber, self, target, nullptr, reduction, delta, out,
                     workspaceSize, executor);
}

aclnnStatus aclnnHuberLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnHuberLoss", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnHuberLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclTensor* target, int64_t reduction, float delta,
                                                   aclTensor* gradInput, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckPositive("aclnnHuberLossBackward", "delta", delta));
  return LossBackward("aclnnHuberLossBackward", PointwiseLossKind::kHuber, gradOutput, self, target, nullptr,
                      reduction, delta, gradInput, workspaceSize, executor);
}

aclnnStatus aclnnHuberLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnHuberLossBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    const aclTensor* weight, int64_t reduction, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return LossForward("aclnnBinaryCrossEntropy", PointwiseLossKind::kBinaryCrossEntropy, self, target, weight,
                     reduction, 0.0f, out, workspaceSize, executor);
}

aclnnStatus aclnnBinaryCrossEntropy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnBinaryCrossEntropy", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            const aclTensor* target, const aclTensor* weight,
                                                            int64_t reduction, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return LossBackward("aclnnBinaryCrossEntropyBackward", PointwiseLossKind::kBinaryCrossEntropy, gradOutput, self,
                      target, weight, reduction, 0.0f, out, workspaceSize, executor);
}

aclnnStatus aclnnBinaryCrossEntropyBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnBinaryCrossEntropyBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
