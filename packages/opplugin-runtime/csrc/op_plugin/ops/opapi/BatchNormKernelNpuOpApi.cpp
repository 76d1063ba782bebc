// Batch norm on the op_api path (aclnnBatchNorm, aclnnBatchNormBackward):
// native_batch_norm / native_batch_norm_backward (what nn.BatchNorm reaches on
// torch 2.1 through _batch_norm_impl_index) and, from the label where ATen's
// batch_norm calls them, _batch_norm_with_update / _batch_norm_no_update /
// batch_norm_backward; _native_batch_norm_legit (with running stats, or .no_stats), the
// form export and functionalization use. Training updates the running stats in place as CPU does
// (momentum, unbiased variance); saved mean/invstd are float32 [C] in both modes,
// as ATen's meta functions, CUDA and upstream torch_npu give them (CPU returns
// them empty in evaluation): the statistics the input was normalized with.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <array>
#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/core/TorchCompat.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/_batch_norm_no_update.h"
#include "op_plugin/ops/_batch_norm_with_update.h"
#include "op_plugin/ops/_native_batch_norm_legit.h"
#include "op_plugin/ops/batch_norm_backward.h"
#include "op_plugin/ops/native_batch_norm.h"
#include "op_plugin/ops/native_batch_norm_backward.h"
#include "op_plugin/utils/BatchNormUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

