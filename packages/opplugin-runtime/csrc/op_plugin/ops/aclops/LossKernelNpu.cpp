// The elementwise losses on the acl_op path: mse_loss (+ backward, "MseLoss" / "MseLossGrad"),
// smooth_l1_loss (+ backward, "SmoothL1LossV2" / "SmoothL1LossGradV2" with beta as the float attribute
// sigma) and binary_cross_entropy (+ backward, "BinaryCrossEntropy" / "BinaryCrossEntropyGrad", the
// weight an optional last input), each with the reduction as a string attribute. The operands are
// cast to the result's dtype (the executor broadcasts them); result sizes and dtypes are the op_api
// kernels'. nll_loss and nll_loss2d (+ backward) run "NLLLoss" / "NLLLossGrad" on rows of classes (the
// spatial positions of nll_loss2d moved into rows) with the class weight (ones without one), the
// reduction and ignore_index as attributes; checks and messages are shared with the op_api kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Reduction.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/result_type.h>

#include <functional>
#include <tuple>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "op_plugin/ops/binary_cross_entropy.h"
#include "op_plugin/ops/binary_cross_entropy_backward.h"
#include "op_plugin/ops/mse_loss.h"
#include "op_plugin/ops/mse_loss_backward.h"
#include "op_plugin/ops/nll_loss2d_backward.h"
#include "op_plugin/ops/nll_loss2d_forward.h"
#include "op_plugin/ops/nll_loss_backward.h"
#include "op_plugin/ops/nll_loss_forward.h"
#include "op_plugin/ops/smooth_l1_loss.h"
#include "op_plugin/ops/smooth_l1_loss_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/NllLossUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

bool is_kernel_float(at::ScalarType t) { return t == at::kFloat || t == at::kHalf || t == at::kBFloat16; }

void check_kernel_float(const char* op, const char* name, at::ScalarType t) {
  TORCH_CHECK(is_kernel_float(t), op, ": ", name, " has dtype ", t, "; npu supports Float, Half and BFloat16");
}

const char* reduction_name(const char* op, int64_t reduction) {
  switch (reduction) {
    case at::Reduction::None:
      return "none";
    case at::Reduction::Mean:
      return "mean";
    case at::Reduction::Sum:
      return "sum";
    default:
      TORCH_CHECK(false, op, ": reduction ", reduction, " is not 0 (none), 1 (mean) or 2 (sum)");
  }
}

// The sizes of a loss of `self` and `target`: their broadcast shape, 0-D when reduced.
op_infer::SmallVector loss_size(const at::Tensor& self, const at::Tensor& target, int64_t reduction) {
  if (reduction != at::Reduction::None) {
    return {};
  }
  return op_infer::broadcast_ops_npu_output_size(self, target);
}

// The sizes of a loss gradient: grad_output, self and target broadcast.
op_infer::SmallVector grad_size(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target) {
  return op_infer::broadcast_ops_npu_output_size(op_infer::broadcast_ops_npu_output_size(grad_output, self),
                                                 target.sizes());
}

// out <- type(inputs cast to out's dtype) with the reduction attribute and `attrs`; undefined inputs
// (an absent weight) are left out. An out of an internal format or with strides gets the values
// through a base-format temporary and copy_.
at::Tensor& loss_nocheck(const char* type, const std::vector<at::Tensor>& inputs, const char* reduction,
                         at::Tensor& out, const std::function<void(OpCommand&)>& attrs = nullptr) {
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name(type);
    for (const at::Tensor& input : inputs) {
      if (input.defined()) {
        op_plugin::utils::AddInputAs(cmd, input, result.scalar_type());
      }
    }
    cmd.Output(result).Attr("reduction", reduction);
    if (attrs) {
      attrs(cmd);
    }
    cmd.Run();
  });
}

const at::Tensor& weight_of(const c10::optional<at::Tensor>& weight) {
  static const at::Tensor undefined;
  return weight.has_value() ? *weight : undefined;
}

void check_bce_operands(const char* op, const at::Tensor& self, const at::Tensor& target, const at::Tensor& weight) {
  check_kernel_float(op, "self", self.scalar_type());
  check_kernel_float(op, "target", target.scalar_type());
  if (weight.defined()) {
    check_kernel_float(op, "weight", weight.scalar_type());
  }
}

