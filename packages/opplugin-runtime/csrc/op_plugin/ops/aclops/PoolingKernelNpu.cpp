// Average pooling on the acl_op path: adaptive_avg_pool2d ("AdaptiveAvgPool2d" with the output_size
// attribute, its backward "AdaptiveAvgPool2dGrad" with orig_input_shape), adaptive_avg_pool3d
// ("AdaptiveAvgPool3d" with output_size and data_format NCDHW, its backward "AdaptiveAvgPool3dGrad" of the
// gradient and the input; upstream reaches only output size (1, 1, 1), through a mean) and avg_pool2d (+ backward,
// "AvgPoolV2" / "AvgPoolV2Grad" with NCHW ksize and strides, pads (top, bottom, left, right), ceil_mode,
// exclusive = !count_include_pad and divisor_override; the gradient takes the input's sizes as a host
// constant) and avg_pool3d (+ backward, "AvgPool3D" / "AvgPool3DGrad" with (d, h, w) ksize and strides,
// six pads, count_include_pad, NCDHW). Checks and sizes are shared with the op_api kernels
// (op_plugin/utils/PoolingUtils) or come from ATen's meta functions (the structured ones); an input of an
// internal format (NC1HWC0) is converted to its base format.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_adaptive_avg_pool2d.h"
#include "op_plugin/ops/_adaptive_avg_pool2d_backward.h"
#include "op_plugin/ops/_adaptive_avg_pool3d.h"
#include "op_plugin/ops/_adaptive_avg_pool3d_backward.h"
#include "op_plugin/ops/adaptive_avg_pool2d.h"
#include "op_plugin/ops/adaptive_avg_pool3d.h"
#include "op_plugin/ops/adaptive_avg_pool3d_backward.h"
#include "op_plugin/ops/avg_pool2d.h"
#include "op_plugin/ops/avg_pool2d_backward.h"
#include "op_plugin/ops/avg_pool3d.h"
#include "op_plugin/ops/avg_pool3d_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/PaddingUtils.h"
#include "op_plugin/utils/PoolingUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::check_floating;
using op_plugin::utils::pick;

// out <- `type` of `input` with `attrs`; an out of an internal format or with strides gets the values
// through a base-format temporary and copy_.
template <typename Attrs>
at::Tensor& pool_nocheck(const char* type, const at::Tensor& input, at::Tensor& out, const Attrs& attrs) {
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name(type);
    attrs(cmd);  // host-constant inputs before the tensor
    op_plugin::utils::AddInputAs(cmd, input, result.scalar_type());
    cmd.Output(result).Run();
  });
}

// AvgPoolV2's (and AvgPoolV2Grad's) attributes for avg_pool2d's arguments.
struct AvgPoolAttrs {
  std::vector<int64_t> ksize, strides, pads;
  bool ceil_mode, exclusive;
  int64_t divisor;

  AvgPoolAttrs(at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding, bool ceil,
               bool count_include_pad, c10::optional<int64_t> divisor_override)
      : ceil_mode(ceil), exclusive(!count_include_pad), divisor(divisor_override.value_or(0)) {
    ksize = {1, 1, pick(kernel_size, 0), pick(kernel_size, 1)};
    strides = {1, 1, stride.empty() ? ksize[2] : pick(stride, 0), stride.empty() ? ksize[3] : pick(stride, 1)};
    pads = {pick(padding, 0), pick(padding, 0), pick(padding, 1), pick(padding, 1)};
  }

  void Set(OpCommand& cmd) const {
    cmd.Attr("ksize", at::IntArrayRef(ksize))
        .Attr("strides", at::IntArrayRef(strides))
        .Attr("padding_mode", "CALCULATED")
        .Attr("pads", at::IntArrayRef(pads))
        .Attr("data_format", "NCHW")
        .Attr("global_pooling", false)
        .Attr("ceil_mode", ceil_mode)
        .Attr("exclusive", exclusive)
        .Attr("divisor_override", divisor);
  }
};

// AvgPool3D's (and AvgPool3DGrad's) attributes for avg_pool3d's arguments.
struct AvgPool3dAttrs {
  std::vector<int64_t> ksize, strides, pads;
  bool ceil_mode, count_include_pad;
  int64_t divisor;

  AvgPool3dAttrs(at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding, bool ceil,
                 bool include_pad, c10::optional<int64_t> divisor_override)
      : ceil_mode(ceil), count_include_pad(include_pad), divisor(divisor_override.value_or(0)) {
    for (size_t i = 0; i < 3; ++i) {
      ksize.push_back(pick(kernel_size, i));
      strides.push_back(stride.empty() ? ksize[i] : pick(stride, i));
      pads.insert(pads.end(), 2, pick(padding, i));
    }
  }

  void Set(OpCommand& cmd) const {
    cmd.Attr("ksize", at::IntArrayRef(ksize))
        .Attr("strides", at::IntArrayRef(strides))
        .Attr("pads", at::IntArrayRef(pads))
        .Attr("ceil_mode", ceil_mode)
        .Attr("count_include_pad", count_include_pad)
        .Attr("divisor_override", divisor)
        .Attr("data_format", "NCDHW");
  }
};

at::Tensor& adaptive_avg_pool2d_nocheck(const at::Tensor& self, at::IntArrayRef output_size, at::Tensor& out) {
  const std::vector<int64_t> sizes(output_size.begin(), output_size.end());
  return pool_nocheck("AdaptiveAvgPool2d", self, out,
                      [&sizes](OpCommand& cmd) { cmd.Attr("output_size", at::IntArrayRef(sizes)); });
}

