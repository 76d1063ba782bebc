#include "op_plugin/utils/ConvolutionUtils.h"

#include <c10/util/Exception.h>

namespace op_plugin::utils {

void check_convolution(const char* op, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
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

void check_convolution_bias(const char* op, const at::Tensor& bias, const at::Tensor& input,
                            const at::Tensor& weight) {
  if (!bias.defined()) return;
  TORCH_CHECK(bias.scalar_type() == input.scalar_type(), op, ": bias type (", bias.scalar_type(),
              ") and input type (", input.scalar_type(), ") should be the same");
  TORCH_CHECK(bias.dim() == 1 && bias.size(0) == weight.size(0), op, ": bias of shape ", bias.sizes(),
              " does not match ", weight.size(0), " output channels");
}

std::vector<int64_t> convolution_output_size(const at::Tensor& input, const at::Tensor& weight,
                                             at::IntArrayRef stride, at::IntArrayRef padding,
                                             at::IntArrayRef dilation) {
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

void check_convolution_grad_output(const char* op, const at::Tensor& grad_output, const at::Tensor& input,
                                   const at::Tensor& weight, at::IntArrayRef stride, at::IntArrayRef padding,
                                   at::IntArrayRef dilation) {
  TORCH_CHECK(grad_output.scalar_type() == input.scalar_type(), op, ": grad_output type (",
              grad_output.scalar_type(), ") and input type (", input.scalar_type(), ") should be the same");
  TORCH_CHECK(grad_output.sizes().vec() == convolution_output_size(input, weight, stride, padding, dilation), op,
              ": grad_output has shape ", grad_output.sizes(), ", which is not the convolution's output shape");
}

}  // namespace op_plugin::utils
