// acl_op types MseLoss, MseLossGrad, SmoothL1LossV2, SmoothL1LossGradV2, BinaryCrossEntropy and
// BinaryCrossEntropyGrad (declared in abi/aclop/loss.decl) on the pointwise loss kernels
// pointwise_loss_custom / pointwise_loss_grad_custom: the operands are broadcast to one dense shape first;
// NLLLoss and NLLLossGrad on nll_loss_custom / nll_loss_grad_custom (an int32 target widened to int64).
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

using kernels::PointwiseLossKind;

// The reduction attribute as the kernels' code (0 none, 1 mean, 2 sum).
aclError ReductionCode(OpContext& ctx, const std::string& reduction, int64_t* code) {
  if (reduction == "none") {
    *code = 0;
  } else if (reduction == "mean") {
    *code = 1;
  } else if (reduction == "sum") {
    *code = 2;
  } else {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "reduction is '%s'; expected 'none', 'mean' or 'sum'",
                    reduction.c_str());
  }
  return ACL_SUCCESS;
}

// The shape the first `count` inputs broadcast to.
aclError CommonShape(OpContext& ctx, size_t count, std::vector<int64_t>* shape) {
  *shape = ctx.inputs[0].shape();
  for (size_t i = 1; i < count; ++i) {
    std::vector<int64_t> next;
    if (!BroadcastShapes(*shape, ctx.inputs[i].shape(), &next)) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input %zu of shape %s does not broadcast with %s", i,
                      ShapeToString(ctx.inputs[i].shape()).c_str(), ShapeToString(*shape).c_str());
    }
    *shape = next;
  }
  return ACL_SUCCESS;
}

int64_t NumelOf(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// y = the loss of inputs (x, target[, weight]) with `reduction`.
aclError RunLoss(OpContext& ctx, PointwiseLossKind kind, const std::string& reduction, float param) {
  int64_t code = 0;
  aclError rc = ReductionCode(ctx, reduction, &code);
  if (rc != ACL_SUCCESS) return rc;
  const size_t count = ctx.inputs.size();
  std::vector<int64_t> shape;
  if ((rc = CommonShape(ctx, count, &shape)) != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  const std::vector<int64_t> expected = code == 0 ? shape : std::vector<int64_t>{};
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output has shape %s, expected %s for reduction '%s'",
                    ShapeToString(y.shape()).c_str(), ShapeToString(expected).c_str(), reduction.c_str());
  }
  const int64_t n = NumelOf(shape);
  if (code == 0 && n == 0) return ACL_SUCCESS;
  std::vector<void*> dense(count, nullptr);
  for (size_t i = 0; i < count && n > 0; ++i) {
    if ((rc = ctx.BroadcastInput(i, shape, &dense[i])) != ACL_SUCCESS) return rc;
  }
  kernels::PointwiseLossArgs args;
  args.dtype = y.dtype();
  args.kind = kind;
  args.n = static_cast<uint64_t>(n);
  args.reduction = code;
  args.param = param;
  args.x = dense[0];
  args.target = dense[1];
  args.weight = count > 2 ? dense[2] : nullptr;
  args.y = y.data;
  const uint64_t partialBytes = code != 0 ? kernels::PointwiseLossPartialBytes(args.n) : 0;
  if (partialBytes > 0 && (rc = ctx.AllocTemp(partialBytes, &args.partials)) != ACL_SUCCESS) return rc;
  return kernels::LaunchPointwiseLoss(args, ctx.stream());
}

