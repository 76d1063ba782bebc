// What the padding ops' two paths share: CPU's argument checks and messages and the result sizes.
#pragma once

#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/util/ArrayRef.h>

namespace op_plugin::utils {

// `op`'s self of a floating dtype the npu kernels take (float32, float16, bfloat16, float64).
void check_floating(const char* op, const at::Tensor& self);

// reflection_pad2d's checks (CPU's messages) and the padded sizes of self.
std::vector<int64_t> reflection_pad2d_shape(const at::Tensor& self, at::IntArrayRef padding);

// A padding backward's grad_output has self's padded sizes (`spatial` trailing padded dimensions).
void check_pad_backward(const char* op, const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef padding,
                        int64_t spatial);

}  // namespace op_plugin::utils
