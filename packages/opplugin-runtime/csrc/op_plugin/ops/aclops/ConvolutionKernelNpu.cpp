// convolution_overrideable / convolution_backward_overrideable on the acl_op path: "Conv2D" forward,
// "Conv2DBackpropInput" (input_size a host int32 constant) and "Conv2DBackpropFilter" (filter_size likewise,
// a float32 result cast to weight's dtype) backward, the bias gradient a "ReduceSum" of grad_output over N
// and the spatial dimensions. A 1-D convolution runs as a 2-D one of height 1; NCHW attributes (strides and
// dilations [1, 1, h, w], pads [top, bottom, left, right]). Checks and messages are the op_api kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <array>
#include <tuple>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/convolution_backward_overrideable.h"
#include "op_plugin/ops/convolution_overrideable.h"
#include "op_plugin/ops/sum.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ConvolutionUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

// A convolution's operands and attributes as Conv2D takes them: 4-D NCHW tensors in a base format (a 1-D
// convolution's with height 1) and the NCHW attribute lists.
struct Conv2dCall {
  std::vector<int64_t> strides, pads, dilations;
  int64_t groups = 1;

  Conv2dCall(at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups_)
      : groups(groups_) {
    const bool one_d = stride.size() == 1;
    const int64_t sh = one_d ? 1 : stride[0], ph = one_d ? 0 : padding[0], dh = one_d ? 1 : dilation[0];
    const int64_t sw = stride.back(), pw = padding.back(), dw = dilation.back();
    strides = {1, 1, sh, sw};
    pads = {ph, ph, pw, pw};
    dilations = {1, 1, dh, dw};
  }

  static at::Tensor as_nchw(const at::Tensor& t) {
    const at::Tensor base = at_npu::native::to_base_format(t, "convolution");
    return base.dim() == 3 ? base.unsqueeze(2) : base;
  }

  static std::vector<int64_t> nchw_sizes(const at::Tensor& t) {
    if (t.dim() == 3) return {t.size(0), t.size(1), 1, t.size(2)};
    return t.sizes().vec();
  }

  void run(OpCommand& cmd, at::Tensor& result) const {
    cmd.Output(result)
        .Attr("strides", at::IntArrayRef(strides))
        .Attr("pads", at::IntArrayRef(pads))
        .Attr("dilations", at::IntArrayRef(dilations))
        .Attr("groups", groups)
        .Attr("data_format", "NCHW")
        .Run();
  }
};

void check_acl_op_convolution(const char* op, const at::Tensor& input, bool transposed) {
  TORCH_CHECK(!transposed && input.dim() <= 4, op, ": only plain 1-D and 2-D convolutions run on acl_op");
}

}  // namespace

at::Tensor convolution_overrideable(const at::Tensor& input, const at::Tensor& weight,
                                    const c10::optional<at::Tensor>& bias, at::IntArrayRef stride,
                                    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                                    at::IntArrayRef output_padding, int64_t groups) {
  const char* op = "convolution_overrideable";
  const at::Tensor bias_tensor = bias.has_value() ? *bias : at::Tensor();
  const std::vector<int64_t> sizes = op_plugin::utils::check_convolution(
      op, input, weight, bias_tensor, stride, padding, dilation, transposed, output_padding, groups);
  check_acl_op_convolution(op, input, transposed);
  c10_npu::NPUGuard guard(input.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, input.options());
  if (out.numel() == 0) return out;
  const Conv2dCall call(stride, padding, dilation, groups);
  at::Tensor out4 = OpPreparation::apply_tensor_without_format(Conv2dCall::nchw_sizes(out), out.options());
  OpCommand cmd;
  cmd.Name("Conv2D").Input(Conv2dCall::as_nchw(input)).Input(Conv2dCall::as_nchw(weight));
  if (bias_tensor.defined()) cmd.Input(at_npu::native::to_base_format(bias_tensor, op));
  call.run(cmd, out4);
  return out4.view(sizes);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward_overrideable(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
    int64_t groups, ::std::array<bool, 3> output_mask) {
  const char* op = "convolution_backward_overrideable";
  op_plugin::utils::check_convolution_backward(op, grad_output, input, weight, stride, padding, dilation, transposed,
                                               output_padding, groups);
  check_acl_op_convolution(op, input, transposed);
  c10_npu::NPUGuard guard(input.device());
  const Conv2dCall call(stride, padding, dilation, groups);
  const bool empty = grad_output.numel() == 0;
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
    if (empty) {
      grad_input.zero_();
    } else if (grad_input.numel() > 0) {
      at::Tensor result =
          OpPreparation::apply_tensor_without_format(Conv2dCall::nchw_sizes(input), input.options());
      OpCommand cmd;
      cmd.Name("Conv2DBackpropInput")
          .Input(at::IntArrayRef(Conv2dCall::nchw_sizes(input)), at::kInt)
          .Input(Conv2dCall::as_nchw(weight))
          .Input(Conv2dCall::as_nchw(grad_output));
      call.run(cmd, result);
      grad_input = result.view(input.sizes());
    }
  }
  if (output_mask[1]) {
    if (empty) {
      grad_weight = OpPreparation::apply_tensor_without_format(weight.sizes(), weight.options()).zero_();
    } else {
      // the filter gradient comes in float32, as CANN's type gives it, and is rounded to weight's dtype
      at::Tensor result = OpPreparation::apply_tensor_without_format(Conv2dCall::nchw_sizes(weight),
                                                                     weight.options().dtype(at::kFloat));
      if (result.numel() > 0) {
        OpCommand cmd;
        cmd.Name("Conv2DBackpropFilter")
            .Input(Conv2dCall::as_nchw(input))
            .Input(at::IntArrayRef(Conv2dCall::nchw_sizes(weight)), at::kInt)
            .Input(Conv2dCall::as_nchw(grad_output));
        call.run(cmd, result);
      }
      grad_weight = op_plugin::utils::cast_for_acl_op(result, weight.scalar_type()).view(weight.sizes());
    }
  }
  if (output_mask[2]) {
    grad_bias = OpPreparation::apply_tensor_without_format({weight.size(0)}, weight.options());
    if (empty) {
      grad_bias.zero_();
    } else {
      const at::Tensor rows = grad_output.reshape({grad_output.size(0), grad_output.size(1), -1});
      const int64_t dims[] = {0, 2};
      acl_op::sum_out(rows, at::IntArrayRef(dims), false, grad_output.scalar_type(), grad_bias);
    }
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace acl_op
