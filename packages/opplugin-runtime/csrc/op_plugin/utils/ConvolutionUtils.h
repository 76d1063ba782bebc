// What the convolution ops' two paths share: CPU's argument checks and messages and the output sizes.
#pragma once

#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/util/ArrayRef.h>

namespace op_plugin::utils {

// The checks of convolution_overrideable's arguments (1-, 2- or 3-D, plain or transposed; float32,
// float16 or bfloat16; `bias` may be undefined), with CPU's messages after "<op>: "; returns the
// output's sizes: per spatial dimension (in + 2 * pad - dilation * (k - 1) - 1) / stride + 1, or
// transposed (in - 1) * stride - 2 * pad + dilation * (k - 1) + output_padding + 1.
std::vector<int64_t> check_convolution(const char* op, const at::Tensor& input, const at::Tensor& weight,
                                       const at::Tensor& bias, at::IntArrayRef stride, at::IntArrayRef padding,
                                       at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
                                       int64_t groups);

// check_convolution's checks for the backward, plus grad_output's dtype and its shape (the output's).
void check_convolution_backward(const char* op, const at::Tensor& grad_output, const at::Tensor& input,
                                const at::Tensor& weight, at::IntArrayRef stride, at::IntArrayRef padding,
                                at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding,
                                int64_t groups);

}  // namespace op_plugin::utils
