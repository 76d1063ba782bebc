// Interpolation on the acl_op path: upsample_nearest1d/2d ("ResizeNearestNeighborV2", the output sizes as an
// int32 constant, floor positions; 1-D runs as H = 1) and upsample_bilinear2d ("ResizeBilinearV2",
// half_pixel_centers = !align_corners), and their backwards ("ResizeNearestNeighborV2Grad" with the input's
// sizes as the constant, "ResizeBilinearV2Grad" with a tensor of the input's shape); upsample_nearest3d and
// upsample_trilinear3d (+ backward) on "UpsampleNearest3d" / "UpsampleTrilinear3d" (and their "...Grad") with
// output_size (input_size) attributes. These types derive the source positions from the sizes alone, so a
// scale factor that places them otherwise is refused (op_plugin/utils/UpsampleUtils) rather than ignored.
// upsample_linear1d and upsample_bicubic2d (+ backward) run "ResizeD" / "ResizeGradD" (NCHW), whose float
// scales attribute carries the scale factors (0: none).
// Shapes come from ATen's meta functions (structured ops); an internal-format input is converted to its base
// format, an internal-format or strided out is written through a base-format temporary.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <functional>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/upsample_bicubic2d.h"
#include "op_plugin/ops/upsample_bicubic2d_backward.h"
#include "op_plugin/ops/upsample_bilinear2d.h"
#include "op_plugin/ops/upsample_bilinear2d_backward.h"
#include "op_plugin/ops/upsample_linear1d.h"
#include "op_plugin/ops/upsample_linear1d_backward.h"
#include "op_plugin/ops/upsample_nearest1d.h"
#include "op_plugin/ops/upsample_nearest1d_backward.h"
#include "op_plugin/ops/upsample_nearest2d.h"
#include "op_plugin/ops/upsample_nearest2d_backward.h"
#include "op_plugin/ops/upsample_nearest3d.h"
#include "op_plugin/ops/upsample_nearest3d_backward.h"
#include "op_plugin/ops/upsample_trilinear3d.h"
#include "op_plugin/ops/upsample_trilinear3d_backward.h"
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

// grad_input (input_size) <- `type`'s gradient for grad_output, with the constant input `size` when given
// (ResizeNearestNeighborV2Grad: the input's H, W), else the input's shape as a tensor (ResizeBilinearV2Grad's
// original_image, of which only the shape is read).
at::Tensor& resize_grad_nocheck(const char* type, const at::Tensor& grad_output, std::vector<int64_t> size,
                                at::IntArrayRef input_size, bool one_d, bool align_corners,
                                bool half_pixel_centers, at::Tensor& grad_input) {
  return op_plugin::utils::write_through_base_format(grad_input, [&](at::Tensor& result) {
    at::Tensor y = one_d ? result.unsqueeze(2) : result;
    OpCommand cmd;
    cmd.Name(type);
    op_plugin::utils::AddInputAs(cmd, one_d ? grad_output.unsqueeze(2) : grad_output, result.scalar_type());
    if (!size.empty()) {
      cmd.Input(at::IntArrayRef(size), at::kInt);
    } else {
      cmd.Input(at_npu::native::OpPreparation::apply_tensor_without_format(input_size, result.options()));
    }
    cmd.Output(y).Attr("align_corners", align_corners).Attr("half_pixel_centers", half_pixel_centers).Run();
  });
}

// out <- the 3-D `type` of input with the attributes `attrs` adds (output_size, input_size, align_corners).
at::Tensor& upsample3d_nocheck(const char* type, const at::Tensor& input, at::Tensor& out,
                               const std::function<void(OpCommand&)>& attrs) {
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name(type);
    op_plugin::utils::AddInputAs(cmd, input, result.scalar_type());
    cmd.Output(result);
    attrs(cmd);
    cmd.Run();
  });
}

