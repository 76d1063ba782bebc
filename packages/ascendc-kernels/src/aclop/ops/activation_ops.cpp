// Activation acl_op types and their gradients on the elementwise kernel's activation operators, and GLU /
// GLUGrad, which view-copy the halves of x first (declared in abi/aclop/activation.decl, which checks their
// dtypes and reads their attributes).
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

using kernels::EwOp;
using kernels::ScalarValue;

ScalarValue F(float v) { return ScalarValue::Floating(v); }

// y = op(x; s, s2, s3)
aclError Forward(OpContext& ctx, EwOp op, ScalarValue s = {}, ScalarValue s2 = {}, ScalarValue s3 = {}) {
  const aclError rc = ctx.RequireSameShape(ctx.inputs[0], "input x", ctx.outputs[0], "output y");
  if (rc != ACL_SUCCESS) return rc;
  return RunElementwiseBroadcast(ctx, op, {0}, s, s2, s3);
}

// The gradient types whose inputs are (gradient, forward input): the operators' x0, x1.
aclError Gradient(OpContext& ctx, EwOp op, ScalarValue s = {}, ScalarValue s2 = {}, ScalarValue s3 = {}) {
  return RunElementwiseBroadcast(ctx, op, {0, 1}, s, s2, s3);
}

// glu's dim wrapped into [0, rank) and x's even size along it.
aclError GluDim(OpContext& ctx, const OpOperand& x, int64_t dim, size_t* wrapped) {
  const int64_t rank = static_cast<int64_t>(x.shape().size());
  if (rank == 0 || dim < -rank || dim >= rank) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "dim %lld is out of range for input x of shape %s",
                    static_cast<long long>(dim), ShapeToString(x.shape()).c_str());
  }
  *wrapped = static_cast<size_t>(dim < 0 ? dim + rank : dim);
  if (x.shape()[*wrapped] % 2 != 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x of shape %s has an odd size along dim %zu",
                    ShapeToString(x.shape()).c_str(), *wrapped);
  }
  return ACL_SUCCESS;
}

std::vector<int64_t> HalfShape(const std::vector<int64_t>& shape, size_t dim) {
  std::vector<int64_t> half = shape;
  half[dim] /= 2;
  return half;
}

// Copies between half `which` (0 or 1) along `dim` of the dense `whole` (of `shape`) and the dense `half`.
aclError CopyHalf(OpContext& ctx, aclDataType dtype, const std::vector<int64_t>& shape, size_t dim, int which,
                  void* whole, void* half, bool toHalf) {
  const size_t rank = shape.size();
  const std::vector<int64_t> halfShape = HalfShape(shape, dim);
  kernels::ViewCopyArgs args;
  args.ndim = static_cast<int32_t>(rank);
  kernels::ViewLayout wholeView{whole, dtype, 0, {}};
  kernels::ViewLayout halfView{half, dtype, 0, {}};
  int64_t wholeStride = 1;
  int64_t halfStride = 1;
  for (size_t k = rank; k-- > 0;) {
    args.shape[k] = halfShape[k];
    wholeView.strides[k] = wholeStride;
    halfView.strides[k] = halfStride;
    wholeStride *= shape[k];
    halfStride *= halfShape[k];
  }
  wholeView.offset = which * halfShape[dim] * wholeView.strides[dim];
  args.src = toHalf ? wholeView : halfView;
  args.dst = toHalf ? halfView : wholeView;
  return kernels::LaunchViewCopy(args, ctx.stream());
}

