#include "op_plugin/utils/ConvolutionUtils.h"

#include <c10/util/Exception.h>

namespace op_plugin::utils {
namespace {

// `values` has one entry per spatial dimension (CPU's message names the argument).
void check_length(const char* op, const char* name, at::IntArrayRef values, int64_t spatial) {
  TORCH_CHECK(static_cast<int64_t>(values.size()) == spatial, op, ": expected ", name,
              " to be a single integer value or a list of ", spatial,
              " values to match the convolution dimensions, but got ", name, "=", values);
}

bool any_below(at::IntArrayRef values, int64_t low) {
  for (int64_t v : values) {
    if (v < low) return true;
  }
  return false;
}

}  // namespace

std::vector<int64_t> check_convolution(const char* op, const at::Tensor& input, const at::Tensor& weight,
                                       const at::Tensor& bias, at::IntArrayRef stride, at::IntArrayRef padding,
                                       at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
                                       int64_t groups) {
  const int64_t k = input.dim();
  TORCH_CHECK(k >= 3 && k <= 5, op, ": expected a batched 1-D, 2-D or 3-D input (3-D, 4-D or 5-D), got ", k,
              "-D input of size ", input.sizes());
  TORCH_CHECK(weight.dim() == k, op, ": Expected ", weight.dim(), "-dimensional input for ", weight.dim(),
              "-dimensional weight ", weight.sizes(), ", but got ", k, "-dimensional input of size ", input.sizes(),
              " instead");
  const at::ScalarType dtype = input.scalar_type();
  TORCH_CHECK(dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16, op, ": input of dtype ", dtype,
              " is not supported on npu (float32, float16, bfloat16)");
  TORCH_CHECK(weight.scalar_type() == dtype, op, ": Input type (", dtype, ") and weight type (", weight.scalar_type(),
              ") should be the same");
  TORCH_CHECK(!bias.defined() || bias.scalar_type() == dtype, op, ": Input type (", dtype, ") and bias type (",
              bias.scalar_type(), ") should be the same");
  const int64_t spatial = k - 2;
  check_length(op, "stride", stride, spatial);
  check_length(op, "padding", padding, spatial);
  check_length(op, "dilation", dilation, spatial);
  if (transposed) check_length(op, "output_padding", output_padding, spatial);
  TORCH_CHECK(!any_below(padding, 0), op, ": negative padding is not supported");
  TORCH_CHECK(!any_below(output_padding, 0), op, ": negative output_padding is not supported");
  TORCH_CHECK(!any_below(stride, 1), op, ": non-positive stride is not supported");
  TORCH_CHECK(!any_below(dilation, 1), op, ": dilation should be greater than zero");
  TORCH_CHECK(groups > 0, op, ": non-positive groups is not supported");
  TORCH_CHECK(weight.size(0) >= groups, op, ": Given groups=", groups, ", expected weight to be at least ", groups,
              " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  TORCH_CHECK(weight.size(0) % groups == 0, op, ": Given groups=", groups, ", expected weight to be divisible by ",
              groups, " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  const int64_t out_channels = transposed ? weight.size(1) * groups : weight.size(0);
  if (transposed) {
    TORCH_CHECK(input.size(1) == weight.size(0), op, ": Given transposed=1, weight of size ", weight.sizes(),
                ", expected input", input.sizes(), " to have ", weight.size(0), " channels, but got ", input.size(1),
                " channels instead");
  } else {
    TORCH_CHECK(input.size(1) == weight.size(1) * groups, op, ": Given groups=", groups, ", weight of size ",
                weight.sizes(), ", expected input", input.sizes(), " to have ", weight.size(1) * groups,
                " channels, but got ", input.size(1), " channels instead");
  }
  TORCH_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == out_channels), op, ": Given weight of size ",
              weight.sizes(), ", expected bias to be 1-dimensional with ", out_channels,
              " elements, but got bias of size ", bias.sizes(), " instead");
  std::vector<int64_t> sizes = {input.size(0), out_channels};
  std::vector<int64_t> in_sizes, kernel, out_sizes;
  for (int64_t d = 0; d < spatial; ++d) {
    const int64_t in = input.size(d + 2), extent = dilation[d] * (weight.size(d + 2) - 1) + 1;
    in_sizes.push_back(transposed ? in : in + 2 * padding[d]);
    kernel.push_back(extent);
    if (transposed) {
      TORCH_CHECK(output_padding[d] < stride[d] || output_padding[d] < dilation[d], op,
                  ": output padding must be smaller than either stride or dilation, but got output_padding: ",
                  output_padding, ", stride: ", stride, ", dilation: ", dilation);
      out_sizes.push_back((in - 1) * stride[d] - 2 * padding[d] + extent + output_padding[d]);
    } else {
      out_sizes.push_back(in + 2 * padding[d] < extent ? 0 : (in + 2 * padding[d] - extent) / stride[d] + 1);
    }
  }
  if (transposed) {
    TORCH_CHECK(!any_below(out_sizes, 1), op, ": Given input size per channel: (", at::IntArrayRef(in_sizes),
                "). Calculated output size per channel: (", at::IntArrayRef(out_sizes), "). Output size is too small");
  } else {
    TORCH_CHECK(!any_below(out_sizes, 1), op, ": Calculated padded input size per channel: (",
                at::IntArrayRef(in_sizes), "). Kernel size: (", at::IntArrayRef(kernel),
                "). Kernel size can't be greater than actual input size");
  }
  sizes.insert(sizes.end(), out_sizes.begin(), out_sizes.end());
  return sizes;
}

void check_convolution_backward(const char* op, const at::Tensor& grad_output, const at::Tensor& input,
                                const at::Tensor& weight, at::IntArrayRef stride, at::IntArrayRef padding,
                                at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
                                int64_t groups) {
  const std::vector<int64_t> sizes = check_convolution(op, input, weight, at::Tensor(), stride, padding, dilation,
                                                       transposed, output_padding, groups);
  TORCH_CHECK(grad_output.scalar_type() == input.scalar_type(), op, ": grad_output type (",
              grad_output.scalar_type(), ") and input type (", input.scalar_type(), ") should be the same");
  TORCH_CHECK(grad_output.sizes() == at::IntArrayRef(sizes), op, ": grad_output has shape ", grad_output.sizes(),
              ", expected the convolution's output shape ", at::IntArrayRef(sizes));
}

}  // namespace op_plugin::utils
