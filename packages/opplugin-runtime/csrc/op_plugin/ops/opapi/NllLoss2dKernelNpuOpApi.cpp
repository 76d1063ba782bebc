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

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

void check_nll2d_inputs(const at::Tensor& self, const at::Tensor& target, const c10::optional<at::Tensor>& weight,
                        int64_t reduction) {
  TORCH_CHECK(target.dim() == 3,
              "only batches of spatial targets supported (3D tensors) but got targets of dimension: ", target.dim());
  TORCH_CHECK(self.dim() == 4, "only batches of spatial inputs supported (4D tensors), but got input of dimension: ",
              self.dim());
  if (weight.has_value() && weight->defined()) {
    TORCH_CHECK(weight->numel() == self.size(1), "weight tensor should be defined either for all or no classes");
  }
  TORCH_CHECK(self.size(0) == target.size(0) && self.size(2) == target.size(1) && self.size(3) == target.size(2),
              "size mismatch (got input: ", self.sizes(), " , target: ", target.sizes());
  TORCH_CHECK(target.scalar_type() == at::kLong || target.scalar_type() == at::kInt ||
                  target.scalar_type() == at::kByte,
              "nll_loss2d: expected target dtype to be Long, Int or Byte, but got ", target.scalar_type());
  TORCH_CHECK(self.scalar_type() == at::kFloat || self.scalar_type() == at::kHalf ||
                  self.scalar_type() == at::kBFloat16,
              "nll_loss2d: self has dtype ", self.scalar_type(), "; npu supports Float, Half and BFloat16");
  TORCH_CHECK(reduction >= at::Reduction::None && reduction <= at::Reduction::Sum, "nll_loss2d: reduction ", reduction,
              " is not None (0), Mean (1) or Sum (2)");
}

at::Tensor class_weight(const at::Tensor& self, const c10::optional<at::Tensor>& weight) {
  if (!weight.has_value() || !weight->defined()) return at::Tensor();
  const at::Tensor w = weight->reshape({-1});
  return w.scalar_type() == self.scalar_type() ? w : w.to(self.scalar_type());
}

std::vector<int64_t> output_size(const at::Tensor& target, int64_t reduction) {
  if (reduction != at::Reduction::None) return {};
  return std::vector<int64_t>(target.sizes().begin(), target.sizes().end());
}

void check_nll2d_grad(const at::Tensor& grad_output, const at::Tensor& target, int64_t reduction,
                      const at::Tensor& total_weight) {
  TORCH_CHECK(total_weight.numel() == 1, "expected total_weight to be a single element tensor, got: ",
              total_weight.sizes(), " (", total_weight.numel(), " elements)");
  if (reduction == at::Reduction::None) {
    TORCH_CHECK(grad_output.sizes() == target.sizes(), "nll_loss2d_backward: grad_output ", grad_output.sizes(),
                " must have the target's shape ", target.sizes());
  } else {
    TORCH_CHECK(grad_output.numel() == 1, "nll_loss2d_backward: expected a single element grad_output, got ",
                grad_output.sizes());
  }
}

at::Tensor& nll2d_backward_run(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                               const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                               const at::Tensor& total_weight, at::Tensor& grad_input) {
  if (grad_input.numel() == 0) return grad_input;
  const at::Tensor w = class_weight(self, weight);
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
  check_nll2d_inputs(self, target, weight, reduction);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, target}, output, self.scalar_type(), output_size(target, reduction));
  OpPreparation::check_tensor({self, target}, total_weight, self.scalar_type(), c10::IntArrayRef{});
  const at::Tensor w = class_weight(self, weight);
  EXEC_NPU_CMD(aclnnNLLLoss2d, self, target, w, reduction, ignore_index, output, total_weight);
  return std::tie(output, total_weight);
}

::std::tuple<at::Tensor, at::Tensor> nll_loss2d_forward(const at::Tensor& self, const at::Tensor& target,
                                                        const c10::optional<at::Tensor>& weight, int64_t reduction,
                                                        int64_t ignore_index) {
  check_nll2d_inputs(self, target, weight, reduction);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor output = OpPreparation::apply_tensor_without_format(output_size(target, reduction), self.options());
  at::Tensor total_weight = OpPreparation::apply_tensor_without_format({}, self.options());
  const at::Tensor w = class_weight(self, weight);
  EXEC_NPU_CMD(aclnnNLLLoss2d, self, target, w, reduction, ignore_index, output, total_weight);
  return std::make_tuple(output, total_weight);
}

at::Tensor& nll_loss2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                                    const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                    const at::Tensor& total_weight, at::Tensor& grad_input) {
  check_nll2d_inputs(self, target, weight, reduction);
  check_nll2d_grad(grad_output, target, reduction, total_weight);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self, target}, grad_input, self.scalar_type(), self.sizes());
  return nll2d_backward_run(grad_output, self, target, weight, reduction, ignore_index, total_weight, grad_input);
}

at::Tensor nll_loss2d_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                               const c10::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                               const at::Tensor& total_weight) {
  check_nll2d_inputs(self, target, weight, reduction);
  check_nll2d_grad(grad_output, target, reduction, total_weight);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return nll2d_backward_run(grad_output, self, target, weight, reduction, ignore_index, total_weight, grad_input);
}

}  // namespace op_api
