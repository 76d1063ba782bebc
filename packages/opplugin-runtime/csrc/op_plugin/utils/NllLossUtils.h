// What nll_loss and nll_loss2d's two paths share: the argument checks and messages (those of ATen's
// CPU kernels), the class weight as passed to the device and the result sizes.
#pragma once

#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

// nll_loss_forward / nll_loss_backward (`op`): a 1-D or 2-D self, its target, weight and reduction.
void check_nll_loss_inputs(const char* op, const at::Tensor& self, const at::Tensor& target,
                           const c10::optional<at::Tensor>& weight, int64_t reduction);

// nll_loss_backward's grad_output and total_weight for `reduction` (the effective one).
void check_nll_loss_grad(const at::Tensor& self, const at::Tensor& grad_output, int64_t reduction,
                         const at::Tensor& total_weight);

// ATen: a 1-D self with reduction none is reduced like sum (output: the loss, total_weight: its weight).
int64_t nll_loss_effective_reduction(const at::Tensor& self, int64_t reduction);

// nll_loss2d_forward / nll_loss2d_backward: a 4-D self, its 3-D target, weight and reduction.
void check_nll_loss2d_inputs(const at::Tensor& self, const at::Tensor& target,
                             const c10::optional<at::Tensor>& weight, int64_t reduction);

// nll_loss2d_backward's grad_output and total_weight.
void check_nll_loss2d_grad(const at::Tensor& grad_output, const at::Tensor& target, int64_t reduction,
                           const at::Tensor& total_weight);

// nll_loss2d's output sizes: the target's without a reduction, else 0-D.
std::vector<int64_t> nll_loss2d_output_size(const at::Tensor& target, int64_t reduction);

// The class weight as a 1-D tensor of self's dtype (undefined when there is none).
at::Tensor nll_class_weight(const at::Tensor& self, const c10::optional<at::Tensor>& weight);

}  // namespace op_plugin::utils
