// acl_op types ResizeNearestNeighborV2, ResizeBilinearV2, UpsampleNearest3d, UpsampleTrilinear3d, ResizeD and
// their gradients (declared in abi/aclop/resize.decl) on the resampling kernels: the trailing two (three)
// dimensions of x are resized to the constant size (the output_size attribute) with the position rule the
// attributes select (the gradients: the adjoint); the leading N, C are the kernel's planes.
#include <algorithm>
#include <cstddef>
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

// The problem of an (N, C, spatial sizes) `shape` resized to (N, C, size) by `rule` on its spatial axes;
// its resized shape.
aclError ResizeProblem(OpContext& ctx, const std::vector<int64_t>& shape, const char* name,
                       const std::vector<int64_t>& size, k::AxisRule rule, bool alignCorners, k::ResampleArgs* args,
                       std::vector<int64_t>* outShape) {
  const size_t spatial = size.size();
  if (spatial < 2 || spatial > static_cast<size_t>(k::kResampleAxes) || shape.size() != spatial + 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s of shape %s must be (N, C) and the %zu sizes of %s", name,
                    ShapeToString(shape).c_str(), spatial, ShapeToString(size).c_str());
  }
  args->planes = shape[0] * shape[1];
  *outShape = {shape[0], shape[1]};
  for (int a = 0; a < k::kResampleAxes; ++a) {
    k::ResampleAxis& ax = args->axis[a];
    ax = k::ResampleAxis();
    const int s = a - (k::kResampleAxes - static_cast<int>(spatial));
    if (s < 0) continue;
    ax.rule = rule;
    ax.in = shape[static_cast<size_t>(s) + 2];
    ax.out = size[static_cast<size_t>(s)];
    ax.alignCorners = alignCorners;
    if (ax.in < 1 || ax.out < 1) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "sizes %s must be positive for %s of shape %s",
                      ShapeToString(size).c_str(), name, ShapeToString(shape).c_str());
    }
    outShape->push_back(ax.out);
  }
  return ACL_SUCCESS;
}

aclError RequireShape(OpContext& ctx, const OpOperand& t, const char* name, const std::vector<int64_t>& shape) {
  if (t.shape() == shape) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, expected %s", name, ShapeToString(t.shape()).c_str(),
                  ShapeToString(shape).c_str());
}

// The nearest rule of ResizeNearestNeighborV2's attributes.
aclError NearestRule(OpContext& ctx, bool alignCorners, bool halfPixel, k::AxisRule* rule) {
  if (alignCorners) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "align_corners (rounded corner-aligned positions) is not supported (floor positions are)");
  }
  *rule = halfPixel ? k::AxisRule::kNearestExact : k::AxisRule::kNearest;
  return ACL_SUCCESS;
}

// ResizeBilinearV2's attributes: half-pixel or corner-aligned positions.
aclError BilinearAttrs(OpContext& ctx, bool alignCorners, bool halfPixel) {
  if (alignCorners && halfPixel) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "align_corners and half_pixel_centers cannot both be set");
  }
  if (!alignCorners && !halfPixel) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "positions o * in / out (neither align_corners nor half_pixel_centers) are not supported");
  }
  return ACL_SUCCESS;
}

// y = x resized to `size` (by default: the constant input 1) by `rule`.
aclError RunResize(OpContext& ctx, k::AxisRule rule, bool alignCorners, std::vector<int64_t> size = {}) {
  std::vector<int64_t> outShape;
  k::ResampleArgs args;
  aclError rc = size.empty() ? ConstantInts(ctx, 1, "size", &size) : ACL_SUCCESS;
  if (rc == ACL_SUCCESS) rc = ResizeProblem(ctx, ctx.inputs[0].shape(), "input x", size, rule, alignCorners, &args,
                                            &outShape);
  if (rc == ACL_SUCCESS) rc = RequireShape(ctx, ctx.outputs[0], "output y", outShape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, ctx.inputs[0], ctx.outputs[0]);
}

