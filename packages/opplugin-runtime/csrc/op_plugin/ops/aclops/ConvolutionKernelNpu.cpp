// convolution_overrideable / convolution_backward_overrideable on the acl_op path. Forward: "Conv2D" /
// "Conv3D", transposed "Conv2DTranspose" / "Conv3DTranspose" (input_size a host int32 constant). Backward of a
// plain convolution: "Conv2DBackpropInput" / "Conv3DBackpropInput" and "Conv2DBackpropFilter" /
// "Conv3DBackpropFilter" (filter_size likewise; a float32 result cast to weight's dtype); of a transposed one,
// the input gradient is the plain convolution of grad_output and the weight gradient a BackpropFilter with x
// and out_backprop swapped. The bias gradient is a "ReduceSum" of grad_output over all but the channels.
// A 1-D convolution runs as a 2-D one of height 1; NCHW / NCDHW attributes (strides and dilations
// [1, 1, spatial...], pads a (before, after) pair per spatial dimension). Checks and messages are op_api's.
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

// The operands and attributes of one convolution as the 2-D (NCHW) or 3-D (NCDHW) op types take them.
class ConvCall {
 public:
  ConvCall(const at::Tensor& input, at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
           at::IntArrayRef output_padding, bool transposed, int64_t groups)
      : three_d_(input.dim() == 5), one_d_(input.dim() == 3), groups_(groups) {
    strides_ = {1, 1};
    dilations_ = {1, 1};
    output_padding_ = {0, 0};
    if (one_d_) {  // the height of 1 a 1-D convolution runs with
      strides_.push_back(1);
      dilations_.push_back(1);
      output_padding_.push_back(0);
      pads_ = {0, 0};
    }
    for (size_t i = 0; i < stride.size(); ++i) {
      strides_.push_back(stride[i]);
      dilations_.push_back(dilation[i]);
      pads_.insert(pads_.end(), {padding[i], padding[i]});
      output_padding_.push_back(transposed ? output_padding[i] : 0);
    }
  }

  // `t` (N, C, spatial...) as the op types take it: a base format, 1-D with a height of 1.
  at::Tensor operand(const at::Tensor& t) const {
    const at::Tensor base = at_npu::native::to_base_format(t, "convolution");
    return one_d_ ? base.unsqueeze(2) : base;
  }

  // `sizes` (N, C, spatial...) in the op types' rank.
  std::vector<int64_t> sizes(at::IntArrayRef dims) const {
    if (one_d_) return {dims[0], dims[1], 1, dims[2]};
    return dims.vec();
  }

  // A result of `sizes` (N, C, spatial...; in the op types' rank) and `options`.
  at::Tensor result(at::IntArrayRef dims, const c10::TensorOptions& options) const {
    return OpPreparation::apply_tensor_without_format(sizes(dims), options);
  }

  const char* type(const char* two_d, const char* three_d) const { return three_d_ ? three_d : two_d; }

  void run(OpCommand& cmd, at::Tensor& y, bool with_output_padding = false) const {
    cmd.Output(y)
        .Attr("strides", at::IntArrayRef(strides_))
        .Attr("pads", at::IntArrayRef(pads_))
        .Attr("dilations", at::IntArrayRef(dilations_))
        .Attr("groups", groups_)
        .Attr("data_format", three_d_ ? "NCDHW" : "NCHW");
    if (with_output_padding) cmd.Attr("output_padding", at::IntArrayRef(output_padding_));
    cmd.Run();
  }

  // y = the plain convolution of x with weight (+ bias).
  void convolution(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, at::Tensor& y) const {
    OpCommand cmd;
    cmd.Name(type("Conv2D", "Conv3D")).Input(operand(x)).Input(operand(weight));
    if (bias.defined()) cmd.Input(at_npu::native::to_base_format(bias, "convolution"));
    run(cmd, y);
  }

  // y (the shape of `image`) = the data gradient of the plain convolution with weight whose result is x
  // (a *BackpropInput), or the transposed convolution of x (+ bias).
  void data_gradient(const at::Tensor& image, const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                     bool transposed, at::Tensor& y) const {
    OpCommand cmd;
    if (transposed) {
      cmd.Name(type("Conv2DTranspose", "Conv3DTranspose"))
          .Input(at::IntArrayRef(sizes(image.sizes())), at::kInt)
          .Input(operand(x))
          .Input(operand(weight));
      if (bias.defined()) cmd.Input(at_npu::native::to_base_format(bias, "convolution"));
    } else {
      cmd.Name(type("Conv2DBackpropInput", "Conv3DBackpropInput"))
          .Input(at::IntArrayRef(sizes(image.sizes())), at::kInt)
          .Input(operand(weight))
          .Input(operand(x));
    }
    run(cmd, y, transposed);
  }

