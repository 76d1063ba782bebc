// acl_op types AdaptiveAvgPool2d, AdaptiveAvgPool2dGrad, AdaptiveAvgPool3d, AdaptiveAvgPool3dGrad, AvgPoolV2,
// AvgPoolV2Grad, AvgPool3D and AvgPool3DGrad (declared in abi/aclop/pool.decl) on the resampling kernels with the adaptive and
// window-average axis rules of the aclnn pooling entry points: the last two (three) dimensions are the
// kernel's axes, the others its planes.
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "aclop/ops/resample_run.h"
#include "common/error.h"

namespace ascendc_sim {
namespace aclop {
namespace {

namespace k = kernels;

aclError Describe2d(OpContext& ctx, const std::vector<int64_t>& shape, const char* name, k::ResampleArgs* args) {
  return DescribeSpatial(ctx, shape, 2, name, args);
}

// The adaptive problem of `shape` pooled to the sizes `sizes` of its `spatial` (2: H, W; 3: D, H, W) trailing
// dimensions.
aclError AdaptiveProblem(OpContext& ctx, const std::vector<int64_t>& shape, const char* name, int spatial,
                         const std::vector<int64_t>& sizes, const char* sizesName, k::ResampleArgs* args) {
  aclError rc = DescribeSpatial(ctx, shape, spatial, name, args);
  if (rc != ACL_SUCCESS) return rc;
  bool valid = sizes.size() == static_cast<size_t>(spatial);
  for (int64_t size : sizes) valid = valid && size >= 0;
  if (!valid) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute %s %s must hold %s", sizesName, ShapeToString(sizes).c_str(),
                    spatial == 2 ? "two sizes (H, W)" : "three sizes (D, H, W)");
  }
  for (int a = k::kResampleAxes - spatial; a < k::kResampleAxes; ++a) {
    args->axis[a].rule = k::AxisRule::kAdaptive;
    args->axis[a].out = sizes[static_cast<size_t>(a - (k::kResampleAxes - spatial))];
  }
  return ACL_SUCCESS;
}

aclError RequireNcdhw(OpContext& ctx, const std::string& dataFormat) {
  if (dataFormat == "NCDHW") return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "data_format '%s' is not supported (NCDHW is)", dataFormat.c_str());
}

// The window-average axes of the `spatial` trailing dimensions (args described): windows kernel moved by
// stride, placed by the leading pads pad, the output sizes by PyTorch's formula.
aclError WindowAxes(OpContext& ctx, int spatial, const int64_t* kernel, const int64_t* stride, const int64_t* pad,
                    bool ceilMode, bool countIncludePad, k::ResampleArgs* args) {
  for (int i = 0; i < spatial; ++i) {
    k::ResampleAxis& ax = args->axis[k::kResampleAxes - spatial + i];
    if (kernel[i] < 1 || stride[i] < 1 || pad[i] < 0 || pad[i] > kernel[i] / 2) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "window %lld, stride %lld and padding %lld are not a valid window",
                      static_cast<long long>(kernel[i]), static_cast<long long>(stride[i]),
                      static_cast<long long>(pad[i]));
    }
    ax.rule = k::AxisRule::kAvgWindow;
    ax.kernel = kernel[i];
    ax.stride = stride[i];
    ax.pad = pad[i];
    ax.countIncludePad = countIncludePad;
    ax.out = PooledSize(ax.in, ax.kernel, pad[i], ax.stride, 1, ceilMode);
    if (ax.out < 1) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "the pooled size of %lld is too small", static_cast<long long>(ax.in));
    }
  }
  return ACL_SUCCESS;
}

// The window-average problem of `shape` (the unpooled input) with AvgPoolV2's attributes.
template <typename Attrs>
aclError AvgPoolProblem(OpContext& ctx, const std::vector<int64_t>& shape, const char* name, const Attrs& attrs,
                        k::ResampleArgs* args) {
  if (attrs.padding_mode != "CALCULATED" || attrs.data_format != "NCHW" || attrs.global_pooling) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "padding_mode '%s', data_format '%s' and global_pooling %d are not supported (CALCULATED, NCHW "
                    "and false are)", attrs.padding_mode.c_str(), attrs.data_format.c_str(),
                    attrs.global_pooling ? 1 : 0);
  }
  if (attrs.ksize.size() != 4 || attrs.strides.size() != 4 || attrs.pads.size() != 4 || attrs.ksize[0] != 1 ||
      attrs.ksize[1] != 1 || attrs.strides[0] != 1 || attrs.strides[1] != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "ksize %s and strides %s must be (1, 1, h, w), pads %s four values",
                    ShapeToString(attrs.ksize).c_str(), ShapeToString(attrs.strides).c_str(),
                    ShapeToString(attrs.pads).c_str());
  }
  aclError rc = Describe2d(ctx, shape, name, args);
  if (rc != ACL_SUCCESS) return rc;
  args->divisorOverride = attrs.divisor_override;
  const int64_t pads[2] = {attrs.pads[0], attrs.pads[2]};  // pads hold (top, bottom, left, right)
  return WindowAxes(ctx, 2, &attrs.ksize[2], &attrs.strides[2], pads, attrs.ceil_mode, !attrs.exclusive, args);
}