// y (`shape`) = the adjoint of resizing `shape` to grads' H, W by `rule`.
aclError RunResizeGrad(OpContext& ctx, const std::vector<int64_t>& shape, const char* name, k::AxisRule rule,
                       bool alignCorners) {
  const OpOperand& grads = ctx.inputs[0];
  const std::vector<int64_t>& g = grads.shape();
  std::vector<int64_t> size;
  if (g.size() == shape.size() && g.size() > 2) size.assign(g.begin() + 2, g.end());
  std::vector<int64_t> outShape;
  k::ResampleArgs args;
  aclError rc = ResizeProblem(ctx, shape, name, size, rule, alignCorners, &args, &outShape);
  if (rc == ACL_SUCCESS) rc = RequireShape(ctx, grads, "input grads", outShape);
  if (rc == ACL_SUCCESS) rc = RequireShape(ctx, ctx.outputs[0], "output y", shape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleBackward(ctx, args, grads, ctx.outputs[0]);
}

// The 3-D gradients: y (input_size, N, C, D, H, W) from grad_output (N, C, output_size).
aclError RunResizeGrad3d(OpContext& ctx, const std::vector<int64_t>& inputSize, const std::vector<int64_t>& outputSize,
                         k::AxisRule rule, bool alignCorners) {
  if (inputSize.size() != 5 || outputSize.size() != 3) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attributes input_size %s and output_size %s must hold (N, C, D, H, W) "
                    "and (D, H, W)", ShapeToString(inputSize).c_str(), ShapeToString(outputSize).c_str());
  }
  return RunResizeGrad(ctx, inputSize, "attribute input_size", rule, alignCorners);
}

// The problem of ResizeD's (or ResizeGradD's) attributes for the unresized `shape` and the trailing sizes
// `sizes`: linear or cubic taps with half-pixel or corner-aligned positions, the scales of `scales`.
template <typename Attrs>
aclError ResizeDProblem(OpContext& ctx, const std::vector<int64_t>& shape, const char* name,
                        const std::vector<int64_t>& sizes, const Attrs& attrs, k::ResampleArgs* args,
                        std::vector<int64_t>* outShape) {
  const std::string& mode = attrs.mode;
  const std::string& coordinates = attrs.coordinate_transformation_mode;
  if ((mode != "linear" && mode != "cubic") || (coordinates != "half_pixel" && coordinates != "align_corners") ||
      !attrs.roi.empty() || attrs.exclude_outside != 0 || (mode == "cubic" && attrs.cubic_coeff_a != -0.75f)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "mode '%s', coordinate_transformation_mode '%s', a roi of %zu values, exclude_outside %lld and "
                    "cubic_coeff_a %g are not supported (linear or cubic, half_pixel or align_corners, no roi, 0 and "
                    "-0.75 are)", mode.c_str(), coordinates.c_str(), attrs.roi.size(),
                    static_cast<long long>(attrs.exclude_outside), static_cast<double>(attrs.cubic_coeff_a));
  }
  if (shape.size() != 4 || sizes.empty() || sizes.size() > 2 ||
      (!attrs.scales.empty() && attrs.scales.size() != sizes.size())) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s of shape %s must be 4-D (N, C, H, W) with one or two sizes %s and "
                    "as many scales (or none), got %zu", name, ShapeToString(shape).c_str(),
                    ShapeToString(sizes).c_str(), attrs.scales.size());
  }
  std::vector<int64_t> full(shape.begin() + 2, shape.end());
  std::copy(sizes.begin(), sizes.end(), full.end() - static_cast<std::ptrdiff_t>(sizes.size()));
  const k::AxisRule rule = mode == "linear" ? k::AxisRule::kLinear : k::AxisRule::kCubic;
  aclError rc = ResizeProblem(ctx, shape, name, full, rule, coordinates == "align_corners", args, outShape);
  if (rc != ACL_SUCCESS) return rc;
  for (size_t i = 0; i < sizes.size(); ++i) {
    k::ResampleAxis& ax = args->axis[k::kResampleAxes - sizes.size() + i];
    if (!attrs.scales.empty() && attrs.scales[i] > 0.0f) ax.scale = static_cast<double>(attrs.scales[i]);
  }
  for (int a = 0; a < k::kResampleAxes - static_cast<int>(sizes.size()); ++a) {
    args->axis[a].rule = k::AxisRule::kIdentity;  // the leading H of a 1-D resize stays
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError RunResizeD(OpContext& ctx, const ResizeDAttrs& attrs) {
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  aclError rc = ResizeDProblem(ctx, ctx.inputs[0].shape(), "input x", attrs.sizes, attrs, &args, &outShape);
  if (rc == ACL_SUCCESS) rc = RequireShape(ctx, ctx.outputs[0], "output y", outShape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, ctx.inputs[0], ctx.outputs[0]);
}

aclError RunResizeGradD(OpContext& ctx, const ResizeGradDAttrs& attrs) {
  if (attrs.data_format != "NCHW") {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "data_format '%s' is not supported (NCHW is)",
                    attrs.data_format.c_str());
  }
  const OpOperand& grads = ctx.inputs[0];
  const std::vector<int64_t>& g = grads.shape();
  const size_t n = attrs.scales.size();
  if (n < 1 || n > 2 || g.size() != 4 || attrs.original_size.size() < n) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input grads %s must be 4-D, scales hold one or two values (got %zu) "
                    "and original_size %s as many trailing sizes", ShapeToString(g).c_str(), n,
                    ShapeToString(attrs.original_size).c_str());
  }
  std::vector<int64_t> shape = g;
  std::copy(attrs.original_size.end() - static_cast<std::ptrdiff_t>(n), attrs.original_size.end(),
            shape.end() - static_cast<std::ptrdiff_t>(n));
  const std::vector<int64_t> sizes(g.end() - static_cast<std::ptrdiff_t>(n), g.end());
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  aclError rc = ResizeDProblem(ctx, shape, "attribute original_size", sizes, attrs, &args, &outShape);
  if (rc == ACL_SUCCESS) rc = RequireShape(ctx, grads, "input grads", outShape);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  const auto squeezed = [](std::vector<int64_t> v) {
    v.erase(std::remove(v.begin(), v.end(), int64_t{1}), v.end());
    return v;
  };
  if (y.shape() != shape && squeezed(y.shape()) != squeezed(shape)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(shape).c_str());
  }
  return RunResampleBackward(ctx, args, grads, y);
}

