#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/ActivationUtils.h"

#include <ATen/ops/hardswish_backward.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/where.h>

namespace op_plugin::utils {

void check_log_sigmoid_self(const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "log_sigmoid_forward: expected a floating self, but got ",
              self.scalar_type());
}

void check_floating_grad(const char* op, const at::Tensor& grad_output, const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(grad_output.scalar_type()) && at::isFloatingType(self.scalar_type()), op,
              ": expected floating grad_output and self, but got ", grad_output.scalar_type(), " and ",
              self.scalar_type());
  TORCH_CHECK(grad_output.sizes() == self.sizes(), op, ": grad_output of shape ", grad_output.sizes(),
              " differs from self of shape ", self.sizes());
}

namespace {

// Whether the CPU kernel of the linked torch gives 0 at -3 and grad at 3 (the half-open band).
bool cpu_band_is_half_open() {
  static const bool half_open = [] {
    const at::Tensor x = at::tensor({-3.0f, 3.0f});
    const at::Tensor g = at::hardswish_backward(at::tensor({1.0f, 1.0f}), x);
    return g[0].item<float>() == 0.0f && g[1].item<float>() == 1.0f;
  }();
  return half_open;
}

}  // namespace

void match_cpu_hardswish_backward_boundaries(const at::Tensor& grad_output, const at::Tensor& self,
                                             at::Tensor& grad_input) {
  if (!cpu_band_is_half_open() || grad_input.numel() == 0) return;
  grad_input.copy_(at::where(self.eq(3), grad_output, grad_input).masked_fill_(self.eq(-3), 0));
}

}  // namespace op_plugin::utils