at::Tensor defined_or_empty(const c10::optional<at::Tensor>& t) {
  return t.has_value() && t->defined() ? *t : at::Tensor();
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> batch_norm_forward(const char* op, const at::Tensor& input,
                                                                  const at::Tensor& weight, const at::Tensor& bias,
                                                                  const at::Tensor& running_mean,
                                                                  const at::Tensor& running_var, bool training,
                                                                  double momentum, double eps) {
  c10_npu::NPUGuard guard(input.device());
  op_plugin::utils::check_batch_norm_forward(op, input, weight, bias, running_mean, running_var, training);
  const int64_t channels = input.size(1);
  at::Tensor out = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  const auto stats_options = input.options().dtype(at::kFloat);
  at::Tensor save_mean = OpPreparation::apply_tensor_without_format({channels}, stats_options);
  at::Tensor save_invstd = OpPreparation::apply_tensor_without_format({channels}, stats_options);
  if (input.numel() == 0) {
    op_plugin::utils::batch_norm_empty_stats(save_mean, save_invstd, running_mean, running_var, training, eps);
    return std::make_tuple(out, save_mean, save_invstd);
  }
  auto per_channel = [channels](const at::Tensor& t) { return t.defined() ? t.view({channels}) : t; };
  at::Tensor rm = per_channel(running_mean), rv = per_channel(running_var);
  EXEC_NPU_CMD(aclnnBatchNorm, input, per_channel(weight), per_channel(bias), rm, rv, training, momentum, eps, out,
               save_mean, save_invstd);
  return std::make_tuple(out, save_mean, save_invstd);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> batch_norm_grads(const char* op, const at::Tensor& grad_out,
                                                                const at::Tensor& input, const at::Tensor& weight,
                                                                const at::Tensor& running_mean,
                                                                const at::Tensor& running_var,
                                                                const at::Tensor& save_mean,
                                                                const at::Tensor& save_invstd, bool train, double eps,
                                                                std::array<bool, 3> output_mask) {
  c10_npu::NPUGuard guard(input.device());
  op_plugin::utils::check_batch_norm_backward(op, grad_out, input, weight, running_mean, running_var, save_mean,
                                              save_invstd, train);
  const int64_t channels = input.size(1);
  const auto param_options = weight.defined() ? weight.options() : input.options();
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = OpPreparation::apply_tensor_without_format({channels}, param_options);
  if (output_mask[2]) grad_bias = OpPreparation::apply_tensor_without_format({channels}, param_options);
  if (!output_mask[0] && !output_mask[1] && !output_mask[2]) {
    return std::make_tuple(grad_input, grad_weight, grad_bias);
  }
  const at::Tensor grad = grad_out.scalar_type() == input.scalar_type() ? grad_out : grad_out.to(input.scalar_type());
  // (empty saved stats of an eval forward count as absent)
  auto per_channel = [channels](const at::Tensor& t) {
    return t.defined() && t.numel() > 0 ? t.view({channels}) : at::Tensor();
  };
  EXEC_NPU_CMD(aclnnBatchNormBackward, grad, input, per_channel(weight), per_channel(running_mean),
               per_channel(running_var), per_channel(save_mean), per_channel(save_invstd), train, eps, output_mask,
               grad_input, grad_weight, grad_bias);
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm(
    const at::Tensor& input, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    const c10::optional<at::Tensor>& running_mean, const c10::optional<at::Tensor>& running_var, bool training,
    double momentum, double eps) {
  return batch_norm_forward("native_batch_norm", input, defined_or_empty(weight), defined_or_empty(bias),
                            defined_or_empty(running_mean), defined_or_empty(running_var), training, momentum, eps);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const c10::optional<at::Tensor>& weight,
    const c10::optional<at::Tensor>& running_mean, const c10::optional<at::Tensor>& running_var,
    const c10::optional<at::Tensor>& save_mean, const c10::optional<at::Tensor>& save_invstd, bool train, double eps,
    ::std::array<bool, 3> output_mask) {
  return batch_norm_grads("native_batch_norm_backward", grad_out, input, defined_or_empty(weight),
                          defined_or_empty(running_mean), defined_or_empty(running_var), defined_or_empty(save_mean),
                          defined_or_empty(save_invstd), train, eps, output_mask);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> _native_batch_norm_legit(
    const at::Tensor& input, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    at::Tensor& running_mean, at::Tensor& running_var, bool training, double momentum, double eps) {
  return batch_norm_forward("_native_batch_norm_legit", input, defined_or_empty(weight), defined_or_empty(bias),
                            running_mean, running_var, training, momentum, eps);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> _native_batch_norm_legit(const at::Tensor& input,
                                                                        const c10::optional<at::Tensor>& weight,
                                                                        const c10::optional<at::Tensor>& bias,
                                                                        bool training, double momentum, double eps) {
  return batch_norm_forward("_native_batch_norm_legit", input, defined_or_empty(weight), defined_or_empty(bias),
                            at::Tensor(), at::Tensor(), training, momentum, eps);
}

#if OP_API_LIVE(_batch_norm_with_update)
std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> _batch_norm_with_update(
    const at::Tensor& input, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    at::Tensor& running_mean, at::Tensor& running_var, double momentum, double eps) {
  auto [out, save_mean, save_invstd] =
      batch_norm_forward("_batch_norm_with_update", input, defined_or_empty(weight), defined_or_empty(bias),
                         running_mean, running_var, /*training=*/true, momentum, eps);
  at::Tensor reserve = OpPreparation::apply_tensor_without_format({0}, input.options().dtype(at::kByte));
  return std::make_tuple(out, save_mean, save_invstd, reserve);
}
#endif

#if OP_API_LIVE(_batch_norm_no_update)
std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> _batch_norm_no_update(
    const at::Tensor& input, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    const c10::optional<at::Tensor>& running_mean, const c10::optional<at::Tensor>& running_var, double momentum,
    double eps) {
  // No running stats: normalized with the batch statistics (nothing to update), as ATen does.
  const at::Tensor rm = defined_or_empty(running_mean), rv = defined_or_empty(running_var);
  auto [out, save_mean, save_invstd] =
      batch_norm_forward("_batch_norm_no_update", input, defined_or_empty(weight), defined_or_empty(bias), rm, rv,
                         /*training=*/!rm.defined(), momentum, eps);
  at::Tensor reserve = OpPreparation::apply_tensor_without_format({0}, input.options().dtype(at::kByte));
  return std::make_tuple(out, save_mean, save_invstd, reserve);
}
#endif

#if OP_API_LIVE(batch_norm_backward)
std::tuple<at::Tensor, at::Tensor, at::Tensor> batch_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const at::Tensor& weight,
    const c10::optional<at::Tensor>& running_mean, const c10::optional<at::Tensor>& running_var,
    const c10::optional<at::Tensor>& save_mean, const c10::optional<at::Tensor>& save_var, bool update, double eps,
    ::std::array<bool, 3> output_mask, const at::Tensor& reserve) {
  (void)reserve;  // cudnn's workspace; unused here
  const at::Tensor rm = defined_or_empty(running_mean);
  // save_var holds the saved invstd (ATen's naming); no running stats: the batch statistics were used.
  return batch_norm_grads("batch_norm_backward", grad_out, input, weight, rm, defined_or_empty(running_var),
                          defined_or_empty(save_mean), defined_or_empty(save_var), update || !rm.defined(), eps,
                          output_mask);
}
#endif

}  // namespace op_api
