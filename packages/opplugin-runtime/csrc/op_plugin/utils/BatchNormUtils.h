// What the batch norm ops share on both paths: the argument checks (messages naming the op) and the saved
// statistics of an empty input.
#pragma once

#include <ATen/core/Tensor.h>

namespace op_plugin::utils {

// `op`'s (N, C, ...) float input, per-channel weight/bias/running stats (undefined: absent); evaluation
// needs the running stats.
void check_batch_norm(const char* op, const at::Tensor& input, const at::Tensor& weight, const at::Tensor& bias,
                      const at::Tensor& running_mean, const at::Tensor& running_var, bool training);

// check_batch_norm, and where the label's CPU does so, refuses training on an input without elements.
void check_batch_norm_forward(const char* op, const at::Tensor& input, const at::Tensor& weight,
                              const at::Tensor& bias, const at::Tensor& running_mean, const at::Tensor& running_var,
                              bool training);

// `op`'s backward arguments: check_batch_norm's, grad_out of input's shape and, in training, the saved
// statistics of C elements.
void check_batch_norm_backward(const char* op, const at::Tensor& grad_out, const at::Tensor& input,
                               const at::Tensor& weight, const at::Tensor& running_mean,
                               const at::Tensor& running_var, const at::Tensor& save_mean,
                               const at::Tensor& save_invstd, bool train);

// save_mean/save_invstd ([C] float32) of an input without elements: NaN in training (the statistics of no
// elements, as on CPU; the running stats are kept), else the running statistics it would be normalized with.
void batch_norm_empty_stats(at::Tensor& save_mean, at::Tensor& save_invstd, const at::Tensor& running_mean,
                            const at::Tensor& running_var, bool training, double eps);

}  // namespace op_plugin::utils