at::Tensor& mse_loss_backward_nocheck(const at::Tensor& grad_output, const at::Tensor& self,
                                      const at::Tensor& target, int64_t reduction, at::Tensor& grad_input) {
  const char* name = reduction_name("mse_loss_backward", reduction);
  check_kernel_float("mse_loss_backward", "grad_input", grad_input.scalar_type());
  return loss_nocheck("MseLossGrad", {self, target, grad_output}, name, grad_input);
}

at::Tensor& bce_backward_nocheck(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                                 const at::Tensor& weight, int64_t reduction, at::Tensor& grad_input) {
  const char* name = reduction_name("binary_cross_entropy_backward", reduction);
  check_bce_operands("binary_cross_entropy_backward", self, target, weight);
  check_kernel_float("binary_cross_entropy_backward", "grad_input", grad_input.scalar_type());
  return loss_nocheck("BinaryCrossEntropyGrad", {self, target, grad_output, weight}, name, grad_input);
}

at::Tensor& bce_nocheck(const at::Tensor& self, const at::Tensor& target, const at::Tensor& weight,
                        int64_t reduction, at::Tensor& out) {
  const char* name = reduction_name("binary_cross_entropy", reduction);
  check_bce_operands("binary_cross_entropy", self, target, weight);
  check_kernel_float("binary_cross_entropy", "out", out.scalar_type());
  return loss_nocheck("BinaryCrossEntropy", {self, target, weight}, name, out);
}

// The class weight of `classes` classes in self's dtype: ones without one.
at::Tensor nll_weight(const at::Tensor& self, const c10::optional<at::Tensor>& weight, int64_t classes) {
  at::Tensor w = op_plugin::utils::nll_class_weight(self, weight);
  return w.defined() ? w : at::ones({classes}, self.options());
}

// A target of a dtype "NLLLoss" takes (int32, int64): a uint8 one becomes int32.
at::Tensor nll_target(const at::Tensor& target) {
  return target.scalar_type() == at::kByte ? op_plugin::utils::cast_for_acl_op(target, at::kInt) : target;
}

// (output, total_weight) of rows `self` (N x C, or C) against `target` with `reduction`.
std::tuple<at::Tensor, at::Tensor> nll_forward_run(const at::Tensor& self, const at::Tensor& target,
                                                   const c10::optional<at::Tensor>& weight, int64_t reduction,
                                                   int64_t ignore_index) {
  c10::SmallVector<int64_t, 1> size;
  if (reduction == at::Reduction::None) {
    size.push_back(self.size(0));
  }
  at::Tensor output = OpPreparation::apply_tensor_without_format(size, self.options());
  at::Tensor total_weight = OpPreparation::apply_tensor_without_format({}, self.options());
  const at::ScalarType dtype = self.scalar_type();
  OpCommand cmd;
  cmd.Name("NLLLoss");
  op_plugin::utils::AddInputAs(cmd, self, dtype);
  cmd.Input(at_npu::native::to_base_format(nll_target(target), "acl_op input"));
  op_plugin::utils::AddInputAs(cmd, nll_weight(self, weight, self.size(-1)), dtype);
  cmd.Output(output)
      .Output(total_weight)
      .Attr("reduction", reduction_name("nll_loss", reduction))
      .Attr("ignore_index", ignore_index)
      .Run();
  return std::make_tuple(output, total_weight);
}

// The gradient of rows `self` for `grad` (one value per row for reduction none, else 0-D).
at::Tensor nll_backward_run(const at::Tensor& grad, const at::Tensor& self, const at::Tensor& target,
                            const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                            const at::Tensor& total_weight) {
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (grad_input.numel() == 0) {
    return grad_input;
  }
  const at::ScalarType dtype = self.scalar_type();
  OpCommand cmd;
  cmd.Name("NLLLossGrad");
  op_plugin::utils::AddInputAs(cmd, self, dtype);
  op_plugin::utils::AddInputAs(cmd, grad, dtype);
  cmd.Input(at_npu::native::to_base_format(nll_target(target), "acl_op input"));
  op_plugin::utils::AddInputAs(cmd, nll_weight(self, weight, self.size(-1)), dtype);
  op_plugin::utils::AddInputAs(cmd, total_weight.reshape({}), dtype);
  cmd.Output(grad_input)
      .Attr("reduction", reduction_name("nll_loss_backward", reduction))
      .Attr("ignore_index", ignore_index)
      .Run();
  return grad_input;
}

