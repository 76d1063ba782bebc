// native_batch_norm / _native_batch_norm_legit on the acl_op path: training runs "BNTrainingReduce" (per-channel
// sum and sum of squares) then "BNTrainingUpdate" (normalization and the running statistics' update; the 3D
// types for a 5-D input), evaluation "BNInfer"; other ranks run as (N, C, L, 1). CANN's types give the batch
// variance where ATen saves invstd: save_invstd = Rsqrt(variance + eps). Per-channel tensors are float32 as the
// types require (running stats of another dtype or layout are updated through a copy); checks and messages
// are the op_api kernel's. native_batch_norm_backward runs "BNTrainingUpdateGrad" (the weight and bias
// gradients) then "BNTrainingReduceGrad" in training (the 3D types for a 5-D input), "BNInferGrad" in
// evaluation, from the variance: 1 / invstd^2 - eps of the saved invstd, the running variance in evaluation.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/full.h>

#include <tuple>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_native_batch_norm_legit.h"
#include "op_plugin/ops/native_batch_norm.h"
#include "op_plugin/ops/native_batch_norm_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/BatchNormUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::AddInputAs;

at::Tensor defined_or_empty(const c10::optional<at::Tensor>& t) {
  return t.has_value() && t->defined() ? *t : at::Tensor();
}

// `t` as a dense float32 [channels] tensor (`t`'s own storage when it already is one), `fill` when absent.
at::Tensor per_channel_float(const at::Tensor& t, int64_t channels, const at::Tensor& input, double fill) {
  if (!t.defined()) return at::full({channels}, fill, input.options().dtype(at::kFloat));
  if (t.scalar_type() == at::kFloat && t.is_contiguous()) return t.view({channels});
  return op_plugin::utils::cast_for_acl_op(t.contiguous().view({channels}), at::kFloat).contiguous();
}

at::Tensor new_stats(int64_t channels, const at::Tensor& input) {
  return OpPreparation::apply_tensor_without_format({channels}, input.options().dtype(at::kFloat));
}

