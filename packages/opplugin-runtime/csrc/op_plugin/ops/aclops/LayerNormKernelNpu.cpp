// native_layer_norm / native_layer_norm_backward on the acl_op path ("LayerNorm", "LayerNormGrad"). CANN's
// types return and take the per-row variance where ATen has rstd: rstd = Rsqrt(variance + eps) after the
// forward, variance = 1 / rstd^2 - 1e-12 before the gradient (LayerNormGrad adds its fixed 1e-12 back).
// An absent weight/bias is ones/zeros (the types require both); checks and messages are the op_api kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>

#include <array>
#include <limits>
#include <tuple>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/native_layer_norm.h"
#include "op_plugin/ops/native_layer_norm_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/LayerNormUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::elementwise_acl_op_out;
using op_plugin::utils::scalar_operand;

// The epsilon CANN's LayerNormGrad adds to the variance it is given.
constexpr double kLayerNormGradEpsilon = 1e-12;

at::Tensor new_like(c10::IntArrayRef sizes, const at::Tensor& like, at::ScalarType dtype) {
  return OpPreparation::apply_tensor_without_format(sizes, like.options().dtype(dtype));
}

// The elementwise acl op `type` of `inputs` in `dtype`, a new tensor of `sizes`.
at::Tensor elementwise(const char* type, const std::vector<at::Tensor>& inputs, c10::IntArrayRef sizes,
                       at::ScalarType dtype) {
  at::Tensor out = new_like(sizes, inputs[0], dtype);
  elementwise_acl_op_out(type, inputs, dtype, dtype, out);
  return out;
}

}  // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm(const at::Tensor& input,
                                                                 at::IntArrayRef normalized_shape,
                                                                 const c10::optional<at::Tensor>& weight,
                                                                 const c10::optional<at::Tensor>& bias, double eps) {
  c10_npu::NPUGuard guard(input.device());
  const auto stats_shape =
      op_plugin::utils::check_layer_norm("native_layer_norm", input, normalized_shape, weight, bias);
  const at::ScalarType dtype = input.scalar_type();
  at::Tensor out = new_like(input.sizes(), input, dtype);
  at::Tensor mean = new_like(stats_shape, input, dtype);
  if (input.numel() == 0) {  // rows of no elements: mean 0 and rstd NaN, as on CPU
    mean.zero_();
    at::Tensor rstd = new_like(stats_shape, input, dtype);
    rstd.fill_(std::numeric_limits<double>::quiet_NaN());
    return std::make_tuple(out, mean, rstd);
  }
  const at::Tensor gamma = weight.has_value() && weight->defined() ? *weight : at::ones(normalized_shape, input.options());
  const at::Tensor beta = bias.has_value() && bias->defined() ? *bias : at::zeros(normalized_shape, input.options());
  at::Tensor variance = new_like(stats_shape, input, dtype);
  const int64_t axis = input.dim() - static_cast<int64_t>(normalized_shape.size());
  OpCommand cmd;
  cmd.Name("LayerNorm");
  op_plugin::utils::AddInputAs(cmd, input, dtype);
  op_plugin::utils::AddInputAs(cmd, gamma, dtype);
  op_plugin::utils::AddInputAs(cmd, beta, dtype);
  cmd.Output(out)
      .Output(mean)
      .Output(variance)
      .Attr("begin_norm_axis", axis)
      .Attr("begin_params_axis", axis)
      .Attr("epsilon", static_cast<float>(eps))
      .Run();
  const at::Tensor shifted = elementwise("Add", {variance, scalar_operand(eps)}, stats_shape, dtype);
  return std::make_tuple(out, mean, elementwise("Rsqrt", {shifted}, stats_shape, dtype));
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, at::IntArrayRef normalized_shape, const at::Tensor& mean,
    const at::Tensor& rstd, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias,
    ::std::array<bool, 3> output_mask) {
  c10_npu::NPUGuard guard(input.device());
  const auto stats_shape =
      op_plugin::utils::check_layer_norm("native_layer_norm_backward", input, normalized_shape, weight, bias);
  const at::Tensor w = weight.has_value() && weight->defined() ? *weight : at::Tensor();
  const at::Tensor b = bias.has_value() && bias->defined() ? *bias : at::Tensor();
  op_plugin::utils::check_layer_norm_backward(grad_out, input, w, b, output_mask);
  const bool want_dx = output_mask[0], want_dw = output_mask[1], want_db = output_mask[2];
  if (!want_dx && !want_dw && !want_db) return std::make_tuple(at::Tensor(), at::Tensor(), at::Tensor());
  const at::ScalarType dtype = input.scalar_type();
  at::Tensor grad_input = new_like(input.sizes(), input, dtype);
  at::Tensor grad_weight = new_like(normalized_shape, input, dtype);
  at::Tensor grad_bias = new_like(normalized_shape, input, dtype);
  if (input.numel() == 0) {
    grad_weight.zero_();
    grad_bias.zero_();
  } else {
    const at::Tensor gamma = w.defined() ? w : at::ones(normalized_shape, input.options());
    const at::Tensor stats_rstd = rstd.reshape(stats_shape);
    const at::Tensor squared = elementwise("Mul", {stats_rstd, stats_rstd}, stats_shape, dtype);
    const at::Tensor reciprocal = elementwise("Reciprocal", {squared}, stats_shape, dtype);
    const at::Tensor variance =
        elementwise("Add", {reciprocal, scalar_operand(-kLayerNormGradEpsilon)}, stats_shape, dtype);
    OpCommand cmd;
    cmd.Name("LayerNormGrad");
    op_plugin::utils::AddInputAs(cmd, grad_out, dtype);
    op_plugin::utils::AddInputAs(cmd, input, dtype);
    op_plugin::utils::AddInputAs(cmd, variance, dtype);
    op_plugin::utils::AddInputAs(cmd, mean.reshape(stats_shape), dtype);
    op_plugin::utils::AddInputAs(cmd, gamma, dtype);
    cmd.Output(grad_input).Output(grad_weight).Output(grad_bias).Run();
  }
  return std::make_tuple(want_dx ? grad_input : at::Tensor(), want_dw ? grad_weight.to(w.scalar_type()) : at::Tensor(),
                         want_db ? grad_bias.to(b.scalar_type()) : at::Tensor());
}

}  // namespace acl_op
