// What the two paths of log_sigmoid share: their argument checks.
#pragma once

#include <ATen/core/Tensor.h>

namespace op_plugin::utils {

// log_sigmoid_forward takes a floating self.
void check_log_sigmoid_self(const at::Tensor& self);

// A gradient `op` (log_sigmoid_backward) takes floating grad_output and self of one shape.
void check_floating_grad(const char* op, const at::Tensor& grad_output, const at::Tensor& self);

}  // namespace op_plugin::utils