// 1 / sqrt(variance + eps) of a float32 [C] variance.
at::Tensor invstd_of(const at::Tensor& variance, double eps) {
  at::Tensor shifted = OpPreparation::apply_tensor_without_format(variance.sizes(), variance.options());
  op_plugin::utils::elementwise_acl_op_out("Add", {variance, op_plugin::utils::scalar_operand(eps)}, at::kFloat,
                                           at::kFloat, shifted);
  at::Tensor invstd = OpPreparation::apply_tensor_without_format(variance.sizes(), variance.options());
  return op_plugin::utils::elementwise_acl_op_out("Rsqrt", {shifted}, at::kFloat, at::kFloat, invstd);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> batch_norm_forward(const char* op, const at::Tensor& input,
                                                                  const at::Tensor& weight, const at::Tensor& bias,
                                                                  const at::Tensor& running_mean,
                                                                  const at::Tensor& running_var, bool training,
                                                                  double momentum, double eps) {
  c10_npu::NPUGuard guard(input.device());
  op_plugin::utils::check_batch_norm_forward(op, input, weight, bias, running_mean, running_var, training);
  const int64_t channels = input.size(1);
  const at::ScalarType dtype = input.scalar_type();
  at::Tensor out = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  at::Tensor save_mean = new_stats(channels, input);
  at::Tensor save_invstd = new_stats(channels, input);
  if (input.numel() == 0) {
    op_plugin::utils::batch_norm_empty_stats(save_mean, save_invstd, running_mean, running_var, training, eps);
    return std::make_tuple(out, save_mean, save_invstd);
  }
  const bool three_d = training && input.dim() == 5;
  const at::Tensor x = three_d ? input : input.reshape({input.size(0), channels, -1, 1});
  at::Tensor y = three_d ? out : out.view(x.sizes());
  const at::Tensor scale = per_channel_float(weight, channels, input, 1.0);
  const at::Tensor offset = per_channel_float(bias, channels, input, 0.0);
  at::Tensor mean = per_channel_float(running_mean, channels, input, 0.0);
  at::Tensor variance = per_channel_float(running_var, channels, input, 1.0);
  if (!training) {
    OpCommand cmd;
    cmd.Name("BNInfer");
    AddInputAs(cmd, x, dtype);
    cmd.Input(scale).Input(offset).Input(mean).Input(variance).Output(y).Attr("epsilon", static_cast<float>(eps)).Run();
    save_mean.copy_(mean);
    return std::make_tuple(out, save_mean, invstd_of(variance, eps));
  }
  at::Tensor sum = new_stats(channels, input);
  at::Tensor square_sum = new_stats(channels, input);
  OpCommand reduce;
  reduce.Name(three_d ? "BN3DTrainingReduce" : "BNTrainingReduce");
  AddInputAs(reduce, x, dtype);
  reduce.Output(sum).Output(square_sum).Attr("epsilon", static_cast<float>(eps)).Run();
  at::Tensor batch_variance = new_stats(channels, input);
  OpCommand update;
  update.Name(three_d ? "BN3DTrainingUpdate" : "BNTrainingUpdate");
  AddInputAs(update, x, dtype);
  update.Input(sum).Input(square_sum).Input(scale).Input(offset).Input(mean).Input(variance);
  update.Output(y)
      .Output(mean)
      .Output(variance)
      .Output(save_mean)
      .Output(batch_variance)
      .Attr("epsilon", static_cast<float>(eps))
      .Attr("factor", static_cast<float>(momentum))
      .Run();
  // running stats updated through a copy (another dtype or layout) get the values back
  for (const auto& [given, updated] : {std::make_pair(running_mean, mean), std::make_pair(running_var, variance)}) {
    if (given.defined() && !given.is_same(updated) && given.data_ptr() != updated.data_ptr()) {
      const_cast<at::Tensor&>(given).copy_(updated.view(given.sizes()));
    }
  }
  return std::make_tuple(out, save_mean, invstd_of(batch_variance, eps));
}

// The variance an invstd of float32 [C] was computed from: 1 / invstd^2 - eps.
at::Tensor variance_of(const at::Tensor& invstd, double eps) {
  auto elementwise = [&invstd](const char* type, const std::vector<at::Tensor>& inputs) {
    at::Tensor out = OpPreparation::apply_tensor_without_format(invstd.sizes(), invstd.options());
    return op_plugin::utils::elementwise_acl_op_out(type, inputs, at::kFloat, at::kFloat, out);
  };
  const at::Tensor squared = elementwise("Mul", {invstd, invstd});
  const at::Tensor reciprocal = elementwise("Reciprocal", {squared});
  return elementwise("Add", {reciprocal, op_plugin::utils::scalar_operand(-eps)});
}

}  // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm(
    const at::Tensor& input, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    const c10::optional<at::Tensor>& running_mean, const c10::optional<at::Tensor>& running_var, bool training,
    double momentum, double eps) {
  return batch_norm_forward("native_batch_norm", input, defined_or_empty(weight), defined_or_empty(bias),
                            defined_or_empty(running_mean), defined_or_empty(running_var), training, momentum, eps);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> _native_batch_norm_legit(
    const at::Tensor& input, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    at::Tensor& running_mean, at::Tensor& running_var, bool training, double momentum, double eps) {
  return batch_norm_forward("_native_batch_norm_legit", input, defined_or_empty(weight), defined_or_empty(bias),
                            running_mean, running_var, training, momentum, eps);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const c10::optional<at::Tensor>& weight_opt,
    const c10::optional<at::Tensor>& running_mean_opt, const c10::optional<at::Tensor>& running_var_opt,
    const c10::optional<at::Tensor>& save_mean_opt, const c10::optional<at::Tensor>& save_invstd_opt, bool train,
    double eps, ::std::array<bool, 3> output_mask) {
  const char* op = "native_batch_norm_backward";
  c10_npu::NPUGuard guard(input.device());
  const at::Tensor weight = defined_or_empty(weight_opt);
  const at::Tensor running_mean = defined_or_empty(running_mean_opt);
  const at::Tensor running_var = defined_or_empty(running_var_opt);
  const at::Tensor save_mean = defined_or_empty(save_mean_opt);
  const at::Tensor save_invstd = defined_or_empty(save_invstd_opt);
  op_plugin::utils::check_batch_norm_backward(op, grad_out, input, weight, running_mean, running_var, save_mean,
                                              save_invstd, train);
  const int64_t channels = input.size(1);
  const at::ScalarType dtype = input.scalar_type();
  const auto param_options = weight.defined() ? weight.options() : input.options();
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = OpPreparation::apply_tensor_without_format({channels}, param_options);
  if (output_mask[2]) grad_bias = OpPreparation::apply_tensor_without_format({channels}, param_options);
  if (!output_mask[0] && !output_mask[1] && !output_mask[2]) {
    return std::make_tuple(grad_input, grad_weight, grad_bias);
  }
  if (input.numel() == 0) {  // the sums of no elements
    for (at::Tensor* grad : {&grad_weight, &grad_bias}) {
      if (grad->defined()) grad->zero_();
    }
    return std::make_tuple(grad_input, grad_weight, grad_bias);
  }
  const bool three_d = train && input.dim() == 5;
  auto as_bn_input = [&](const at::Tensor& t) { return three_d ? t : t.reshape({t.size(0), channels, -1, 1}); };
  const at::Tensor x = as_bn_input(input);
  const at::Tensor dy = as_bn_input(grad_out);
  const at::Tensor mean = per_channel_float(train ? save_mean : running_mean, channels, input, 0.0);
  const at::Tensor variance = train ? variance_of(per_channel_float(save_invstd, channels, input, 1.0), eps)
                                    : per_channel_float(running_var, channels, input, 1.0);
  at::Tensor diff_scale = new_stats(channels, input);
  at::Tensor diff_offset = new_stats(channels, input);
  OpCommand update;
  update.Name(three_d ? "BN3DTrainingUpdateGrad" : "BNTrainingUpdateGrad");
  AddInputAs(update, dy, dtype);
  AddInputAs(update, x, dtype);
  update.Input(mean).Input(variance).Output(diff_scale).Output(diff_offset);
  update.Attr("epsilon", static_cast<float>(eps)).Run();
  if (output_mask[0]) {
    const at::Tensor scale = per_channel_float(weight, channels, input, 1.0);
    at::Tensor dx = three_d ? grad_input : grad_input.view(x.sizes());
    OpCommand reduce;
    if (train) {
      reduce.Name(three_d ? "BN3DTrainingReduceGrad" : "BNTrainingReduceGrad");
      AddInputAs(reduce, dy, dtype);
      AddInputAs(reduce, x, dtype);
      reduce.Input(diff_scale).Input(diff_offset).Input(scale).Input(mean).Input(variance);
    } else {
      reduce.Name("BNInferGrad");
      AddInputAs(reduce, dy, dtype);
      reduce.Input(scale).Input(variance);
    }
    reduce.Output(dx).Attr("epsilon", static_cast<float>(eps)).Run();
  }
  if (grad_weight.defined()) grad_weight.copy_(diff_scale);
  if (grad_bias.defined()) grad_bias.copy_(diff_offset);
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace acl_op
