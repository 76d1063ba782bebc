#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/ActivationUtils.h"

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

}  // namespace op_plugin::utils
