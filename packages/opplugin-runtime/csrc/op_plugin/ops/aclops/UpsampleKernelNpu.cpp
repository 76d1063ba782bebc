// Interpolation on the acl_op path: upsample_nearest1d/2d ("ResizeNearestNeighborV2", the output sizes as an
// int32 constant, floor positions; 1-D runs as H = 1) and upsample_bilinear2d ("ResizeBilinearV2",
// half_pixel_centers = !align_corners). These types derive the source positions from the sizes alone, so a
// scale factor that places them otherwise is refused (op_plugin/utils/UpsampleUtils) rather than ignored.
// Shapes come from ATen's meta functions (structured ops); an internal-format input is converted to its base
// format, an internal-format or strided out is written through a base-format temporary.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "op_plugin/ops/upsample_bilinear2d.h"
#include "op_plugin/ops/upsample_nearest1d.h"
#include "op_plugin/ops/upsample_nearest2d.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/UpsampleUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using op_plugin::utils::check_size_derived_scale;
using op_plugin::utils::check_upsample_dtype;

// The scale the op_api path's nearest kernels read (they take it as float).
c10::optional<double> nearest_scale(c10::optional<double> scale) {
  if (!scale.has_value()) return scale;
  return static_cast<double>(static_cast<float>(*scale));
}

// out (N, C, H', W', or the 1-D N, C, W' seen as N, C, 1, W') <- `type` of input (N, C, H, W) resized to
// `size` (H', W').
at::Tensor& resize_nocheck(const char* type, const at::Tensor& input, std::vector<int64_t> size, bool one_d,
                           bool align_corners, bool half_pixel_centers, at::Tensor& out) {
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    at::Tensor y = one_d ? result.unsqueeze(2) : result;
    OpCommand cmd;
    cmd.Name(type);
    op_plugin::utils::AddInputAs(cmd, one_d ? input.unsqueeze(2) : input, result.scalar_type());
    cmd.Input(at::IntArrayRef(size), at::kInt)
        .Output(y)
        .Attr("align_corners", align_corners)
        .Attr("half_pixel_centers", half_pixel_centers)
        .Run();
  });
}

}  // namespace

at::Tensor& upsample_nearest1d_out(const at::Tensor& self, at::IntArrayRef output_size,
                                   c10::optional<double> scales, at::Tensor& out) {
  const char* op = "upsample_nearest1d";
  check_upsample_dtype(op, self, true);
  check_size_derived_scale(op, "ResizeNearestNeighborV2", "scales", self.size(2), output_size[0],
                           nearest_scale(scales), false, true, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return resize_nocheck("ResizeNearestNeighborV2", self, {1, output_size[0]}, true, false, false, out);
}

at::Tensor& upsample_nearest2d_out(const at::Tensor& self, at::IntArrayRef output_size,
                                   c10::optional<double> scales_h, c10::optional<double> scales_w,
                                   at::Tensor& out) {
  const char* op = "upsample_nearest2d";
  check_upsample_dtype(op, self, true);
  check_size_derived_scale(op, "ResizeNearestNeighborV2", "scales_h", self.size(2), output_size[0],
                           nearest_scale(scales_h), false, true, self.scalar_type());
  check_size_derived_scale(op, "ResizeNearestNeighborV2", "scales_w", self.size(3), output_size[1],
                           nearest_scale(scales_w), false, true, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return resize_nocheck("ResizeNearestNeighborV2", self, {output_size[0], output_size[1]}, false, false, false,
                        out);
}

at::Tensor& upsample_bilinear2d_out(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                                    c10::optional<double> scales_h, c10::optional<double> scales_w,
                                    at::Tensor& out) {
  const char* op = "upsample_bilinear2d";
  check_upsample_dtype(op, self, false);
  check_size_derived_scale(op, "ResizeBilinearV2", "scales_h", self.size(2), output_size[0], scales_h,
                           align_corners, false, self.scalar_type());
  check_size_derived_scale(op, "ResizeBilinearV2", "scales_w", self.size(3), output_size[1], scales_w,
                           align_corners, false, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return resize_nocheck("ResizeBilinearV2", self, {output_size[0], output_size[1]}, false, align_corners,
                        !align_corners, out);
}

}  // namespace acl_op
