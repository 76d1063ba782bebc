// What the pooling ops' two paths share: CPU's argument checks and messages and the result sizes.
#pragma once

#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

// self has `spatial` trailing dimensions after one optional batch and one channel dimension, none of
// the non-batch ones empty (CPU's message).
void check_pool_input(const char* op, const at::Tensor& self, int64_t spatial);

// self's sizes with the trailing ones replaced by `sizes`.
std::vector<int64_t> with_spatial(const at::Tensor& self, at::IntArrayRef sizes);

// adaptive_avg_pool2d/3d's checks and output sizes.
std::vector<int64_t> adaptive_avg_shape(const char* op, const at::Tensor& self, at::IntArrayRef output_size,
                                        int64_t spatial);

// The adaptive average pooling backward's self and grad_output.
void check_adaptive_avg_backward(const char* op, const at::Tensor& grad_output, const at::Tensor& self);

// The pooled size of `in` (CPU's formula, ceil_mode's last window starting inside input or padding).
int64_t pooled_size(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceil_mode);

// values[i], or the one value given for every dimension.
int64_t pick(at::IntArrayRef values, size_t i);

// avg_pool2d's output shape, checked like CPU.
std::vector<int64_t> avg_pool2d_shape(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                      at::IntArrayRef padding, bool ceil_mode, c10::optional<int64_t> divisor_override);

// max_pool3d_with_indices' output shape, checked like CPU.
std::vector<int64_t> max_pool3d_shape(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                      at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode);

// max_pool3d_with_indices' checks (max_pool3d_shape's, self floating) and output shape.
std::vector<int64_t> max_pool3d_with_indices_shape(const at::Tensor& self, at::IntArrayRef kernel_size,
                                                   at::IntArrayRef stride, at::IntArrayRef padding,
                                                   at::IntArrayRef dilation, bool ceil_mode);

// max_pool3d_with_indices_backward's checks: max_pool3d_shape's, self floating, grad_output and indices of the
// pooled shape.
void check_max_pool3d_backward(const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef kernel_size,
                               at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                               bool ceil_mode, const at::Tensor& indices);

}  // namespace op_plugin::utils
