// What the two paths of log_sigmoid and hardswish_backward share: argument checks, and the boundaries of
// hardswish's gradient.
#pragma once

#include <ATen/core/Tensor.h>

namespace op_plugin::utils {

// log_sigmoid_forward takes a floating self.
void check_log_sigmoid_self(const at::Tensor& self);

// A gradient `op` (log_sigmoid_backward) takes floating grad_output and self of one shape.
void check_floating_grad(const char* op, const at::Tensor& grad_output, const at::Tensor& self);

// hardswish_backward at x = -3 and x = 3 as the linked torch's CPU kernel gives it. CANN's kernel (and
// ATen's before its boundary fix) takes the band [-3, 3] closed: grad * (x / 3 + 0.5) at both ends. The
// newer ATen gives 0 at -3 and grad at 3; then grad_input is corrected there, as upstream's op-plugin does.
// The convention is read once from at::hardswish_backward on CPU.
void match_cpu_hardswish_backward_boundaries(const at::Tensor& grad_output, const at::Tensor& self,
                                             at::Tensor& grad_input);

}  // namespace op_plugin::utils
