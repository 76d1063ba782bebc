// native_layer_norm / native_layer_norm_backward on the op_api path
// (aclnnLayerNorm, aclnnLayerNormBackward). mean and rstd have the input's
// leading dimensions followed by ones and the input's dtype, as on CPU.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <array>
#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/native_layer_norm.h"
#include "op_plugin/ops/native_layer_norm_backward.h"
#include "op_plugin/utils/LayerNormUtils.h"

namespace op_api {
using at_npu::native::OpPreparation;
using op_plugin::utils::check_layer_norm;

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm(const at::Tensor& input,
                                                                 at::IntArrayRef normalized_shape,
                                                                 const c10::optional<at::Tensor>& weight,
                                                                 const c10::optional<at::Tensor>& bias, double eps) {
  c10_npu::NPUGuard guard(input.device());
  const auto stats_shape = check_layer_norm("native_layer_norm", input, normalized_shape, weight, bias);
  // weight/bias of another float dtype are converted to the input's (CPU's mixed-type rule keeps them float).
  const at::Tensor w = weight.has_value() && weight->defined() ? *weight : at::Tensor();
  const at::Tensor b = bias.has_value() && bias->defined() ? *bias : at::Tensor();
  at::Tensor out = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  at::Tensor mean = OpPreparation::apply_tensor_without_format(stats_shape, input.options());
  at::Tensor rstd = OpPreparation::apply_tensor_without_format(stats_shape, input.options());
  EXEC_NPU_CMD(aclnnLayerNorm, input, normalized_shape, w.defined() ? w.to(input.scalar_type()) : w,
               b.defined() ? b.to(input.scalar_type()) : b, eps, out, mean, rstd);
  return std::make_tuple(out, mean, rstd);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, at::IntArrayRef normalized_shape, const at::Tensor& mean,
    const at::Tensor& rstd, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    ::std::array<bool, 3> output_mask) {
  c10_npu::NPUGuard guard(input.device());
  check_layer_norm("native_layer_norm_backward", input, normalized_shape, weight, bias);
  const at::Tensor w = weight.has_value() && weight->defined() ? *weight : at::Tensor();
  const at::Tensor b = bias.has_value() && bias->defined() ? *bias : at::Tensor();
  op_plugin::utils::check_layer_norm_backward(grad_out, input, w, b, output_mask);
  const bool want_dx = output_mask[0], want_dw = output_mask[1], want_db = output_mask[2];
  at::Tensor grad_input, grad_weight, grad_bias;
  if (want_dx) grad_input = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  if (want_dw) grad_weight = OpPreparation::apply_tensor_without_format(w.sizes(), w.options());
  if (want_db) grad_bias = OpPreparation::apply_tensor_without_format(b.sizes(), b.options());
  if (!want_dx && !want_dw && !want_db) return std::make_tuple(grad_input, grad_weight, grad_bias);
  const at::Tensor grad = grad_out.scalar_type() == input.scalar_type() ? grad_out : grad_out.to(input.scalar_type());
  const std::array<bool, 3> mask = {want_dx, want_dw, want_db};
  const at::Tensor stats_rstd = rstd.scalar_type() == mean.scalar_type() ? rstd : rstd.to(mean.scalar_type());
  EXEC_NPU_CMD(aclnnLayerNormBackward, grad, input, normalized_shape, mean, stats_rstd, w, b, mask, grad_input,
               grad_weight, grad_bias);
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace op_api
