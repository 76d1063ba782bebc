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

// out <- `type` of input, whose 1-D form (N, C, W) runs as N, C, 1, W (`one_d`); `operands` adds what
// follows x (host constants, tensors) and the attributes.
at::Tensor& run_resize(const char* type, const at::Tensor& input, bool one_d, at::Tensor& out,
                       const std::function<void(OpCommand&, const at::Tensor&)>& operands) {
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    at::Tensor y = one_d ? result.unsqueeze(2) : result;
    OpCommand cmd;
    cmd.Name(type);
    op_plugin::utils::AddInputAs(cmd, one_d ? input.unsqueeze(2) : input, result.scalar_type());
    operands(cmd, result);
    cmd.Output(y).Run();
  });
}

// ResizeNearestNeighborV2's and ResizeBilinearV2's (and their gradients') operands after x: the constant
// `size`, or (empty size) a tensor of `image_shape` (ResizeBilinearV2Grad's original_image: only its shape
// is read); their position attributes.
std::function<void(OpCommand&, const at::Tensor&)> size_operands(std::vector<int64_t> size,
                                                                 at::IntArrayRef image_shape, bool align_corners,
                                                                 bool half_pixel_centers) {
  std::vector<int64_t> image(image_shape.begin(), image_shape.end());
  return [size, image, align_corners, half_pixel_centers](OpCommand& cmd, const at::Tensor& result) {
    if (!size.empty()) {
      cmd.Input(at::IntArrayRef(size), at::kInt);
    } else {
      cmd.Input(at_npu::native::OpPreparation::apply_tensor_without_format(image, result.options()));
    }
    cmd.Attr("align_corners", align_corners).Attr("half_pixel_centers", half_pixel_centers);
  };
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

// ResizeD's (ResizeGradD's, NCHW) attributes: the sizes (original_size) attribute `sizes_name`, the scale
// factors (0: none) as its float scales attribute, the mode and the positions.
std::function<void(OpCommand&, const at::Tensor&)> resize_d_attrs(const char* sizes_name, at::IntArrayRef sizes,
                                                                   std::vector<float> scales, const char* mode,
                                                                   bool align_corners, bool grad) {
  std::vector<int64_t> values(sizes.begin(), sizes.end());
  return [=](OpCommand& cmd, const at::Tensor&) {
    cmd.Attr(sizes_name, at::IntArrayRef(values))
        .Attr("scales", c10::ArrayRef<float>(scales))
        .Attr("coordinate_transformation_mode", align_corners ? "align_corners" : "half_pixel")
        .Attr("cubic_coeff_a", -0.75f)
        .Attr("mode", mode);
    if (grad) cmd.Attr("data_format", "NCHW");
  };
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
  return run_resize("ResizeNearestNeighborV2", self, true, out, size_operands({1, output_size[0]}, {}, false, false));
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
  return run_resize("ResizeNearestNeighborV2", self, false, out,
                    size_operands({output_size[0], output_size[1]}, {}, false, false));
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
  return run_resize("ResizeBilinearV2", self, false, out,
                    size_operands({output_size[0], output_size[1]}, {}, align_corners, !align_corners));
}

at::Tensor& upsample_nearest1d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                            at::IntArrayRef input_size, c10::optional<double> scales,
                                            at::Tensor& grad_input) {
  const char* op = "upsample_nearest1d_backward";
  check_upsample_dtype(op, "grad_output", grad_output, false);
  check_size_derived_scale(op, "ResizeNearestNeighborV2Grad", "scales", input_size[2], output_size[0],
                           scales, false, true, grad_output.scalar_type());
  c10_npu::NPUGuard guard(grad_output.device());
  return run_resize("ResizeNearestNeighborV2Grad", grad_output, true, grad_input,
                    size_operands({1, input_size[2]}, {}, false, false));
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
  return run_resize("ResizeNearestNeighborV2Grad", grad_output, false, grad_input,
                    size_operands({input_size[2], input_size[3]}, {}, false, false));
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
  return run_resize("ResizeBilinearV2Grad", grad_output, false, grad_input,
                    size_operands({}, input_size, align_corners, !align_corners));
}

at::Tensor& upsample_nearest3d_out(const at::Tensor& self, at::IntArrayRef output_size,
                                   c10::optional<double> scales_d, c10::optional<double> scales_h,
                                   c10::optional<double> scales_w, at::Tensor& out) {
  const char* op = "upsample_nearest3d";
  check_upsample_dtype(op, "self", self, true);
  check_scales_3d(op, "UpsampleNearest3d", self.sizes().slice(2), output_size, scales_d, scales_h, scales_w, false,
                  true, self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return run_resize("UpsampleNearest3d", self, false, out,
                    [&](OpCommand& cmd, const at::Tensor&) { cmd.Attr("output_size", output_size); });
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
  return run_resize("UpsampleNearest3dGrad", grad_output, false, grad_input, [&](OpCommand& cmd, const at::Tensor&) {
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
  return run_resize("UpsampleTrilinear3d", self, false, out, [&](OpCommand& cmd, const at::Tensor&) {
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
  return run_resize("UpsampleTrilinear3dGrad", grad_output, false, grad_input, [&](OpCommand& cmd, const at::Tensor&) {
    cmd.Attr("input_size", input_size).Attr("output_size", output_size).Attr("align_corners", align_corners);
  });
}

at::Tensor& upsample_linear1d_out(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                                  c10::optional<double> scales, at::Tensor& out) {
  check_upsample_dtype("upsample_linear1d", "self", self, false);
  c10_npu::NPUGuard guard(self.device());
  return run_resize("ResizeD", self, true, out,
                    resize_d_attrs("sizes", output_size, {scale_attr(scales)}, "linear", align_corners, false));
}

at::Tensor& upsample_bicubic2d_out(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                                   c10::optional<double> scales_h, c10::optional<double> scales_w,
                                   at::Tensor& out) {
  check_upsample_dtype("upsample_bicubic2d", "self", self, false);
  c10_npu::NPUGuard guard(self.device());
  return run_resize("ResizeD", self, false, out,
                    resize_d_attrs("sizes", output_size, {scale_attr(scales_h), scale_attr(scales_w)}, "cubic",
                                   align_corners, false));
}

at::Tensor& upsample_linear1d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                           at::IntArrayRef input_size, bool align_corners,
                                           c10::optional<double> scales, at::Tensor& grad_input) {
  check_upsample_dtype("upsample_linear1d_backward", "grad_output", grad_output, false);
  c10_npu::NPUGuard guard(grad_output.device());
  return run_resize("ResizeGradD", grad_output, true, grad_input,
                    resize_d_attrs("original_size", input_size, {scale_attr(scales)}, "linear", align_corners, true));
}

at::Tensor& upsample_bicubic2d_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                            at::IntArrayRef input_size, bool align_corners,
                                            c10::optional<double> scales_h, c10::optional<double> scales_w,
                                            at::Tensor& grad_input) {
  check_upsample_dtype("upsample_bicubic2d_backward", "grad_output", grad_output, false);
  c10_npu::NPUGuard guard(grad_output.device());
  return run_resize("ResizeGradD", grad_output, false, grad_input,
                    resize_d_attrs("original_size", input_size, {scale_attr(scales_h), scale_attr(scales_w)},
                                   "cubic", align_corners, true));
}

}  // namespace acl_op
