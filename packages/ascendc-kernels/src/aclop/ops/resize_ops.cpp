// acl_op types ResizeNearestNeighborV2, ResizeBilinearV2 and their gradients (declared in
// abi/aclop/resize.decl) on the resampling kernels: the last two dimensions of x are resized to the
// constant size with the position rule the attributes select (the gradients: the adjoint); the leading
// dimensions are the kernel's planes.
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

// The problem of an (N, C, H, W) `shape` resized to (N, C, size) by `rule` on both axes; its resized shape.
aclError ResizeProblem(OpContext& ctx, const std::vector<int64_t>& shape, const char* name,
                       const std::vector<int64_t>& size, k::AxisRule rule, bool alignCorners, k::ResampleArgs* args,
                       std::vector<int64_t>* outShape) {
  if (shape.size() != 4) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s of shape %s must be 4-D (N, C, H, W)", name,
                    ShapeToString(shape).c_str());
  }
  if (size.size() != 2 || size[0] < 1 || size[1] < 1 || shape[2] < 1 || shape[3] < 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "size %s must hold two positive sizes (H, W) for %s of shape %s",
                    ShapeToString(size).c_str(), name, ShapeToString(shape).c_str());
  }
  args->planes = shape[0] * shape[1];
  args->axis[0] = k::ResampleAxis();
  for (int a = 1; a < k::kResampleAxes; ++a) {
    k::ResampleAxis& ax = args->axis[a];
    ax = k::ResampleAxis();
    ax.rule = rule;
    ax.in = shape[static_cast<size_t>(a + 1)];
    ax.out = size[static_cast<size_t>(a - 1)];
    ax.alignCorners = alignCorners;
  }
  *outShape = {shape[0], shape[1], size[0], size[1]};
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

// y = x resized to the constant input 1 by `rule`.
aclError RunResize(OpContext& ctx, k::AxisRule rule, bool alignCorners) {
  std::vector<int64_t> size, outShape;
  k::ResampleArgs args;
  aclError rc = ConstantInts(ctx, 1, "size", &size);
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
  const std::vector<int64_t> size = g.size() == 4 ? std::vector<int64_t>{g[2], g[3]} : std::vector<int64_t>{};
  std::vector<int64_t> outShape;
  k::ResampleArgs args;
  aclError rc = ResizeProblem(ctx, shape, name, size, rule, alignCorners, &args, &outShape);
  if (rc == ACL_SUCCESS) rc = RequireShape(ctx, grads, "input grads", outShape);
  if (rc == ACL_SUCCESS) rc = RequireShape(ctx, ctx.outputs[0], "output y", shape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleBackward(ctx, args, grads, ctx.outputs[0]);
}

}  // namespace

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

}  // namespace aclop
}  // namespace ascendc_sim
