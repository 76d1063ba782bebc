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

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

void check_nll_inputs(const char* op, const at::Tensor& self, const at::Tensor& target,
                      const c10::optional<at::Tensor>& weight, int64_t reduction) {
  TORCH_CHECK(self.dim() > 0 && self.dim() <= 2, op, ": input tensor should be 1D or 2D");
  TORCH_CHECK(target.dim() <= 1, op, ": 0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
  TORCH_CHECK(no_batch_dim || (self.size(0) == target.size(0)), op, ": size mismatch (got input: ", self.sizes(),
              ", target: ", target.sizes(), ")");
  TORCH_CHECK(target.scalar_type() == at::kLong || target.scalar_type() == at::kInt ||
                  target.scalar_type() == at::kByte,
              op, ": expected target dtype to be Long, Int or Byte, but got ", target.scalar_type());
  const int64_t n_classes = self.size(-1);
  if (weight.has_value() && weight->defined()) {
    TORCH_CHECK(weight->dim() <= 1 && weight->numel() == n_classes, op,
                ": weight tensor should be defined either for all ", n_classes,
                " classes or no classes but got weight tensor of shape: ", weight->sizes());
  }
  TORCH_CHECK(self.scalar_type() == at::kFloat || self.scalar_type() == at::kHalf ||
                  self.scalar_type() == at::kBFloat16,
              op, ": self has dtype ", self.scalar_type(), "; npu supports Float, Half and BFloat16");
  TORCH_CHECK(reduction >= at::Reduction::None && reduction <= at::Reduction::Sum, op, ": reduction ", reduction,
              " is not None (0), Mean (1) or Sum (2)");
}

// The weight as a 1-D tensor of self's dtype (or undefined).
at::Tensor class_weight(const at::Tensor& self, const c10::optional<at::Tensor>& weight) {
  if (!weight.has_value() || !weight->defined()) return at::Tensor();
  const at::Tensor w = weight->dim() == 0 ? weight->reshape({1}) : *weight;
  return w.scalar_type() == self.scalar_type() ? w : w.to(self.scalar_type());
}

// ATen: a 1-D self with reduction none is reduced like sum (output: the loss, total_weight: its weight).
int64_t effective_reduction(const at::Tensor& self, int64_t reduction) {
  return self.dim() == 1 && reduction == at::Reduction::None ? at::Reduction::Sum : reduction;
}

}  // namespace

std::tuple<at::Tensor, at::Tensor> nll_loss_forward(const at::Tensor& self, const at::Tensor& target,
                                                    const c10::optional<at::Tensor>& weight, int64_t reduction,
                                                    int64_t ignore_index) {
  c10_npu::NPUGuard guard(self.device());
  check_nll_inputs("nll_loss_forward", self, target, weight, reduction);
  const at::Tensor w = class_weight(self, weight);
  const int64_t how = effective_reduction(self, reduction);
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
  check_nll_inputs("nll_loss_backward", self, target, weight, reduction);
  TORCH_CHECK(total_weight.numel() == 1, "nll_loss_backward: expected total_weight to be a single element tensor, "
              "got: ", total_weight.sizes(), " (", total_weight.numel(), " elements)");
  const int64_t how = effective_reduction(self, reduction);
  if (how == at::Reduction::None) {
    TORCH_CHECK(grad_output.dim() == 1 && grad_output.size(0) == self.size(0), "nll_loss_backward: Expected a tensor "
                "of dimension 1 and tensor.size[0] == ", self.size(0), " but got: dimension ", grad_output.dim(),
                " and tensor.size[0] == ", grad_output.dim() > 0 ? grad_output.size(0) : 0);
  } else {
    TORCH_CHECK(grad_output.numel() == 1, "nll_loss_backward: Expected a single element grad_output tensor, but got: ",
                grad_output.sizes());
  }
  const at::Tensor w = class_weight(self, weight);
  const at::Tensor grad = grad_output.dim() == 0 || how == at::Reduction::None ? grad_output : grad_output.reshape({});
  const at::Tensor g = grad.scalar_type() == self.scalar_type() ? grad : grad.to(self.scalar_type());
  const at::Tensor tw = total_weight.scalar_type() == self.scalar_type() ? total_weight
                                                                         : total_weight.to(self.scalar_type());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  EXEC_NPU_CMD(aclnnNLLLossBackward, g, self, target, w, how, ignore_index, tw, grad_input);
  return grad_input;
}

}  // namespace op_api
