// nll_loss2d_forward / nll_loss2d_backward (functional and out=) on the op_api path
// (aclnnNLLLoss2d, aclnnNLLLoss2dBackward): cross_entropy of an [N, C, H, W] input reaches them
// through nll_loss_nd. Argument checks and messages follow ATen's CPU kernel; an int32 target is
// accepted as for nll_loss (upstream torch_npu accepts it).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Reduction.h>
#include <ATen/core/Tensor.h>

#include <tuple>
#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/nll_loss2d_backward.h"
#include "op_plugin/ops/nll_loss2d_forward.h"
#include "op_plugin/utils/NllLossUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;
using op_plugin::utils::check_nll_loss2d_grad;
using op_plugin::utils::check_nll_loss2d_inputs;
using op_plugin::utils::nll_class_weight;
using op_plugin::utils::nll_loss2d_output_size;

at::Tensor& nll2d_backward_run(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                               const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                               const at::Tensor& total_weight, at::Tensor& grad_input) {
  if (grad_input.numel() == 0) return grad_input;
  const at::Tensor w = nll_class_weight(self, weight);
  const at::Tensor grad = reduction == at::Reduction::None ? grad_output : grad_output.reshape({});
  const at::Tensor g = grad.scalar_type() == self.scalar_type() ? grad : grad.to(self.scalar_type());
  const at::Tensor tw = total_weight.scalar_type() == self.scalar_type() ? total_weight.reshape({})
                                                                         : total_weight.reshape({}).to(self.scalar_type());
  EXEC_NPU_CMD(aclnnNLLLoss2dBackward, g, self, target, w, reduction, ignore_index, tw, grad_input);
  return grad_input;
}

}  // namespace

::std::tuple<at::Tensor&, at::Tensor&> nll_loss2d_forward_out(const at::Tensor& self, const at::Tensor& target,
                                                               const c10::optional<at::Tensor>& weight,
                                                               int64_t reduction, int64_t ignore_index,
                                                               at::Tensor& output, at::Tensor& total_weight) {
  check_nll_loss2d_inputs(self, target, weight, reduction);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, target}, output, self.scalar_type(), nll_loss2d_output_size(target, reduction));
  OpPreparation::check_tensor({self, target}, total_weight, self.scalar_type(), c10::IntArrayRef{});
  const at::Tensor w = nll_class_weight(self, weight);
  EXEC_NPU_CMD(aclnnNLLLoss2d, self, target, w, reduction, ignore_index, output, total_weight);
  return std::tie(output, total_weight);
}

::std::tuple<at::Tensor, at::Tensor> nll_loss2d_forward(const at::Tensor& self, const at::Tensor& target,
                                                        const c10::optional<at::Tensor>& weight, int64_t reduction,
                                                        int64_t ignore_index) {
  check_nll_loss2d_inputs(self, target, weight, reduction);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor output =
      OpPreparation::apply_tensor_without_format(nll_loss2d_output_size(target, reduction), self.options());
  at::Tensor total_weight = OpPreparation::apply_tensor_without_format({}, self.options());
  const at::Tensor w = nll_class_weight(self, weight);
  EXEC_NPU_CMD(aclnnNLLLoss2d, self, target, w, reduction, ignore_index, output, total_weight);
  return std::make_tuple(output, total_weight);
}

at::Tensor& nll_loss2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                                    const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                    const at::Tensor& total_weight, at::Tensor& grad_input) {
  check_nll_loss2d_inputs(self, target, weight, reduction);
  check_nll_loss2d_grad(grad_output, target, reduction, total_weight);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self, target}, grad_input, self.scalar_type(), self.sizes());
  return nll2d_backward_run(grad_output, self, target, weight, reduction, ignore_index, total_weight, grad_input);
}

at::Tensor nll_loss2d_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                               const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                               const at::Tensor& total_weight) {
  check_nll_loss2d_inputs(self, target, weight, reduction);
  check_nll_loss2d_grad(grad_output, target, reduction, total_weight);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return nll2d_backward_run(grad_output, self, target, weight, reduction, ignore_index, total_weight, grad_input);
}

}  // namespace op_api
