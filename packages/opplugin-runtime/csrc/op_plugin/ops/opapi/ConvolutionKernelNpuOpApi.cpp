// convolution_overrideable / convolution_backward_overrideable on the op_api path
// (aclnnConvolution, aclnnConvolutionBackward: im2col + the cube matmul kernel).
// nn.Conv1d/Conv2d on PrivateUse1 reach these through aten::_convolution's
// ConvBackend::Overrideable (forward) and aten::convolution_backward (backward).
// 1-D and 2-D, not transposed; float32, float16, bfloat16.
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

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

constexpr int8_t kCubeMathType = 0;  // KEEP_DTYPE

void check_conv(const char* op, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
                at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed, int64_t groups) {
  TORCH_CHECK(!transposed, op, ": transposed convolution is not supported on npu");
  TORCH_CHECK(input.dim() == 3 || input.dim() == 4, op, ": only 1-D and 2-D convolutions are supported on npu, got ",
              input.dim(), "-D input");
  TORCH_CHECK(weight.dim() == input.dim(), op, ": weight ", weight.sizes(), " must have as many dimensions as input ",
              input.sizes());
  const at::ScalarType dtype = input.scalar_type();
  TORCH_CHECK(dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16, op, ": input of dtype ", dtype,
              " is not supported on npu (float32, float16, bfloat16)");
  TORCH_CHECK(weight.scalar_type() == dtype, op, ": Input type (", dtype, ") and weight type (", weight.scalar_type(),
              ") should be the same");
  const size_t spatial = static_cast<size_t>(input.dim() - 2);
  TORCH_CHECK(stride.size() == spatial && padding.size() == spatial && dilation.size() == spatial, op,
              ": stride, padding and dilation must have ", spatial, " values each");
  TORCH_CHECK(groups > 0 && input.size(1) == weight.size(1) * groups && weight.size(0) % groups == 0, op,
              ": weight ", weight.sizes(), " does not fit input ", input.sizes(), " with groups=", groups);
}

std::vector<int64_t> conv_output_size(const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
                                      at::IntArrayRef padding, at::IntArrayRef dilation) {
  std::vector<int64_t> sizes = {input.size(0), weight.size(0)};
  for (int64_t d = 2; d < input.dim(); ++d) {
    const size_t k = static_cast<size_t>(d - 2);
    const int64_t extent = dilation[k] * (weight.size(d) - 1) + 1;
    const int64_t out = (input.size(d) + 2 * padding[k] - extent) / stride[k] + 1;
    TORCH_CHECK(input.size(d) + 2 * padding[k] >= extent && out > 0, "convolution_overrideable: Calculated padded "
                "input size per channel: (", input.size(d) + 2 * padding[k], "). Kernel size: (", extent,
                "). Kernel size can't be greater than actual input size");
    sizes.push_back(out);
  }
  return sizes;
}

}  // namespace

at::Tensor convolution_overrideable(const at::Tensor& input, const at::Tensor& weight,
                                    const c10::optional<at::Tensor>& bias, at::IntArrayRef stride,
                                    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                                    at::IntArrayRef output_padding, int64_t groups) {
  const char* op = "convolution_overrideable";
  check_conv(op, input, weight, stride, padding, dilation, transposed, groups);
  const at::Tensor bias_tensor = bias.has_value() ? *bias : at::Tensor();
  if (bias_tensor.defined()) {
    TORCH_CHECK(bias_tensor.scalar_type() == input.scalar_type(), op, ": bias type (", bias_tensor.scalar_type(),
                ") and input type (", input.scalar_type(), ") should be the same");
    TORCH_CHECK(bias_tensor.dim() == 1 && bias_tensor.size(0) == weight.size(0), op, ": bias of shape ",
                bias_tensor.sizes(), " does not match ", weight.size(0), " output channels");
  }
  const std::vector<int64_t> sizes = conv_output_size(input, weight, stride, padding, dilation);
  c10_npu::NPUGuard guard(input.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, input.options());
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnConvolution, input, weight, bias_tensor, stride, padding, dilation, transposed, output_padding,
                 groups, out, kCubeMathType);
  }
  return out;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward_overrideable(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
    int64_t groups, ::std::array<bool, 3> output_mask) {
  const char* op = "convolution_backward_overrideable";
  check_conv(op, input, weight, stride, padding, dilation, transposed, groups);
  TORCH_CHECK(grad_output.scalar_type() == input.scalar_type(), op, ": grad_output type (",
              grad_output.scalar_type(), ") and input type (", input.scalar_type(), ") should be the same");
  TORCH_CHECK(grad_output.sizes().vec() == conv_output_size(input, weight, stride, padding, dilation), op,
              ": grad_output has shape ", grad_output.sizes(), ", which is not the convolution's output shape");
  c10_npu::NPUGuard guard(input.device());
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = OpPreparation::apply_tensor_without_format(weight.sizes(), weight.options());
  if (output_mask[2]) grad_bias = OpPreparation::apply_tensor_without_format({weight.size(0)}, weight.options());
  if (output_mask[0] || output_mask[1] || output_mask[2]) {
    const std::vector<int64_t> bias_sizes = {weight.size(0)};
    EXEC_NPU_CMD(aclnnConvolutionBackward, grad_output, input, weight, at::IntArrayRef(bias_sizes), stride, padding,
                 dilation, transposed, output_padding, groups, output_mask, kCubeMathType, grad_input, grad_weight,
                 grad_bias);
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace op_api
