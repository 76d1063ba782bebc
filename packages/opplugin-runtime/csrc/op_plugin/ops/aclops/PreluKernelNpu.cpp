// channel_shuffle ("ShuffleChannel" with the attribute group) and _prelu_kernel ("PRelu", the weight as
// ATen shapes it to broadcast) on the acl_op path; the checks are the op_api kernels'
// (op_plugin/utils/ChannelShuffleUtils). An input of an internal format is converted to its base format.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_prelu_kernel.h"
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

}  // namespace acl_op