// The scale checks of the three axes (D, H, W) of a 3-D interpolation from `in` to `out`.
void check_scales_3d(const char* op, const char* type, at::IntArrayRef in, at::IntArrayRef out,
                     c10::optional<double> scales_d, c10::optional<double> scales_h, c10::optional<double> scales_w,
                     bool align_corners, bool nearest, at::ScalarType dtype) {
  const char* names[3] = {"scales_d", "scales_h", "scales_w"};
  const c10::optional<double> scales[3] = {scales_d, scales_h, scales_w};
  for (size_t i = 0; i < 3; ++i) {
    check_size_derived_scale(op, type, names[i], in[i], out[i], scales[i], align_corners, nearest, dtype);
  }
}

// out <- "ResizeD" of input (N, C, H, W; the 1-D N, C, W as N, C, 1, W) resized to `sizes` (W', or H', W')
// by `mode`, with the scales (0: none) as its float scales attribute.
at::Tensor& resize_d_nocheck(const at::Tensor& input, std::vector<int64_t> sizes, std::vector<float> scales,
                             const char* mode, bool align_corners, at::Tensor& out) {
  const bool one_d = input.dim() == 3;
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    at::Tensor y = one_d ? result.unsqueeze(2) : result;
    OpCommand cmd;
    cmd.Name("ResizeD");
    op_plugin::utils::AddInputAs(cmd, one_d ? input.unsqueeze(2) : input, result.scalar_type());
    cmd.Output(y)
        .Attr("sizes", at::IntArrayRef(sizes))
        .Attr("scales", c10::ArrayRef<float>(scales))
        .Attr("coordinate_transformation_mode", align_corners ? "align_corners" : "half_pixel")
        .Attr("cubic_coeff_a", -0.75f)
        .Attr("mode", mode)
        .Run();
  });
}

// grad_input (input_size) <- "ResizeGradD" of grad_output (N, C, H', W'; the 1-D N, C, W' as N, C, 1, W'), NCHW.
at::Tensor& resize_grad_d_nocheck(const at::Tensor& grad_output, at::IntArrayRef input_size,
                                  std::vector<float> scales, const char* mode, bool align_corners,
                                  at::Tensor& grad_input) {
  const bool one_d = grad_output.dim() == 3;
  return op_plugin::utils::write_through_base_format(grad_input, [&](at::Tensor& result) {
    at::Tensor y = one_d ? result.unsqueeze(2) : result;
    OpCommand cmd;
    cmd.Name("ResizeGradD");
    op_plugin::utils::AddInputAs(cmd, one_d ? grad_output.unsqueeze(2) : grad_output, result.scalar_type());
    cmd.Output(y)
        .Attr("original_size", input_size)
        .Attr("scales", c10::ArrayRef<float>(scales))
        .Attr("coordinate_transformation_mode", align_corners ? "align_corners" : "half_pixel")
        .Attr("cubic_coeff_a", -0.75f)
        .Attr("mode", mode)
        .Attr("data_format", "NCHW")
        .Run();
  });
}

float scale_attr(c10::optional<double> scale) { return static_cast<float>(scale.value_or(0.0)); }

}  // namespace