// The window-average problem of `shape` with AvgPool3D's attributes: ksize and strides (D, H, W, or
// N, C, D, H, W with 1, 1), pads (front, back, top, bottom, left, right).
template <typename Attrs>
aclError AvgPool3dProblem(OpContext& ctx, const std::vector<int64_t>& shape, const char* name, const Attrs& attrs,
                          k::ResampleArgs* args) {
  if (attrs.data_format != "NCDHW") {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "data_format '%s' is not supported (NCDHW is)",
                    attrs.data_format.c_str());
  }
  const auto spatial3 = [](const std::vector<int64_t>& v) {
    return v.size() == 3 || (v.size() == 5 && v[0] == 1 && v[1] == 1);
  };
  if (!spatial3(attrs.ksize) || !spatial3(attrs.strides) || attrs.pads.size() != 6) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "ksize %s and strides %s must be (d, h, w), pads %s six values",
                    ShapeToString(attrs.ksize).c_str(), ShapeToString(attrs.strides).c_str(),
                    ShapeToString(attrs.pads).c_str());
  }
  aclError rc = DescribeSpatial(ctx, shape, 3, name, args);
  if (rc != ACL_SUCCESS) return rc;
  args->divisorOverride = attrs.divisor_override;
  const int64_t pads[3] = {attrs.pads[0], attrs.pads[2], attrs.pads[4]};
  return WindowAxes(ctx, 3, &attrs.ksize[attrs.ksize.size() - 3], &attrs.strides[attrs.strides.size() - 3], pads,
                    attrs.ceil_mode, attrs.count_include_pad, args);
}

}  // namespace

aclError RunAdaptiveAvgPool2d(OpContext& ctx, const AdaptiveAvgPool2dAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  k::ResampleArgs args;
  aclError rc = AdaptiveProblem(ctx, x.shape(), "input x", 2, attrs.output_size, "output_size", &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, ctx.outputs[0], "output y", Pooled(x.shape(), args));
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, x, ctx.outputs[0]);
}

aclError RunAdaptiveAvgPool2dGrad(OpContext& ctx, const AdaptiveAvgPool2dGradAttrs& attrs) {
  const OpOperand& grad = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  const std::vector<int64_t>& shape = attrs.orig_input_shape;
  const std::vector<int64_t> sizes(grad.shape().end() - std::min<size_t>(2, grad.shape().size()), grad.shape().end());
  k::ResampleArgs args;
  aclError rc = AdaptiveProblem(ctx, shape, "attribute orig_input_shape", 2, sizes, "input_grad's sizes", &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, grad, "input input_grad", Pooled(shape, args));
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, y, "output y_grad", shape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleBackward(ctx, args, grad, y);
}

aclError RunAdaptiveAvgPool3d(OpContext& ctx, const AdaptiveAvgPool3dAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  k::ResampleArgs args;
  aclError rc = RequireNcdhw(ctx, attrs.data_format);
  if (rc == ACL_SUCCESS) rc = AdaptiveProblem(ctx, x.shape(), "input x", 3, attrs.output_size, "output_size", &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, ctx.outputs[0], "output y", Pooled(x.shape(), args));
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, x, ctx.outputs[0]);
}

aclError RunAdaptiveAvgPool3dGrad(OpContext& ctx, const AdaptiveAvgPool3dGradAttrs& attrs) {
  const OpOperand& grad = ctx.inputs[0];
  const std::vector<int64_t>& shape = ctx.inputs[1].shape();
  const OpOperand& xGrad = ctx.outputs[0];
  const std::vector<int64_t> sizes(grad.shape().end() - std::min<size_t>(3, grad.shape().size()), grad.shape().end());
  k::ResampleArgs args;
  aclError rc = RequireNcdhw(ctx, attrs.data_format);
  if (rc == ACL_SUCCESS) rc = AdaptiveProblem(ctx, shape, "input x", 3, sizes, "y_grad's sizes", &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, grad, "input y_grad", Pooled(shape, args));
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, xGrad, "output x_grad", shape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleBackward(ctx, args, grad, xGrad);
}

aclError RunAvgPoolV2(OpContext& ctx, const AvgPoolV2Attrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  k::ResampleArgs args;
  aclError rc = AvgPoolProblem(ctx, x.shape(), "input x", attrs, &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, ctx.outputs[0], "output y", Pooled(x.shape(), args));
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, x, ctx.outputs[0]);
}

aclError RunAvgPoolV2Grad(OpContext& ctx, const AvgPoolV2GradAttrs& attrs) {
  std::vector<int64_t> shape;
  aclError rc = ConstantInts(ctx, 0, "orig_input_shape", &shape);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& grad = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  k::ResampleArgs args;
  rc = AvgPoolProblem(ctx, shape, "input orig_input_shape", attrs, &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, grad, "input input_grad", Pooled(shape, args));
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, y, "output out_grad", shape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleBackward(ctx, args, grad, y);
}

aclError RunAvgPool3D(OpContext& ctx, const AvgPool3DAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  k::ResampleArgs args;
  aclError rc = AvgPool3dProblem(ctx, x.shape(), "input x", attrs, &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, ctx.outputs[0], "output y", Pooled(x.shape(), args));
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, x, ctx.outputs[0]);
}

aclError RunAvgPool3DGrad(OpContext& ctx, const AvgPool3DGradAttrs& attrs) {
  std::vector<int64_t> shape;
  aclError rc = ConstantInts(ctx, 0, "orig_input_shape", &shape);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& grad = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  k::ResampleArgs args;
  rc = AvgPool3dProblem(ctx, shape, "input orig_input_shape", attrs, &args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, grad, "input grads", Pooled(shape, args));
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, y, "output output", shape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleBackward(ctx, args, grad, y);
}

}  // namespace aclop
}  // namespace ascendc_sim
