// channel_shuffle ("ShuffleChannel" with the attribute group), _prelu_kernel ("PRelu", the weight as
// ATen shapes it to broadcast) and _prelu_kernel_backward on the acl_op path; the checks are the op_api
// kernels' (op_plugin/utils/ChannelShuffleUtils). An input of an internal format is converted to its base format.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <tuple>
#include <vector>

#include <ATen/ExpandUtils.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_prelu_kernel.h"
#include "op_plugin/ops/_prelu_kernel_backward.h"
#include "op_plugin/ops/channel_shuffle.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ChannelShuffleUtils.h"

namespace acl_op {

at::Tensor channel_shuffle(const at::Tensor& self, int64_t groups) {
  op_plugin::utils::check_channel_shuffle(self, groups);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = at_npu::native::OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (result.numel() == 0) {
    return result;
  }
  at_npu::native::OpCommand cmd;
  cmd.Name("ShuffleChannel");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
  cmd.Output(result).Attr("group", groups).Run();
  return result;
}

at::Tensor _prelu_kernel(const at::Tensor& self, const at::Tensor& weight) {
  op_plugin::utils::check_prelu_self(self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = at_npu::native::OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (result.numel() == 0) {
    return result;
  }
  at_npu::native::OpCommand cmd;
  cmd.Name("PRelu");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
  op_plugin::utils::AddInputAs(cmd, weight, self.scalar_type());
  cmd.Output(result).Run();
  return result;
}

// grad_self = x > 0 ? g : w * g and grad_weight = x > 0 ? 0 : x * g, both in the broadcast shape as ATen's
// kernel gives them (autograd sums grad_weight to the weight's shape): "Greater", "Mul", "Select" and
// "MaskedFill". (CANN's "PReluGrad" returns the weight gradient already summed, which is not ATen's result.)
std::tuple<at::Tensor, at::Tensor> _prelu_kernel_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                                          const at::Tensor& weight) {
  using at_npu::native::OpCommand;
  using at_npu::native::OpPreparation;
  using op_plugin::utils::elementwise_acl_op_out;
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = self.scalar_type();
  const std::vector<int64_t> size = at::infer_size(at::infer_size(self.sizes(), weight.sizes()), grad_output.sizes());
  at::Tensor grad_self = OpPreparation::apply_tensor_without_format(size, self.options());
  at::Tensor grad_weight = OpPreparation::apply_tensor_without_format(size, self.options());
  if (grad_self.numel() == 0) {
    return std::make_tuple(grad_self, grad_weight);
  }
  at::Tensor positive = OpPreparation::apply_tensor_without_format(size, self.options().dtype(at::kBool));
  elementwise_acl_op_out("Greater", {self, op_plugin::utils::scalar_operand(0)}, dtype, at::kBool, positive);
  at::Tensor scaled = OpPreparation::apply_tensor_without_format(size, self.options());
  elementwise_acl_op_out("Mul", {weight, grad_output}, dtype, dtype, scaled);
  OpCommand select;
  select.Name("Select");
  op_plugin::utils::AddInputAs(select, positive, at::kBool);
  op_plugin::utils::AddInputAs(select, grad_output, dtype);
  op_plugin::utils::AddInputAs(select, scaled, dtype);
  select.Output(grad_self).Run();
  elementwise_acl_op_out("Mul", {self, grad_output}, dtype, dtype, grad_weight);
  OpCommand fill;
  fill.Name("MaskedFill").Input(grad_weight).Input(positive).Input(c10::Scalar(0), dtype).Output(grad_weight).Run();
  return std::make_tuple(grad_self, grad_weight);
}

}  // namespace acl_op
