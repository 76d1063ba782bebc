#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/NllLossUtils.h"

#include <ATen/core/Reduction.h>

namespace op_plugin::utils {
namespace {

bool is_kernel_float(at::ScalarType t) { return t == at::kFloat || t == at::kHalf || t == at::kBFloat16; }

void check_target_self_reduction(const char* op, const at::Tensor& self, const at::Tensor& target,
                                 int64_t reduction) {
  TORCH_CHECK(target.scalar_type() == at::kLong || target.scalar_type() == at::kInt ||
                  target.scalar_type() == at::kByte,
              op, ": expected target dtype to be Long, Int or Byte, but got ", target.scalar_type());
  TORCH_CHECK(is_kernel_float(self.scalar_type()), op, ": self has dtype ", self.scalar_type(),
              "; npu supports Float, Half and BFloat16");
  TORCH_CHECK(reduction >= at::Reduction::None && reduction <= at::Reduction::Sum, op, ": reduction ", reduction,
              " is not None (0), Mean (1) or Sum (2)");
}

}  // namespace

void check_nll_loss_inputs(const char* op, const at::Tensor& self, const at::Tensor& target,
                           const c10::optional<at::Tensor>& weight, int64_t reduction) {
  TORCH_CHECK(self.dim() > 0 && self.dim() <= 2, op, ": input tensor should be 1D or 2D");
  TORCH_CHECK(target.dim() <= 1, op, ": 0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
  TORCH_CHECK(no_batch_dim || (self.size(0) == target.size(0)), op, ": size mismatch (got input: ", self.sizes(),
              ", target: ", target.sizes(), ")");
  const int64_t n_classes = self.size(-1);
  if (weight.has_value() && weight->defined()) {
    TORCH_CHECK(weight->dim() <= 1 && weight->numel() == n_classes, op,
                ": weight tensor should be defined either for all ", n_classes,
                " classes or no classes but got weight tensor of shape: ", weight->sizes());
  }
  check_target_self_reduction(op, self, target, reduction);
}

void check_nll_loss_grad(const at::Tensor& self, const at::Tensor& grad_output, int64_t reduction,
                         const at::Tensor& total_weight) {
  TORCH_CHECK(total_weight.numel() == 1, "nll_loss_backward: expected total_weight to be a single element tensor, "
              "got: ", total_weight.sizes(), " (", total_weight.numel(), " elements)");
  if (reduction == at::Reduction::None) {
    TORCH_CHECK(grad_output.dim() == 1 && grad_output.size(0) == self.size(0), "nll_loss_backward: Expected a tensor "
                "of dimension 1 and tensor.size[0] == ", self.size(0), " but got: dimension ", grad_output.dim(),
                " and tensor.size[0] == ", grad_output.dim() > 0 ? grad_output.size(0) : 0);
  } else {
    TORCH_CHECK(grad_output.numel() == 1, "nll_loss_backward: Expected a single element grad_output tensor, but got: ",
                grad_output.sizes());
  }
}

int64_t nll_loss_effective_reduction(const at::Tensor& self, int64_t reduction) {
  return self.dim() == 1 && reduction == at::Reduction::None ? at::Reduction::Sum : reduction;
}

void check_nll_loss2d_inputs(const at::Tensor& self, const at::Tensor& target,
                             const c10::optional<at::Tensor>& weight, int64_t reduction) {
  TORCH_CHECK(target.dim() == 3,
              "only batches of spatial targets supported (3D tensors) but got targets of dimension: ", target.dim());
  TORCH_CHECK(self.dim() == 4, "only batches of spatial inputs supported (4D tensors), but got input of dimension: ",
              self.dim());
  if (weight.has_value() && weight->defined()) {
    TORCH_CHECK(weight->numel() == self.size(1), "weight tensor should be defined either for all or no classes");
  }
  TORCH_CHECK(self.size(0) == target.size(0) && self.size(2) == target.size(1) && self.size(3) == target.size(2),
              "size mismatch (got input: ", self.sizes(), " , target: ", target.sizes());
  check_target_self_reduction("nll_loss2d", self, target, reduction);
}

void check_nll_loss2d_grad(const at::Tensor& grad_output, const at::Tensor& target, int64_t reduction,
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

std::vector<int64_t> nll_loss2d_output_size(const at::Tensor& target, int64_t reduction) {
  if (reduction != at::Reduction::None) return {};
  return std::vector<int64_t>(target.sizes().begin(), target.sizes().end());
}

at::Tensor nll_class_weight(const at::Tensor& self, const c10::optional<at::Tensor>& weight) {
  if (!weight.has_value() || !weight->defined()) return at::Tensor();
  const at::Tensor w = weight->reshape({-1});
  return w.scalar_type() == self.scalar_type() ? w : w.to(self.scalar_type());
}

}  // namespace op_plugin::utils