at::Tensor& adaptive_avg_pool3d_nocheck(const at::Tensor& self, at::IntArrayRef output_size, at::Tensor& out) {
  const std::vector<int64_t> sizes(output_size.begin(), output_size.end());
  return pool_nocheck("AdaptiveAvgPool3d", self, out, [&sizes](OpCommand& cmd) {
    cmd.Attr("output_size", at::IntArrayRef(sizes)).Attr("data_format", "NCDHW");
  });
}

at::Tensor& adaptive_avg_pool3d_backward_nocheck(const at::Tensor& grad_output, const at::Tensor& self,
                                                 at::Tensor& grad_input) {
  op_plugin::utils::check_adaptive_avg_backward("adaptive_avg_pool3d_backward", grad_output, self);
  return op_plugin::utils::write_through_base_format(grad_input, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("AdaptiveAvgPool3dGrad");
    op_plugin::utils::AddInputAs(cmd, grad_output, result.scalar_type());
    op_plugin::utils::AddInputAs(cmd, self, result.scalar_type());
    cmd.Output(result).Attr("data_format", "NCDHW").Run();
  });
}

}  // namespace

at::Tensor& adaptive_avg_pool2d_out(const at::Tensor& self, at::IntArrayRef output_size, at::Tensor& out) {
  const std::vector<int64_t> shape =
      op_plugin::utils::adaptive_avg_shape("adaptive_avg_pool2d", self, output_size, 2);
  check_floating("adaptive_avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  return adaptive_avg_pool2d_nocheck(self, output_size, out);
}

at::Tensor _adaptive_avg_pool2d(const at::Tensor& self, at::IntArrayRef output_size) {
  const std::vector<int64_t> shape =
      op_plugin::utils::adaptive_avg_shape("adaptive_avg_pool2d", self, output_size, 2);
  check_floating("adaptive_avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return adaptive_avg_pool2d_nocheck(self, output_size, out);
}

at::Tensor _adaptive_avg_pool2d_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_adaptive_avg_backward("adaptive_avg_pool2d_backward", grad_output, self);
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  const std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end());
  return pool_nocheck("AdaptiveAvgPool2dGrad", grad_output, grad_input,
                      [&shape](OpCommand& cmd) { cmd.Attr("orig_input_shape", at::IntArrayRef(shape)); });
}

at::Tensor& adaptive_avg_pool3d_out(const at::Tensor& self, at::IntArrayRef output_size, at::Tensor& out) {
  const std::vector<int64_t> shape =
      op_plugin::utils::adaptive_avg_shape("adaptive_avg_pool3d", self, output_size, 3);
  check_floating("adaptive_avg_pool3d", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  return adaptive_avg_pool3d_nocheck(self, output_size, out);
}

at::Tensor _adaptive_avg_pool3d(const at::Tensor& self, at::IntArrayRef output_size) {
  const std::vector<int64_t> shape =
      op_plugin::utils::adaptive_avg_shape("adaptive_avg_pool3d", self, output_size, 3);
  check_floating("adaptive_avg_pool3d", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return adaptive_avg_pool3d_nocheck(self, output_size, out);
}

at::Tensor& adaptive_avg_pool3d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                             at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  return adaptive_avg_pool3d_backward_nocheck(grad_output, self, grad_input);
}

at::Tensor _adaptive_avg_pool3d_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return adaptive_avg_pool3d_backward_nocheck(grad_output, self, grad_input);
}

at::Tensor& avg_pool2d_out(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                           at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                           c10::optional<int64_t> divisor_override, at::Tensor& out) {
  const std::vector<int64_t> shape =
      op_plugin::utils::avg_pool2d_shape(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  check_floating("avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  const AvgPoolAttrs attrs(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  return pool_nocheck("AvgPoolV2", self, out, [&attrs](OpCommand& cmd) { attrs.Set(cmd); });
}

at::Tensor avg_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                      at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                      c10::optional<int64_t> divisor_override) {
  const std::vector<int64_t> shape =
      op_plugin::utils::avg_pool2d_shape(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  check_floating("avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  const AvgPoolAttrs attrs(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  return pool_nocheck("AvgPoolV2", self, out, [&attrs](OpCommand& cmd) { attrs.Set(cmd); });
}

at::Tensor& avg_pool2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                    at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding,
                                    bool ceil_mode, bool count_include_pad, c10::optional<int64_t> divisor_override,
                                    at::Tensor& grad_input) {
  check_floating("avg_pool2d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  const AvgPoolAttrs attrs(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  const std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end());
  return pool_nocheck("AvgPoolV2Grad", grad_output, grad_input, [&attrs, &shape](OpCommand& cmd) {
    cmd.Input(at::IntArrayRef(shape), at::kLong);
    attrs.Set(cmd);
  });
}

at::Tensor& avg_pool3d_out(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                           at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                           c10::optional<int64_t> divisor_override, at::Tensor& out) {
  check_floating("avg_pool3d", self);
  c10_npu::NPUGuard guard(self.device());
  const AvgPool3dAttrs attrs(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  return pool_nocheck("AvgPool3D", self, out, [&attrs](OpCommand& cmd) { attrs.Set(cmd); });
}

at::Tensor& avg_pool3d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                    at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding,
                                    bool ceil_mode, bool count_include_pad, c10::optional<int64_t> divisor_override,
                                    at::Tensor& grad_input) {
  check_floating("avg_pool3d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  const AvgPool3dAttrs attrs(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  const std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end());
  return pool_nocheck("AvgPool3DGrad", grad_output, grad_input, [&attrs, &shape](OpCommand& cmd) {
    cmd.Input(at::IntArrayRef(shape), at::kLong);
    attrs.Set(cmd);
  });
}

}  // namespace acl_op