// output = the gradient of the loss for inputs (x, target, grad[, weight]) with `reduction`.
aclError RunLossGrad(OpContext& ctx, PointwiseLossKind kind, const std::string& reduction, float param) {
  int64_t code = 0;
  aclError rc = ReductionCode(ctx, reduction, &code);
  if (rc != ACL_SUCCESS) return rc;
  const size_t count = ctx.inputs.size();
  std::vector<int64_t> shape;
  if ((rc = CommonShape(ctx, count, &shape)) != ACL_SUCCESS) return rc;
  const OpOperand& dx = ctx.outputs[0];
  if (dx.shape() != shape) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output has shape %s, expected the inputs' broadcast shape %s",
                    ShapeToString(dx.shape()).c_str(), ShapeToString(shape).c_str());
  }
  const int64_t n = NumelOf(shape);
  if (n == 0) return ACL_SUCCESS;
  std::vector<void*> dense(count, nullptr);
  for (size_t i = 0; i < count; ++i) {
    if ((rc = ctx.BroadcastInput(i, shape, &dense[i])) != ACL_SUCCESS) return rc;
  }
  kernels::PointwiseLossGradArgs args;
  args.dtype = dx.dtype();
  args.kind = kind;
  args.n = static_cast<uint64_t>(n);
  args.reduction = code;
  args.param = param;
  args.x = dense[0];
  args.target = dense[1];
  args.gradOutput = dense[2];
  args.weight = count > 3 ? dense[3] : nullptr;
  args.gradInput = dx.data;
  args.meanCount = static_cast<uint64_t>(ctx.inputs[0].Numel());  // a mean divides by the prediction's count
  return kernels::LaunchPointwiseLossGrad(args, ctx.stream());
}

// The rows and classes of x (N x C, or C: one row).
aclError NllRowsAndClasses(OpContext& ctx, uint64_t* n, uint64_t* c) {
  const std::vector<int64_t>& x = ctx.inputs[0].shape();
  if (x.empty() || x.size() > 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x of shape %s must be 1-D or 2-D", ShapeToString(x).c_str());
  }
  *n = x.size() == 2 ? static_cast<uint64_t>(x[0]) : 1;
  *c = static_cast<uint64_t>(x.back());
  return ACL_SUCCESS;
}

// target (n elements) and the optional weight (c elements) of an NLL type.
aclError CheckNllOperands(OpContext& ctx, size_t targetIndex, size_t weightIndex, uint64_t n, uint64_t c) {
  const OpOperand& target = ctx.inputs[targetIndex];
  if (static_cast<uint64_t>(target.Numel()) != n || target.shape().size() > 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input target of shape %s must hold one class per row (%llu)",
                    ShapeToString(target.shape()).c_str(), static_cast<unsigned long long>(n));
  }
  if (weightIndex < ctx.inputs.size()) {
    const OpOperand& weight = ctx.inputs[weightIndex];
    if (weight.shape().size() != 1 || static_cast<uint64_t>(weight.Numel()) != c) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input weight of shape %s must be 1-D of the %llu classes",
                      ShapeToString(weight.shape()).c_str(), static_cast<unsigned long long>(c));
    }
  }
  return ACL_SUCCESS;
}

// The target as int64 (the kernels' class type): itself, or an int32 target widened in a temporary.
aclError Int64Target(OpContext& ctx, size_t index, const void** out) {
  const OpOperand& target = ctx.inputs[index];
  if (target.dtype() == ACL_INT64 || target.Numel() == 0) {
    *out = target.data;
    return ACL_SUCCESS;
  }
  const uint64_t n = static_cast<uint64_t>(target.Numel());
  void* wide = nullptr;
  aclError rc = ctx.AllocTemp(n * sizeof(int64_t), &wide);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(target.dtype(), target.data, ACL_INT64, wide, n, ctx.stream());
  *out = wide;
  return rc;
}

aclError CheckSigma(OpContext& ctx, float sigma) {
  if (sigma >= 0.0f) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_INVALID_PARAM, "sigma must be non-negative, got %g", static_cast<double>(sigma));
}

}  // namespace

aclError RunMseLoss(OpContext& ctx, const MseLossAttrs& attrs) {
  return RunLoss(ctx, PointwiseLossKind::kMse, attrs.reduction, 0.0f);
}

aclError RunMseLossGrad(OpContext& ctx, const MseLossGradAttrs& attrs) {
  return RunLossGrad(ctx, PointwiseLossKind::kMse, attrs.reduction, 0.0f);
}

aclError RunSmoothL1LossV2(OpContext& ctx, const SmoothL1LossV2Attrs& attrs) {
  const aclError rc = CheckSigma(ctx, attrs.sigma);
  if (rc != ACL_SUCCESS) return rc;
  return RunLoss(ctx, PointwiseLossKind::kSmoothL1, attrs.reduction, attrs.sigma);
}

aclError RunSmoothL1LossGradV2(OpContext& ctx, const SmoothL1LossGradV2Attrs& attrs) {
  const aclError rc = CheckSigma(ctx, attrs.sigma);
  if (rc != ACL_SUCCESS) return rc;
  return RunLossGrad(ctx, PointwiseLossKind::kSmoothL1, attrs.reduction, attrs.sigma);
}

