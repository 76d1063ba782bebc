// acl_op types ResizeNearestNeighborV2 and ResizeBilinearV2 (declared in abi/aclop/resize.decl) on the
// resampling kernels: the last two dimensions of x are resized to the constant size with the position rule
// the attributes select; the leading dimensions are the kernel's planes.
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

// The problem of x resized to the constant input 1 (out_h, out_w) by `rule` on both axes.
aclError ResizeProblem(OpContext& ctx, k::AxisRule rule, bool alignCorners, k::ResampleArgs* args,
                       std::vector<int64_t>* outShape) {
  std::vector<int64_t> size;
  aclError rc = ConstantInts(ctx, 1, "size", &size);
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& shape = ctx.inputs[0].shape();
  if (shape.size() != 4) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x of shape %s must be 4-D (N, C, H, W)",
                    ShapeToString(shape).c_str());
  }
  if (size.size() != 2 || size[0] < 1 || size[1] < 1 || shape[2] < 1 || shape[3] < 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input size %s must hold two positive sizes (H, W) for x of shape %s",
                    ShapeToString(size).c_str(), ShapeToString(shape).c_str());
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
  const OpOperand& y = ctx.outputs[0];
  if (y.shape() != *outShape) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(*outShape).c_str());
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError RunResizeNearestNeighborV2(OpContext& ctx, const ResizeNearestNeighborV2Attrs& attrs) {
  if (attrs.align_corners) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "align_corners (rounded corner-aligned positions) is not supported (floor positions are)");
  }
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  const k::AxisRule rule = attrs.half_pixel_centers ? k::AxisRule::kNearestExact : k::AxisRule::kNearest;
  aclError rc = ResizeProblem(ctx, rule, false, &args, &outShape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, ctx.inputs[0], ctx.outputs[0]);
}

aclError RunResizeBilinearV2(OpContext& ctx, const ResizeBilinearV2Attrs& attrs) {
  if (attrs.align_corners && attrs.half_pixel_centers) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "align_corners and half_pixel_centers cannot both be set");
  }
  if (!attrs.align_corners && !attrs.half_pixel_centers) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "positions o * in / out (neither align_corners nor half_pixel_centers) are not supported");
  }
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  aclError rc = ResizeProblem(ctx, k::AxisRule::kLinear, attrs.align_corners, &args, &outShape);
  if (rc != ACL_SUCCESS) return rc;
  return RunResampleForward(ctx, args, ctx.inputs[0], ctx.outputs[0]);
}

}  // namespace aclop
}  // namespace ascendc_sim