at::Tensor& upsample_nearest1d_out(const at::Tensor& self, at::IntArrayRef output_size,
                                   c10::optional<double> scales, at::Tensor& out) {
  const char* op = "upsample_nearest1d";
  check_upsample_dtype(op, "self", self, true);
  check_size_derived_scale(op, "ResizeNearestNeighborV2", "scales", self.size(2), output_size[0],
                           nearest_scale(scales), false, true, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return resize_nocheck("ResizeNearestNeighborV2", self, {1, output_size[0]}, true, false, false, out);
}

at::Tensor& upsample_nearest2d_out(const at::Tensor& self, at::IntArrayRef output_size,
                                   c10::optional<double> scales_h, c10::optional<double> scales_w,
                                   at::Tensor& out) {
  const char* op = "upsample_nearest2d";
  check_upsample_dtype(op, "self", self, true);
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
  check_upsample_dtype(op, "self", self, false);
  check_size_derived_scale(op, "ResizeBilinearV2", "scales_h", self.size(2), output_size[0], scales_h,
                           align_corners, false, self.scalar_type());
  check_size_derived_scale(op, "ResizeBilinearV2", "scales_w", self.size(3), output_size[1], scales_w,
                           align_corners, false, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return resize_nocheck("ResizeBilinearV2", self, {output_size[0], output_size[1]}, false, align_corners,
                        !align_corners, out);
}

at::Tensor& upsample_nearest1d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                            at::IntArrayRef input_size, c10::optional<double> scales,
                                            at::Tensor& grad_input) {
  const char* op = "upsample_nearest1d_backward";
  check_upsample_dtype(op, "grad_output", grad_output, false);
  check_size_derived_scale(op, "ResizeNearestNeighborV2Grad", "scales", input_size[2], output_size[0],
                           scales, false, true, grad_output.scalar_type());
  c10_npu::NPUGuard guard(grad_output.device());
  return resize_grad_nocheck("ResizeNearestNeighborV2Grad", grad_output, {1, input_size[2]}, input_size, true,
                             false, false, grad_input);
}

at::Tensor& upsample_nearest2d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                            at::IntArrayRef input_size, c10::optional<double> scales_h,
                                            c10::optional<double> scales_w, at::Tensor& grad_input) {
  const char* op = "upsample_nearest2d_backward";
  check_upsample_dtype(op, "grad_output", grad_output, false);
  check_size_derived_scale(op, "ResizeNearestNeighborV2Grad", "scales_h", input_size[2], output_size[0],
                           scales_h, false, true, grad_output.scalar_type());
  check_size_derived_scale(op, "ResizeNearestNeighborV2Grad", "scales_w", input_size[3], output_size[1],
                           scales_w, false, true, grad_output.scalar_type());
  c10_npu::NPUGuard guard(grad_output.device());
  return resize_grad_nocheck("ResizeNearestNeighborV2Grad", grad_output, {input_size[2], input_size[3]}, input_size,
                             false, false, false, grad_input);
}

at::Tensor& upsample_bilinear2d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                             at::IntArrayRef input_size, bool align_corners,
                                             c10::optional<double> scales_h, c10::optional<double> scales_w,
                                             at::Tensor& grad_input) {
  const char* op = "upsample_bilinear2d_backward";
  check_upsample_dtype(op, "grad_output", grad_output, false);
  check_size_derived_scale(op, "ResizeBilinearV2Grad", "scales_h", input_size[2], output_size[0], scales_h,
                           align_corners, false, grad_output.scalar_type());
  check_size_derived_scale(op, "ResizeBilinearV2Grad", "scales_w", input_size[3], output_size[1], scales_w,
                           align_corners, false, grad_output.scalar_type());
  c10_npu::NPUGuard guard(grad_output.device());
  return resize_grad_nocheck("ResizeBilinearV2Grad", grad_output, {}, input_size, false, align_corners,
                             !align_corners, grad_input);
}

at::Tensor& upsample_nearest3d_out(const at::Tensor& self, at::IntArrayRef output_size,
                                   c10::optional<double> scales_d, c10::optional<double> scales_h,
                                   c10::optional<double> scales_w, at::Tensor& out) {
  const char* op = "upsample_nearest3d";
  check_upsample_dtype(op, "self", self, true);
  check_scales_3d(op, "UpsampleNearest3d", self.sizes().slice(2), output_size, scales_d, scales_h, scales_w, false,
                  true, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return upsample3d_nocheck("UpsampleNearest3d", self, out,
                            [&](OpCommand& cmd) { cmd.Attr("output_size", output_size); });
}

at::Tensor& upsample_nearest3d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                            at::IntArrayRef input_size, c10::optional<double> scales_d,
                                            c10::optional<double> scales_h, c10::optional<double> scales_w,
                                            at::Tensor& grad_input) {
  const char* op = "upsample_nearest3d_backward";
  check_upsample_dtype(op, "grad_output", grad_output, false);
  check_scales_3d(op, "UpsampleNearest3dGrad", input_size.slice(2), output_size, scales_d, scales_h, scales_w,
                  false, true, grad_output.scalar_type());
  c10_npu::NPUGuard guard(grad_output.device());
  return upsample3d_nocheck("UpsampleNearest3dGrad", grad_output, grad_input, [&](OpCommand& cmd) {
    cmd.Attr("input_size", input_size).Attr("output_size", output_size);
  });
}