  // y (float32, of weight's shape) = the weight gradient of the plain convolution from image to result.
  void weight_gradient(const at::Tensor& image, const at::Tensor& weight, const at::Tensor& result,
                       at::Tensor& y) const {
    OpCommand cmd;
    cmd.Name(type("Conv2DBackpropFilter", "Conv3DBackpropFilter"))
        .Input(operand(image))
        .Input(at::IntArrayRef(sizes(weight.sizes())), at::kInt)
        .Input(operand(result));
    run(cmd, y);
  }

 private:
  bool three_d_;
  bool one_d_;
  int64_t groups_;
  std::vector<int64_t> strides_, pads_, dilations_, output_padding_;
};

}  // namespace

at::Tensor convolution_overrideable(const at::Tensor& input, const at::Tensor& weight,
                                    const c10::optional<at::Tensor>& bias, at::IntArrayRef stride,
                                    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                                    at::IntArrayRef output_padding, int64_t groups) {
  const char* op = "convolution_overrideable";
  const at::Tensor bias_tensor = bias.has_value() ? *bias : at::Tensor();
  const std::vector<int64_t> sizes = op_plugin::utils::check_convolution(
      op, input, weight, bias_tensor, stride, padding, dilation, transposed, output_padding, groups);
  c10_npu::NPUGuard guard(input.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, input.options());
  if (out.numel() == 0) return out;
  const ConvCall call(input, stride, padding, dilation, output_padding, transposed, groups);
  at::Tensor y = call.result(out.sizes(), out.options());
  if (transposed) {
    call.data_gradient(out, input, weight, bias_tensor, true, y);
  } else {
    call.convolution(input, weight, bias_tensor, y);
  }
  return y.view(sizes);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward_overrideable(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
    int64_t groups, ::std::array<bool, 3> output_mask) {
  const char* op = "convolution_backward_overrideable";
  op_plugin::utils::check_convolution_backward(op, grad_output, input, weight, stride, padding, dilation, transposed,
                                               output_padding, groups);
  c10_npu::NPUGuard guard(input.device());
  const ConvCall call(input, stride, padding, dilation, output_padding, transposed, groups);
  const bool empty = grad_output.numel() == 0 || input.numel() == 0;
  // the plain convolution's image and result: a transposed convolution's are grad_output and input
  const at::Tensor& image = transposed ? grad_output : input;
  // the plain convolution's result sizes: more than a transposed input's where its output padding is not below
  // the stride (windows of grad_output that no input element feeds)
  std::vector<int64_t> full = {input.size(0), input.size(1)};
  for (int64_t d = 2; d < input.dim(); ++d) {
    const size_t k = static_cast<size_t>(d - 2);
    const int64_t extent = dilation[k] * (weight.size(d) - 1) + 1;
    full.push_back(transposed ? (grad_output.size(d) + 2 * padding[k] - extent) / stride[k] + 1 : input.size(d));
  }
  at::Tensor result = transposed ? input : grad_output;
  if (transposed && !empty && output_mask[1] && at::IntArrayRef(full) != input.sizes()) {
    result = OpPreparation::apply_tensor_without_format(full, input.options()).zero_();
    at::Tensor part = result;
    for (int64_t d = 2; d < input.dim(); ++d) part = part.narrow(d, 0, input.size(d));
    part.copy_(input);
  }
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
    if (empty) {
      grad_input.zero_();
    } else if (transposed) {
      // the plain convolution of grad_output has the windows past input's sizes too; its leading part is the
      // gradient
      at::Tensor y = call.result(full, input.options());
      call.convolution(grad_output, weight, at::Tensor(), y);
      at::Tensor part = y.view(full);
      for (int64_t d = 2; d < input.dim(); ++d) part = part.narrow(d, 0, input.size(d));
      grad_input = part.contiguous();
    } else {
      at::Tensor y = call.result(input.sizes(), input.options());
      call.data_gradient(input, grad_output, weight, at::Tensor(), false, y);
      grad_input = y.view(input.sizes());
    }
  }
  if (output_mask[1]) {
    if (empty) {
      grad_weight = OpPreparation::apply_tensor_without_format(weight.sizes(), weight.options()).zero_();
    } else {
      // the filter gradient comes in float32, as CANN's type gives it, and is rounded to weight's dtype
      at::Tensor y = call.result(weight.sizes(), weight.options().dtype(at::kFloat));
      if (y.numel() > 0) call.weight_gradient(image, weight, result, y);
      grad_weight = op_plugin::utils::cast_for_acl_op(y, weight.scalar_type()).view(weight.sizes());
    }
  }
  if (output_mask[2]) {
    grad_bias = OpPreparation::apply_tensor_without_format({grad_output.size(1)}, weight.options());
    if (grad_output.numel() == 0) {
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
