// native_group_norm / native_group_norm_backward on the acl_op path: "GroupNormSwish" without its swish (the
// forward with rstd, as upstream runs it where CANN has the type) and "GroupNormGrad" (CANN's gradient from
// mean and rstd). An absent weight/bias is ones/zeros (the types require both); the checks and messages are
// the op_api kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>

#include <array>
#include <tuple>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/native_group_norm.h"
#include "op_plugin/ops/native_group_norm_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/GroupNormUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::AddInputAs;
using op_plugin::utils::group_norm_param;

at::Tensor new_like(c10::IntArrayRef sizes, const at::Tensor& like) {
  return OpPreparation::apply_tensor_without_format(sizes, like.options());
}

}  // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_group_norm(const at::Tensor& input,
                                                                 const c10::optional<at::Tensor>& weight,
                                                                 const c10::optional<at::Tensor>& bias, int64_t N,
                                                                 int64_t C, int64_t HxW, int64_t group, double eps) {
  c10_npu::NPUGuard guard(input.device());
  const at::Tensor w = group_norm_param(weight, input);
  const at::Tensor b = group_norm_param(bias, input);
  op_plugin::utils::check_group_norm_forward(input, w, b, N, C, HxW, group);
  const at::ScalarType dtype = input.scalar_type();
  // the type reads (N, C, HxW) from the shape: a channels_last input is read in NCHW order
  const at::Tensor x = input.contiguous().view({N, C, HxW});
  at::Tensor out = new_like(input.sizes(), input);
  at::Tensor mean = new_like({N, group}, input);
  at::Tensor rstd = new_like({N, group}, input);
  OpCommand cmd;
  cmd.Name("GroupNormSwish");
  AddInputAs(cmd, x, dtype);
  AddInputAs(cmd, w.defined() ? w : at::ones({C}, input.options()), dtype);
  AddInputAs(cmd, b.defined() ? b : at::zeros({C}, input.options()), dtype);
  at::Tensor y = out.view({N, C, HxW});
  cmd.Output(y)
      .Output(mean)
      .Output(rstd)
      .Attr("num_groups", group)
      .Attr("data_format", std::string("NCHW"))
      .Attr("eps", static_cast<float>(eps))
      .Attr("activate_swish", false)
      .Run();
  return std::make_tuple(out, mean, rstd);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_group_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const at::Tensor& mean, const at::Tensor& rstd,
    const c10::optional<at::Tensor>& weight, int64_t N, int64_t C, int64_t HxW, int64_t group,
    ::std::array<bool, 3> output_mask) {
  c10_npu::NPUGuard guard(input.device());
  const at::Tensor w = group_norm_param(weight, input);
  op_plugin::utils::check_group_norm("native_group_norm_backward", input, w, N, C, HxW, group);
  if (!output_mask[0] && !output_mask[1] && !output_mask[2]) {
    return std::make_tuple(at::Tensor(), at::Tensor(), at::Tensor());
  }
  const at::ScalarType dtype = input.scalar_type();
  at::Tensor grad_input = new_like({N, C, HxW}, input);
  at::Tensor grad_weight = new_like({C}, input);
  at::Tensor grad_bias = new_like({C}, input);
  OpCommand cmd;
  cmd.Name("GroupNormGrad");
  AddInputAs(cmd, grad_out.contiguous().view({N, C, HxW}), dtype);
  AddInputAs(cmd, mean.reshape({N, group}), dtype);
  AddInputAs(cmd, rstd.reshape({N, group}), dtype);
  AddInputAs(cmd, input.contiguous().view({N, C, HxW}), dtype);
  AddInputAs(cmd, w.defined() ? w : at::ones({C}, input.options()), dtype);
  cmd.Output(grad_input)
      .Output(grad_weight)
      .Output(grad_bias)
      .Attr("num_groups", group)
      .Attr("data_format", std::string("NCHW"))
      .Attr("dx_is_require", output_mask[0])
      .Attr("dgamma_is_require", output_mask[1])
      .Attr("dbeta_is_require", output_mask[2])
      .Run();
  // the parameters' gradients in the weight's dtype, as CPU gives them
  const at::ScalarType param_dtype = weight.has_value() && weight->defined() ? weight->scalar_type() : dtype;
  return std::make_tuple(output_mask[0] ? grad_input.view(input.sizes()) : at::Tensor(),
                         output_mask[1] ? grad_weight.to(param_dtype) : at::Tensor(),
                         output_mask[2] ? grad_bias.to(param_dtype) : at::Tensor());
}

}  // namespace acl_op
