// nan_to_num.out and log_sigmoid on the op_api path (aclnnNanToNum, aclnnLogSigmoidForward,
// aclnnLogSigmoidBackward): ops whose arguments gen_opapi cannot express. nan_to_num's checks and
// replacement values are shared with its acl_op path (op_plugin/utils/UnaryMathUtils.h), log_sigmoid's checks
// too (ActivationUtils.h); log_sigmoid_forward's buffer is an empty tensor and the backward recomputes from
// self (as CUDA does).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/log_sigmoid_backward.h"
#include "op_plugin/ops/log_sigmoid_forward.h"
#include "op_plugin/ops/frexp.h"
#include "op_plugin/ops/nan_to_num.h"
#include "op_plugin/utils/ActivationUtils.h"
#include "op_plugin/utils/UnaryMathUtils.h"

namespace op_api {
namespace {

using npu_preparation = at_npu::native::OpPreparation;

}  // namespace

at::Tensor& nan_to_num_out(const at::Tensor& self, c10::optional<double> nan, c10::optional<double> posinf,
                           c10::optional<double> neginf, at::Tensor& out) {
  const op_plugin::utils::NanToNumValues values = op_plugin::utils::nan_to_num_values(self, nan, posinf, neginf, out);
  c10_npu::NPUGuard guard(self.device());
  npu_preparation::check_tensor({self}, out, self.scalar_type(), self.sizes());
  EXEC_NPU_CMD(aclnnNanToNum, self, values.nan, values.posinf, values.neginf, out);
  return out;
}

std::tuple<at::Tensor, at::Tensor> log_sigmoid_forward(const at::Tensor& self) {
  op_plugin::utils::check_log_sigmoid_self(self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor output = npu_preparation::apply_tensor_without_format(self);
  at::Tensor buffer = npu_preparation::apply_tensor_without_format({0}, self.options());
  EXEC_NPU_CMD(aclnnLogSigmoidForward, self, output, buffer);
  return std::make_tuple(output, buffer);
}

std::tuple<at::Tensor&, at::Tensor&> log_sigmoid_forward_out(const at::Tensor& self, at::Tensor& output,
                                                             at::Tensor& buffer) {
  op_plugin::utils::check_log_sigmoid_self(self);
  c10_npu::NPUGuard guard(self.device());
  npu_preparation::check_tensor({self}, output, self.scalar_type(), self.sizes());
  EXEC_NPU_CMD(aclnnLogSigmoidForward, self, output, buffer);
  return std::tie(output, buffer);
}

at::Tensor log_sigmoid_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& buffer) {
  op_plugin::utils::check_floating_grad("log_sigmoid_backward", grad_output, self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = npu_preparation::apply_tensor_without_format(
      self.sizes(), grad_output.options().dtype(at::result_type(grad_output, self)));
  EXEC_NPU_CMD(aclnnLogSigmoidBackward, grad_output, self, buffer, grad_input);
  return grad_input;
}

at::Tensor& log_sigmoid_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& buffer,
                                     at::Tensor& grad_input) {
  op_plugin::utils::check_floating_grad("log_sigmoid_backward", grad_output, self);
  c10_npu::NPUGuard guard(self.device());
  npu_preparation::check_tensor({grad_output, self}, grad_input, at::result_type(grad_output, self), self.sizes());
  EXEC_NPU_CMD(aclnnLogSigmoidBackward, grad_output, self, buffer, grad_input);
  return grad_input;
}

// The functional forms (CompositeExplicitAutograd in ATen) allocate their results here, so
// that an allocation failure is reported under the op's name.
at::Tensor nan_to_num(const at::Tensor& self, c10::optional<double> nan, c10::optional<double> posinf,
                      c10::optional<double> neginf) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = npu_preparation::apply_tensor_without_format(self);
  return op_api::nan_to_num_out(self, nan, posinf, neginf, out);
}

std::tuple<at::Tensor, at::Tensor> frexp(const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()),
              "torch.frexp() only supports floating-point dtypes");
  c10_npu::NPUGuard guard(self.device());
  at::Tensor mantissa = npu_preparation::apply_tensor_without_format(self);
  at::Tensor exponent = npu_preparation::apply_tensor_without_format(self.sizes(), self.options().dtype(at::kInt));
  op_api::frexp_out(self, mantissa, exponent);
  return std::make_tuple(mantissa, exponent);
}

}  // namespace op_api