at::Tensor& upsample_trilinear3d_out(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                                     c10::optional<double> scales_d, c10::optional<double> scales_h,
                                     c10::optional<double> scales_w, at::Tensor& out) {
  const char* op = "upsample_trilinear3d";
  check_upsample_dtype(op, "self", self, false);
  check_scales_3d(op, "UpsampleTrilinear3d", self.sizes().slice(2), output_size, scales_d, scales_h, scales_w,
                  align_corners, false, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return upsample3d_nocheck("UpsampleTrilinear3d", self, out, [&](OpCommand& cmd) {
    cmd.Attr("output_size", output_size).Attr("align_corners", align_corners);
  });
}

at::Tensor& upsample_trilinear3d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                              at::IntArrayRef input_size, bool align_corners,
                                              c10::optional<double> scales_d, c10::optional<double> scales_h,
                                              c10::optional<double> scales_w, at::Tensor& grad_input) {
  const char* op = "upsample_trilinear3d_backward";
  check_upsample_dtype(op, "grad_output", grad_output, false);
  check_scales_3d(op, "UpsampleTrilinear3dGrad", input_size.slice(2), output_size, scales_d, scales_h, scales_w,
                  align_corners, false, grad_output.scalar_type());
  c10_npu::NPUGuard guard(grad_output.device());
  return upsample3d_nocheck("UpsampleTrilinear3dGrad", grad_output, grad_input, [&](OpCommand& cmd) {
    cmd.Attr("input_size", input_size).Attr("output_size", output_size).Attr("align_corners", align_corners);
  });
}

at::Tensor& upsample_linear1d_out(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                                  c10::optional<double> scales, at::Tensor& out) {
  check_upsample_dtype("upsample_linear1d", "self", self, false);
  c10_npu::NPUGuard guard(self.device());
  return resize_d_nocheck(self, {output_size[0]}, {scale_attr(scales)}, "linear", align_corners, out);
}

at::Tensor& upsample_bicubic2d_out(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                                   c10::optional<double> scales_h, c10::optional<double> scales_w,
                                   at::Tensor& out) {
  check_upsample_dtype("upsample_bicubic2d", "self", self, false);
  c10_npu::NPUGuard guard(self.device());
  return resize_d_nocheck(self, {output_size[0], output_size[1]}, {scale_attr(scales_h), scale_attr(scales_w)},
                          "cubic", align_corners, out);
}

at::Tensor& upsample_linear1d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                           at::IntArrayRef input_size, bool align_corners,
                                           c10::optional<double> scales, at::Tensor& grad_input) {
  check_upsample_dtype("upsample_linear1d_backward", "grad_output", grad_output, false);
  c10_npu::NPUGuard guard(grad_output.device());
  return resize_grad_d_nocheck(grad_output, input_size, {scale_attr(scales)}, "linear", align_corners, grad_input);
}

at::Tensor& upsample_bicubic2d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                            at::IntArrayRef input_size, bool align_corners,
                                            c10::optional<double> scales_h, c10::optional<double> scales_w,
                                            at::Tensor& grad_input) {
  check_upsample_dtype("upsample_bicubic2d_backward", "grad_output", grad_output, false);
  c10_npu::NPUGuard guard(grad_output.device());
  return resize_grad_d_nocheck(grad_output, input_size, {scale_attr(scales_h), scale_attr(scales_w)}, "cubic",
                               align_corners, grad_input);
}

}  // namespace acl_op
