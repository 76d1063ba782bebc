// convolution_overrideable / convolution_backward_overrideable on the op_api path
// (aclnnConvolution, aclnnConvolutionBackward: im2col + the cube matmul kernel + col2im).
// nn.Conv1d/2d/3d and nn.ConvTranspose1d/2d/3d on PrivateUse1 reach these through aten::_convolution's
// ConvBackend::Overrideable (forward) and aten::convolution_backward (backward).
// Plain and transposed, 1-D, 2-D and 3-D; float32, float16, bfloat16.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <array>
#include <tuple>
#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/convolution_backward_overrideable.h"
#include "op_plugin/ops/convolution_overrideable.h"
#include "op_plugin/utils/ConvolutionUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

constexpr int8_t kCubeMathType = 0;  // KEEP_DTYPE

// aclnn reads outputPadding only for a transposed convolution; a plain one gets zeros of the right length.
std::vector<int64_t> output_padding_for(const at::Tensor& input, bool transposed, at::IntArrayRef output_padding) {
  if (transposed) return output_padding.vec();
  return std::vector<int64_t>(static_cast<size_t>(input.dim() - 2), 0);
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
  const std::vector<int64_t> out_padding = output_padding_for(input, transposed, output_padding);
  c10_npu::NPUGuard guard(input.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, input.options());
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnConvolution, input, weight, bias_tensor, stride, padding, dilation, transposed,
                 at::IntArrayRef(out_padding), groups, out, kCubeMathType);
  }
  return out;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward_overrideable(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
    int64_t groups, ::std::array<bool, 3> output_mask) {
  const char* op = "convolution_backward_overrideable";
  op_plugin::utils::check_convolution_backward(op, grad_output, input, weight, stride, padding, dilation, transposed,
                                               output_padding, groups);
  const std::vector<int64_t> out_padding = output_padding_for(input, transposed, output_padding);
  const int64_t out_channels = grad_output.size(1);
  c10_npu::NPUGuard guard(input.device());
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = OpPreparation::apply_tensor_without_format(weight.sizes(), weight.options());
  if (output_mask[2]) grad_bias = OpPreparation::apply_tensor_without_format({out_channels}, weight.options());
  if (output_mask[0] || output_mask[1] || output_mask[2]) {
    const std::vector<int64_t> bias_sizes = {out_channels};
    EXEC_NPU_CMD(aclnnConvolutionBackward, grad_output, input, weight, at::IntArrayRef(bias_sizes), stride, padding,
                 dilation, transposed, at::IntArrayRef(out_padding), groups, output_mask, kCubeMathType, grad_input,
                 grad_weight, grad_bias);
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace op_api