// nll_loss2d's self (N, C, H, W) as rows of classes (N * H * W, C).
at::Tensor nll2d_rows(const at::Tensor& self) { return self.permute({0, 2, 3, 1}).reshape({-1, self.size(1)}); }

}  // namespace

at::Tensor& mse_loss_out(const at::Tensor& self, const at::Tensor& target, int64_t reduction, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const char* name = reduction_name("mse_loss", reduction);
  check_kernel_float("mse_loss", "out", out.scalar_type());
  return loss_nocheck("MseLoss", {self, target}, name, out);
}

at::Tensor mse_loss_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                             int64_t reduction) {
  c10_npu::NPUGuard guard(grad_output.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(
      grad_size(grad_output, self, target), grad_output.options().dtype(at::result_type(grad_output, self)));
  return mse_loss_backward_nocheck(grad_output, self, target, reduction, grad_input);
}

at::Tensor& mse_loss_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                                  int64_t reduction, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(grad_output.device());
  OpPreparation::check_tensor({grad_output, self, target}, grad_input, at::result_type(grad_output, self),
                              grad_size(grad_output, self, target));
  return mse_loss_backward_nocheck(grad_output, self, target, reduction, grad_input);
}

at::Tensor& smooth_l1_loss_out(const at::Tensor& self, const at::Tensor& target, int64_t reduction, double beta,
                               at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const char* name = reduction_name("smooth_l1_loss", reduction);
  TORCH_CHECK(beta >= 0, "smooth_l1_loss: beta must be non-negative, got ", beta);
  check_kernel_float("smooth_l1_loss", "out", out.scalar_type());
  return loss_nocheck("SmoothL1LossV2", {self, target}, name, out,
                      [beta](OpCommand& cmd) { cmd.Attr("sigma", static_cast<float>(beta)); });
}

at::Tensor& smooth_l1_loss_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                        const at::Tensor& target, int64_t reduction, double beta,
                                        at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(grad_output.device());
  const char* name = reduction_name("smooth_l1_loss_backward", reduction);
  TORCH_CHECK(beta >= 0, "smooth_l1_loss_backward: beta must be non-negative, got ", beta);
  OpPreparation::check_tensor({grad_output, self, target}, grad_input, at::result_type(grad_output, self),
                              grad_size(grad_output, self, target));
  check_kernel_float("smooth_l1_loss_backward", "grad_input", grad_input.scalar_type());
  return loss_nocheck("SmoothL1LossGradV2", {self, target, grad_output}, name, grad_input,
                      [beta](OpCommand& cmd) { cmd.Attr("sigma", static_cast<float>(beta)); });
}

at::Tensor binary_cross_entropy(const at::Tensor& self, const at::Tensor& target,
                                const c10::optional<at::Tensor>& weight, int64_t reduction) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(loss_size(self, target, reduction),
                                                              self.options().dtype(at::result_type(self, target)));
  return bce_nocheck(self, target, weight_of(weight), reduction, out);
}

at::Tensor& binary_cross_entropy_out(const at::Tensor& self, const at::Tensor& target,
                                     const c10::optional<at::Tensor>& weight, int64_t reduction, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, target, weight_of(weight)}, out, at::result_type(self, target),
                              loss_size(self, target, reduction));
  return bce_nocheck(self, target, weight_of(weight), reduction, out);
}

at::Tensor binary_cross_entropy_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                         const at::Tensor& target, const c10::optional<at::Tensor>& weight,
                                         int64_t reduction) {
  c10_npu::NPUGuard guard(grad_output.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(
      grad_size(grad_output, self, target), grad_output.options().dtype(at::result_type(grad_output, self)));
  return bce_backward_nocheck(grad_output, self, target, weight_of(weight), reduction, grad_input);
}

at::Tensor& binary_cross_entropy_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                              const at::Tensor& target, const c10::optional<at::Tensor>& weight,
                                              int64_t reduction, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(grad_output.device());
  OpPreparation::check_tensor({grad_output, self, target, weight_of(weight)}, grad_input,
                              at::result_type(grad_output, self), grad_size(grad_output, self, target));
  return bce_backward_nocheck(grad_output, self, target, weight_of(weight), reduction, grad_input);
}

