// What the convolution ops' two paths share: the argument checks and messages, and the output size.
#pragma once

#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/util/ArrayRef.h>

namespace op_plugin::utils {

// The convolutions npu runs: 1-D and 2-D, not transposed, float32/float16/bfloat16, weight fitting input in
// `groups` groups; `op` names the operator in the messages.
void check_convolution(const char* op, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed, int64_t groups);

// A defined bias is 1-D with one value per output channel, of input's dtype.
void check_convolution_bias(const char* op, const at::Tensor& bias, const at::Tensor& input,
                            const at::Tensor& weight);

// The output sizes [N, Cout, spatial...]; a kernel larger than the padded input fails (CPU's message).
std::vector<int64_t> convolution_output_size(const at::Tensor& input, const at::Tensor& weight,
                                             at::IntArrayRef stride, at::IntArrayRef padding,
                                             at::IntArrayRef dilation);

// grad_output has input's dtype and the convolution's output shape.
void check_convolution_grad_output(const char* op, const at::Tensor& grad_output, const at::Tensor& input,
                                   const at::Tensor& weight, at::IntArrayRef stride, at::IntArrayRef padding,
                                   at::IntArrayRef dilation);

}  // namespace op_plugin::utils