// The two halves of input `index` along dim, each in a dense temporary.
aclError SplitHalves(OpContext& ctx, size_t index, size_t dim, void* halves[2]) {
  const OpOperand& x = ctx.inputs[index];
  const size_t bytes = static_cast<size_t>(x.Numel() / 2) * DataTypeSize(x.dtype());
  for (int which = 0; which < 2; ++which) {
    aclError rc = ctx.AllocTemp(bytes, &halves[which]);
    if (rc == ACL_SUCCESS) rc = CopyHalf(ctx, x.dtype(), x.shape(), dim, which, x.data, halves[which], true);
    if (rc != ACL_SUCCESS) return rc;
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError RunElu(OpContext& ctx, const EluAttrs& a) {
  return Forward(ctx, EwOp::kElu, F(a.alpha), F(a.scale), F(a.input_scale));
}
aclError RunHardShrink(OpContext& ctx, const HardShrinkAttrs& a) { return Forward(ctx, EwOp::kHardshrink, F(a.lambd)); }
aclError RunHardSigmoid(OpContext& ctx, const HardSigmoidAttrs&) { return Forward(ctx, EwOp::kHardsigmoid); }
aclError RunHardSwish(OpContext& ctx, const HardSwishAttrs&) { return Forward(ctx, EwOp::kHardswish); }
aclError RunLeakyRelu(OpContext& ctx, const LeakyReluAttrs& a) {
  return Forward(ctx, EwOp::kLeakyRelu, F(a.negative_slope));
}
aclError RunLogSigmoid(OpContext& ctx, const LogSigmoidAttrs&) { return Forward(ctx, EwOp::kLogSigmoid); }
aclError RunMish(OpContext& ctx, const MishAttrs&) { return Forward(ctx, EwOp::kMish); }
aclError RunSoftplusV2(OpContext& ctx, const SoftplusV2Attrs& a) {
  return Forward(ctx, EwOp::kSmoothRelu, F(a.beta), F(a.threshold));
}
aclError RunSoftShrink(OpContext& ctx, const SoftShrinkAttrs& a) { return Forward(ctx, EwOp::kSoftshrink, F(a.lambd)); }

aclError RunThresholdV2D(OpContext& ctx, const ThresholdV2DAttrs& a) {
  const aclDataType dtype = ctx.inputs[0].dtype();
  return Forward(ctx, EwOp::kThreshold, ScalarFor(dtype, a.threshold), ScalarFor(dtype, a.value));
}

aclError RunClipByValue(OpContext& ctx, const ClipByValueAttrs&) { return RunClipByValueV2(ctx, {}); }

aclError RunGLU(OpContext& ctx, const GLUAttrs& a) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  size_t dim = 0;
  aclError rc = GluDim(ctx, x, a.dim, &dim);
  if (rc != ACL_SUCCESS) return rc;
  if (y.shape() != HalfShape(x.shape(), dim)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s; expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(HalfShape(x.shape(), dim)).c_str());
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  void* halves[2] = {nullptr, nullptr};
  if ((rc = SplitHalves(ctx, 0, dim, halves)) != ACL_SUCCESS) return rc;
  return kernels::LaunchElementwise(EwOp::kGlu, x.dtype(), halves[0], halves[1], y.data,
                                    static_cast<uint64_t>(y.Numel()), {}, ctx.stream());
}

aclError RunEluGradV2(OpContext& ctx, const EluGradV2Attrs& a) {
  return Gradient(ctx, a.is_result ? EwOp::kEluBackwardResult : EwOp::kEluBackward, F(a.alpha), F(a.scale),
                  F(a.input_scale));
}
aclError RunHardShrinkGrad(OpContext& ctx, const HardShrinkGradAttrs& a) {
  return Gradient(ctx, EwOp::kShrinkBackward, F(a.lambd));
}
aclError RunHardSigmoidGrad(OpContext& ctx, const HardSigmoidGradAttrs&) {
  return Gradient(ctx, EwOp::kHardsigmoidBackward);
}
aclError RunHardSwishGrad(OpContext& ctx, const HardSwishGradAttrs&) { return Gradient(ctx, EwOp::kHardswishBackward); }
aclError RunLeakyReluGrad(OpContext& ctx, const LeakyReluGradAttrs& a) {
  return Gradient(ctx, EwOp::kLeakyReluBackward, F(a.negative_slope));
}
aclError RunLogSigmoidGrad(OpContext& ctx, const LogSigmoidGradAttrs&) {
  return Gradient(ctx, EwOp::kLogSigmoidBackward);
}
aclError RunMishGrad(OpContext& ctx, const MishGradAttrs&) { return Gradient(ctx, EwOp::kMishBackward); }
aclError RunSoftplusV2Grad(OpContext& ctx, const SoftplusV2GradAttrs& a) {
  return Gradient(ctx, EwOp::kSmoothReluBackward, F(a.beta), F(a.threshold));
}
aclError RunSoftShrinkGrad(OpContext& ctx, const SoftShrinkGradAttrs& a) {
  return Gradient(ctx, EwOp::kShrinkBackward, F(a.lambd));
}

// HardtanhGrad's inputs come as (forward input, gradient).
aclError RunHardtanhGrad(OpContext& ctx, const HardtanhGradAttrs& a) {
  return RunElementwiseBroadcast(ctx, EwOp::kHardtanhBackward, {1, 0}, F(a.min_val), F(a.max_val));
}

aclError RunGLUGrad(OpContext& ctx, const GLUGradAttrs& a) {
  const OpOperand& grad = ctx.inputs[0];
  const OpOperand& x = ctx.inputs[1];
  const OpOperand& dx = ctx.outputs[0];
  size_t dim = 0;
  aclError rc = GluDim(ctx, x, a.dim, &dim);
  if (rc != ACL_SUCCESS) return rc;
  if (grad.shape() != HalfShape(x.shape(), dim)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input y_grad has shape %s; expected %s",
                    ShapeToString(grad.shape()).c_str(), ShapeToString(HalfShape(x.shape(), dim)).c_str());
  }
  if ((rc = ctx.RequireSameShape(x, "input x", dx, "output x_grad")) != ACL_SUCCESS) return rc;
  if (dx.Numel() == 0) return ACL_SUCCESS;
  void* halves[2] = {nullptr, nullptr};
  if ((rc = SplitHalves(ctx, 1, dim, halves)) != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(grad.Numel());
  void* gradHalf = nullptr;
  if ((rc = ctx.AllocTemp(n * DataTypeSize(dx.dtype()), &gradHalf)) != ACL_SUCCESS) return rc;
  kernels::EwArgs first;
  first.op = EwOp::kGluBackwardFirst;
  first.dtype = dx.dtype();
  first.x[0] = grad.data;
  first.x[1] = halves[1];
  first.y = gradHalf;
  first.n = n;
  if ((rc = kernels::LaunchElementwise(first, ctx.stream())) != ACL_SUCCESS) return rc;
  if ((rc = CopyHalf(ctx, dx.dtype(), dx.shape(), dim, 0, dx.data, gradHalf, false)) != ACL_SUCCESS) return rc;
  kernels::EwArgs second = first;
  second.op = EwOp::kGluBackwardSecond;
  second.x[1] = halves[0];
  second.x[2] = halves[1];
  // The temporary is free again: the stream runs the copy above before this launch.
  if ((rc = kernels::LaunchElementwise(second, ctx.stream())) != ACL_SUCCESS) return rc;
  return CopyHalf(ctx, dx.dtype(), dx.shape(), dim, 1, dx.data, gradHalf, false);
}

}  // namespace aclop
}  // namespace ascendc_sim