aclError RunResizeNearestNeighborV2(OpContext& ctx, const ResizeNearestNeighborV2Attrs& attrs) {
  k::AxisRule rule = k::AxisRule::kNearest;
  const aclError rc = NearestRule(ctx, attrs.align_corners, attrs.half_pixel_centers, &rule);
  return rc != ACL_SUCCESS ? rc : RunResize(ctx, rule, false);
}

aclError RunResizeBilinearV2(OpContext& ctx, const ResizeBilinearV2Attrs& attrs) {
  const aclError rc = BilinearAttrs(ctx, attrs.align_corners, attrs.half_pixel_centers);
  return rc != ACL_SUCCESS ? rc : RunResize(ctx, k::AxisRule::kLinear, attrs.align_corners);
}

aclError RunResizeNearestNeighborV2Grad(OpContext& ctx, const ResizeNearestNeighborV2GradAttrs& attrs) {
  k::AxisRule rule = k::AxisRule::kNearest;
  std::vector<int64_t> size;
  aclError rc = NearestRule(ctx, attrs.align_corners, attrs.half_pixel_centers, &rule);
  if (rc == ACL_SUCCESS) rc = ConstantInts(ctx, 1, "size", &size);
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& g = ctx.inputs[0].shape();
  if (g.size() != 4 || size.size() != 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input grads %s must be 4-D and input size %s hold (H, W)",
                    ShapeToString(g).c_str(), ShapeToString(size).c_str());
  }
  return RunResizeGrad(ctx, {g[0], g[1], size[0], size[1]}, "the gradient y", rule, false);
}

aclError RunResizeBilinearV2Grad(OpContext& ctx, const ResizeBilinearV2GradAttrs& attrs) {
  const aclError rc = BilinearAttrs(ctx, attrs.align_corners, attrs.half_pixel_centers);
  if (rc != ACL_SUCCESS) return rc;
  return RunResizeGrad(ctx, ctx.inputs[1].shape(), "input original_image", k::AxisRule::kLinear,
                       attrs.align_corners);
}

aclError RunUpsampleNearest3d(OpContext& ctx, const UpsampleNearest3dAttrs& attrs) {
  if (attrs.output_size.size() != 3) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute output_size %s must hold (D, H, W)",
                    ShapeToString(attrs.output_size).c_str());
  }
  return RunResize(ctx, k::AxisRule::kNearest, false, attrs.output_size);
}

aclError RunUpsampleTrilinear3d(OpContext& ctx, const UpsampleTrilinear3dAttrs& attrs) {
  if (attrs.output_size.size() != 3) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute output_size %s must hold (D, H, W)",
                    ShapeToString(attrs.output_size).c_str());
  }
  return RunResize(ctx, k::AxisRule::kLinear, attrs.align_corners, attrs.output_size);
}

aclError RunUpsampleNearest3dGrad(OpContext& ctx, const UpsampleNearest3dGradAttrs& attrs) {
  return RunResizeGrad3d(ctx, attrs.input_size, attrs.output_size, k::AxisRule::kNearest, false);
}

aclError RunUpsampleTrilinear3dGrad(OpContext& ctx, const UpsampleTrilinear3dGradAttrs& attrs) {
  return RunResizeGrad3d(ctx, attrs.input_size, attrs.output_size, k::AxisRule::kLinear, attrs.align_corners);
}

}  // namespace aclop
}  // namespace ascendc_sim
