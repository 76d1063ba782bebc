// native_group_norm / native_group_norm_backward on the op_api path (aclnnGroupNorm,
// aclnnGroupNormBackward). mean and rstd are (N, group) of the input's dtype, as on CPU.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <array>
#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/native_group_norm.h"
#include "op_plugin/ops/native_group_norm_backward.h"
#include "op_plugin/utils/GroupNormUtils.h"

namespace op_api {
using at_npu::native::OpPreparation;

using op_plugin::utils::check_group_norm;
using op_plugin::utils::group_norm_param;

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_group_norm(const at::Tensor& input,
                                                                 const c10::optional<at::Tensor>& weight,
                                                                 const c10::optional<at::Tensor>& bias, int64_t N,
                                                                 int64_t C, int64_t HxW, int64_t group, double eps) {
  c10_npu::NPUGuard guard(input.device());
  const at::Tensor w = group_norm_param(weight, input);
  const at::Tensor b = group_norm_param(bias, input);
  op_plugin::utils::check_group_norm_forward(input, w, b, N, C, HxW, group);
  const at::Tensor x = input.contiguous();
  at::Tensor out = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  at::Tensor mean = OpPreparation::apply_tensor_without_format({N, group}, input.options());
  at::Tensor rstd = OpPreparation::apply_tensor_without_format({N, group}, input.options());
  EXEC_NPU_CMD(aclnnGroupNorm, x, w, b, N, C, HxW, group, eps, out, mean, rstd);
  return std::make_tuple(out, mean, rstd);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_group_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const at::Tensor& mean, const at::Tensor& rstd,
    const c10::optional<at::Tensor>& weight, int64_t N, int64_t C, int64_t HxW, int64_t group,
    ::std::array<bool, 3> output_mask) {
  c10_npu::NPUGuard guard(input.device());
  const at::Tensor w = group_norm_param(weight, input);
  check_group_norm("native_group_norm_backward", input, w, N, C, HxW, group);
  at::Tensor grad_input, grad_weight, grad_bias;
  const at::TensorOptions param_options = weight.has_value() && weight->defined() ? weight->options()
                                                                                  : input.options();
  if (output_mask[0]) grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = OpPreparation::apply_tensor_without_format({C}, input.options());
  if (output_mask[2]) grad_bias = OpPreparation::apply_tensor_without_format({C}, input.options());
  if (!output_mask[0] && !output_mask[1] && !output_mask[2]) return std::make_tuple(grad_input, grad_weight, grad_bias);
  const at::Tensor grad = (grad_out.scalar_type() == input.scalar_type() ? grad_out : grad_out.to(input.scalar_type()))
                              .contiguous();
  const at::Tensor x = input.contiguous();
  const at::Tensor stats_rstd = rstd.scalar_type() == mean.scalar_type() ? rstd : rstd.to(mean.scalar_type());
  const std::array<bool, 3> mask = {output_mask[0], output_mask[1], output_mask[2]};
  EXEC_NPU_CMD(aclnnGroupNormBackward, grad, x, mean, stats_rstd, w, N, C, HxW, group, mask, grad_input,
               grad_weight, grad_bias);
  // the parameters' gradients in the weight's dtype, as CPU gives them
  if (grad_weight.defined() && grad_weight.scalar_type() != param_options.dtype()) {
    grad_weight = grad_weight.to(param_options.dtype());
  }
  if (grad_bias.defined() && grad_bias.scalar_type() != param_options.dtype()) {
    grad_bias = grad_bias.to(param_options.dtype());
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace op_api