aclError RunBinaryCrossEntropy(OpContext& ctx, const BinaryCrossEntropyAttrs& attrs) {
  return RunLoss(ctx, PointwiseLossKind::kBinaryCrossEntropy, attrs.reduction, 0.0f);
}

aclError RunBinaryCrossEntropyGrad(OpContext& ctx, const BinaryCrossEntropyGradAttrs& attrs) {
  return RunLossGrad(ctx, PointwiseLossKind::kBinaryCrossEntropy, attrs.reduction, 0.0f);
}

aclError RunNLLLoss(OpContext& ctx, const NLLLossAttrs& attrs) {
  int64_t code = 0;
  uint64_t n = 0, c = 0;
  aclError rc = ReductionCode(ctx, attrs.reduction, &code);
  if (rc == ACL_SUCCESS) rc = NllRowsAndClasses(ctx, &n, &c);
  if (rc == ACL_SUCCESS) rc = CheckNllOperands(ctx, 1, 2, n, c);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  const OpOperand& total = ctx.outputs[1];
  const bool rows = code == 0 && ctx.inputs[0].shape().size() == 2;
  const std::vector<int64_t> expected = rows ? std::vector<int64_t>{static_cast<int64_t>(n)} : std::vector<int64_t>{};
  if (y.shape() != expected || total.Numel() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "outputs y %s and total_weight %s, expected %s and one element",
                    ShapeToString(y.shape()).c_str(), ShapeToString(total.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  if (code == 0) {  // without a reduction total_weight stays 0, as in torch
    rc = kernels::LaunchFill(total.dtype(), total.data, 1, kernels::ScalarValue::Floating(0.0), ctx.stream());
    if (rc != ACL_SUCCESS || n == 0) return rc;
  }
  kernels::NllLossArgs args;
  if ((rc = Int64Target(ctx, 1, &args.target)) != ACL_SUCCESS) return rc;
  args.dtype = y.dtype();
  args.n = n;
  args.c = c;
  args.reduction = code;
  args.ignoreIndex = attrs.ignore_index;
  args.x = n * c > 0 ? ctx.inputs[0].data : nullptr;
  args.weight = ctx.inputs.size() > 2 ? ctx.inputs[2].data : nullptr;
  args.y = y.data;
  args.totalWeight = total.data;
  return kernels::LaunchNllLoss(args, ctx.stream());
}

aclError RunNLLLossGrad(OpContext& ctx, const NLLLossGradAttrs& attrs) {
  int64_t code = 0;
  uint64_t n = 0, c = 0;
  aclError rc = ReductionCode(ctx, attrs.reduction, &code);
  if (rc == ACL_SUCCESS) rc = NllRowsAndClasses(ctx, &n, &c);
  if (rc == ACL_SUCCESS) rc = CheckNllOperands(ctx, 2, 3, n, c);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& grad = ctx.inputs[1];
  const bool rows = code == 0 && ctx.inputs[0].shape().size() == 2;
  if (static_cast<uint64_t>(grad.Numel()) != (rows ? n : 1) || ctx.inputs[4].Numel() != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input y_grad of shape %s must hold %s, total_weight one element",
                    ShapeToString(grad.shape()).c_str(), rows ? "one value per row" : "one value");
  }
  const OpOperand& dx = ctx.outputs[0];
  if ((rc = ctx.RequireSameShape(ctx.inputs[0], "input x", dx, "output x_grad")) != ACL_SUCCESS) return rc;
  if (n * c == 0) return ACL_SUCCESS;
  rc = kernels::LaunchFill(dx.dtype(), dx.data, n * c, kernels::ScalarValue::Floating(0.0), ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  kernels::NllLossGradArgs args;
  if ((rc = Int64Target(ctx, 2, &args.target)) != ACL_SUCCESS) return rc;
  args.dtype = dx.dtype();
  args.n = n;
  args.c = c;
  args.reduction = code;
  args.ignoreIndex = attrs.ignore_index;
  args.gradOutput = grad.data;
  args.weight = ctx.inputs[3].data;
  args.totalWeight = ctx.inputs[4].data;
  args.gradInput = dx.data;
  return kernels::LaunchNllLossGrad(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
