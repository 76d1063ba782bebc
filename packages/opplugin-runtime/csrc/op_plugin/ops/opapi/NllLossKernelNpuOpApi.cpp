// nll_loss_forward / nll_loss_backward on the op_api path (aclnnNLLLoss,
// aclnnNLLLossBackward); cross_entropy reaches them through log_softmax and
// nll_loss_nd. Argument checks and messages follow ATen's CPU kernel; a 1-D
// self is one sample (reduction none then behaves as sum, as on CPU: the loss
// and its weight). The target may be int64, int32 or uint8: int32 as upstream
// torch_npu accepts it (ATen's CPU kernel takes int64 and uint8 only).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Reduction.h>
#include <ATen/core/Tensor.h>

#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/nll_loss_backward.h"
#include "op_plugin/ops/nll_loss_forward.h"
#include "op_plugin/utils/NllLossUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;
using op_plugin::utils::check_nll_loss_inputs;
using op_plugin::utils::nll_class_weight;
using op_plugin::utils::nll_loss_effective_reduction;

}  // namespace

std::tuple<at::Tensor, at::Tensor> nll_loss_forward(const at::Tensor& self, const at::Tensor& target,
                                                    const c10::optional<at::Tensor>& weight, int64_t reduction,
                                                    int64_t ignore_index) {
  c10_npu::NPUGuard guard(self.device());
  check_nll_loss_inputs("nll_loss_forward", self, target, weight, reduction);
  const at::Tensor w = nll_class_weight(self, weight);
  const int64_t how = nll_loss_effective_reduction(self, reduction);
  c10::SmallVector<int64_t, 1> out_size;
  if (how == at::Reduction::None) out_size.push_back(self.size(0));
  at::Tensor output = OpPreparation::apply_tensor_without_format(out_size, self.options());
  at::Tensor total_weight = OpPreparation::apply_tensor_without_format({}, self.options());
  EXEC_NPU_CMD(aclnnNLLLoss, self, target, w, how, ignore_index, output, total_weight);
  return std::make_tuple(output, total_weight);
}

at::Tensor nll_loss_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                             const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                             const at::Tensor& total_weight) {
  c10_npu::NPUGuard guard(self.device());
  check_nll_loss_inputs("nll_loss_backward", self, target, weight, reduction);
  const int64_t how = nll_loss_effective_reduction(self, reduction);
  op_plugin::utils::check_nll_loss_grad(self, grad_output, how, total_weight);
  const at::Tensor w = nll_class_weight(self, weight);
  const at::Tensor grad = grad_output.dim() == 0 || how == at::Reduction::None ? grad_output : grad_output.reshape({});
  const at::Tensor g = grad.scalar_type() == self.scalar_type() ? grad : grad.to(self.scalar_type());
  const at::Tensor tw = total_weight.scalar_type() == self.scalar_type() ? total_weight
                                                                         : total_weight.to(self.scalar_type());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  EXEC_NPU_CMD(aclnnNLLLossBackward, g, self, target, w, how, ignore_index, tw, grad_input);
  return grad_input;
}

}  // namespace op_api
