// The elementwise losses on the acl_op path: mse_loss (+ backward, "MseLoss" / "MseLossGrad"),
// smooth_l1_loss (+ backward, "SmoothL1LossV2" / "SmoothL1LossGradV2" with beta as the float attribute
// sigma) and binary_cross_entropy (+ backward, "BinaryCrossEntropy" / "BinaryCrossEntropyGrad", the
// weight an optional last input), each with the reduction as a string attribute. The operands are
// cast to the result's dtype (the executor broadcasts them); result sizes and dtypes are the op_api
// kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Reduction.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include <functional>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "op_plugin/ops/binary_cross_entropy.h"
#include "op_plugin/ops/binary_cross_entropy_backward.h"
#include "op_plugin/ops/mse_loss.h"
#include "op_plugin/ops/mse_loss_backward.h"
#include "op_plugin/ops/smooth_l1_loss.h"
#include "op_plugin/ops/smooth_l1_loss_backward.h"
#include "op_plugin/utils/AclOpUtils.h"

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
  if (!at_npu::native::FormatHelper::IsOpInputBaseFormat(out) || !out.is_contiguous()) {
    at::Tensor temp = OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
    loss_nocheck(type, inputs, reduction, temp, attrs);
    out.copy_(temp);
    return out;
  }
  if (out.numel() == 0) {
    return out;
  }
  OpCommand cmd;
  cmd.Name(type);
  for (const at::Tensor& input : inputs) {
    if (input.defined()) {
      op_plugin::utils::AddInputAs(cmd, input, out.scalar_type());
    }
  }
  cmd.Output(out).Attr("reduction", reduction);
  if (attrs) {
    attrs(cmd);
  }
  cmd.Run();
  return out;
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

}  // namespace acl_op