std::tuple<at::Tensor, at::Tensor> nll_loss_forward(const at::Tensor& self, const at::Tensor& target,
                                                    const c10::optional<at::Tensor>& weight, int64_t reduction,
                                                    int64_t ignore_index) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_nll_loss_inputs("nll_loss_forward", self, target, weight, reduction);
  const int64_t how = op_plugin::utils::nll_loss_effective_reduction(self, reduction);
  return nll_forward_run(self, target, weight, how, ignore_index);
}

at::Tensor nll_loss_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                             const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                             const at::Tensor& total_weight) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_nll_loss_inputs("nll_loss_backward", self, target, weight, reduction);
  const int64_t how = op_plugin::utils::nll_loss_effective_reduction(self, reduction);
  op_plugin::utils::check_nll_loss_grad(self, grad_output, how, total_weight);
  const at::Tensor grad = how == at::Reduction::None ? grad_output : grad_output.reshape({});
  return nll_backward_run(grad, self, target, weight, how, ignore_index, total_weight);
}

std::tuple<at::Tensor, at::Tensor> nll_loss2d_forward(const at::Tensor& self, const at::Tensor& target,
                                                      const c10::optional<at::Tensor>& weight, int64_t reduction,
                                                      int64_t ignore_index) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_nll_loss2d_inputs(self, target, weight, reduction);
  auto [output, total_weight] = nll_forward_run(nll2d_rows(self), target.reshape({-1}), weight, reduction,
                                                ignore_index);
  return std::make_tuple(output.reshape(op_plugin::utils::nll_loss2d_output_size(target, reduction)), total_weight);
}

std::tuple<at::Tensor&, at::Tensor&> nll_loss2d_forward_out(const at::Tensor& self, const at::Tensor& target,
                                                            const c10::optional<at::Tensor>& weight,
                                                            int64_t reduction, int64_t ignore_index,
                                                            at::Tensor& output, at::Tensor& total_weight) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_nll_loss2d_inputs(self, target, weight, reduction);
  OpPreparation::check_tensor({self, target}, output, self.scalar_type(),
                              op_plugin::utils::nll_loss2d_output_size(target, reduction));
  OpPreparation::check_tensor({self, target}, total_weight, self.scalar_type(), c10::IntArrayRef{});
  auto [result, total] = nll_forward_run(nll2d_rows(self), target.reshape({-1}), weight, reduction, ignore_index);
  output.copy_(result.reshape(output.sizes()));
  total_weight.copy_(total);
  return std::tie(output, total_weight);
}

at::Tensor nll_loss2d_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                               const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                               const at::Tensor& total_weight) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_nll_loss2d_inputs(self, target, weight, reduction);
  op_plugin::utils::check_nll_loss2d_grad(grad_output, target, reduction, total_weight);
  const at::Tensor grad = reduction == at::Reduction::None ? grad_output.reshape({-1}) : grad_output.reshape({});
  const at::Tensor rows = nll_backward_run(grad, nll2d_rows(self), target.reshape({-1}), weight, reduction,
                                           ignore_index, total_weight);
  return rows.reshape({self.size(0), self.size(2), self.size(3), self.size(1)}).permute({0, 3, 1, 2}).contiguous();
}

at::Tensor& nll_loss2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                                    const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                    const at::Tensor& total_weight, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_nll_loss2d_inputs(self, target, weight, reduction);
  op_plugin::utils::check_nll_loss2d_grad(grad_output, target, reduction, total_weight);
  OpPreparation::check_tensor({grad_output, self, target}, grad_input, self.scalar_type(), self.sizes());
  grad_input.copy_(acl_op::nll_loss2d_backward(grad_output, self, target, weight, reduction, ignore_index,
                                               total_weight));
  return grad_input;
}

}  // namespace acl_op
