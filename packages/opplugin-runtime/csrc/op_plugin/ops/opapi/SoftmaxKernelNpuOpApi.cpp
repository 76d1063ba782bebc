// _softmax / _log_softmax (+ out=) and their backward ops on the op_api path
// (aclnnSoftmax, aclnnLogSoftmax, aclnnSoftmaxBackward, aclnnLogSoftmaxBackward).
// half_to_float (float16/bfloat16 in, float32 out) is computed as CUDA does: the
// kernel runs in float32 on the converted input; the backward writes grad_input
// in Half for a Half input (ATen's rule).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/WrapDimUtils.h>
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/_log_softmax.h"
#include "op_plugin/ops/_log_softmax_backward_data.h"
#include "op_plugin/ops/_softmax.h"
#include "op_plugin/ops/_softmax_backward_data.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

bool is_kernel_float(at::ScalarType t) {
  return t == at::kFloat || t == at::kHalf || t == at::kBFloat16;
}

// The output dtype of _softmax/_log_softmax; checks self's dtype and dim.
at::ScalarType softmax_result_type(const char* op, const at::Tensor& self, int64_t dim, bool half_to_float) {
  TORCH_CHECK(is_kernel_float(self.scalar_type()), op, ": self has dtype ", self.scalar_type(),
              "; npu supports Float, Half and BFloat16");
  if (half_to_float) {
    TORCH_CHECK(self.scalar_type() == at::kHalf || self.scalar_type() == at::kBFloat16, op,
                ": conversion from ", self.scalar_type(), " to Float is not supported (half_to_float needs a Half or "
                "BFloat16 self)");
  }
  (void)c10::maybe_wrap_dim(dim, self.dim());  // IndexError naming the range, as on CPU
  return half_to_float ? at::kFloat : self.scalar_type();
}

void check_backward(const char* op, const at::Tensor& grad_output, const at::Tensor& output, int64_t dim) {
  TORCH_CHECK(is_kernel_float(grad_output.scalar_type()), op, ": grad_output has dtype ", grad_output.scalar_type(),
              "; npu supports Float, Half and BFloat16");
  TORCH_CHECK(output.scalar_type() == grad_output.scalar_type(), op, ": output has dtype ", output.scalar_type(),
              ", expected grad_output's ", grad_output.scalar_type());
  TORCH_CHECK(grad_output.sizes() == output.sizes(), op, ": grad_output shape ", grad_output.sizes(),
              " differs from output shape ", output.sizes());
  (void)c10::maybe_wrap_dim(dim, grad_output.dim());
}

// ATen's rule: a Float gradient of a Half input (half_to_float) gives a Half grad_input;
// otherwise grad_input has grad_output's dtype.
at::ScalarType backward_result_type(const at::Tensor& grad_output, at::ScalarType input_dtype) {
  return grad_output.scalar_type() == at::kFloat && input_dtype == at::kHalf ? at::kHalf : grad_output.scalar_type();
}

}  // namespace

at::Tensor _softmax(const at::Tensor& self, int64_t dim, bool half_to_float) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType result_type = softmax_result_type("_softmax", self, dim, half_to_float);
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(result_type));
  EXEC_NPU_CMD(aclnnSoftmax, self, dim, out);
  return out;
}

at::Tensor& _softmax_out(const at::Tensor& self, int64_t dim, bool half_to_float, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType result_type = softmax_result_type("_softmax_out", self, dim, half_to_float);
  OpPreparation::check_tensor({self}, out, result_type, self.sizes());
  TORCH_CHECK(out.scalar_type() == result_type, "_softmax_out: out has dtype ", out.scalar_type(), ", expected ",
              result_type);
  EXEC_NPU_CMD(aclnnSoftmax, self, dim, out);
  return out;
}

at::Tensor _log_softmax(const at::Tensor& self, int64_t dim, bool half_to_float) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType result_type = softmax_result_type("_log_softmax", self, dim, half_to_float);
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(result_type));
  EXEC_NPU_CMD(aclnnLogSoftmax, self, dim, out);
  return out;
}

at::Tensor& _log_softmax_out(const at::Tensor& self, int64_t dim, bool half_to_float, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType result_type = softmax_result_type("_log_softmax_out", self, dim, half_to_float);
  OpPreparation::check_tensor({self}, out, result_type, self.sizes());
  TORCH_CHECK(out.scalar_type() == result_type, "_log_softmax_out: out has dtype ", out.scalar_type(), ", expected ",
              result_type);
  EXEC_NPU_CMD(aclnnLogSoftmax, self, dim, out);
  return out;
}

at::Tensor _softmax_backward_data(const at::Tensor& grad_output, const at::Tensor& output, int64_t dim,
                                  at::ScalarType input_dtype) {
  c10_npu::NPUGuard guard(grad_output.device());
  check_backward("_softmax_backward_data", grad_output, output, dim);
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(
      grad_output.sizes(), grad_output.options().dtype(backward_result_type(grad_output, input_dtype)));
  EXEC_NPU_CMD(aclnnSoftmaxBackward, grad_output, output, dim, grad_input);
  return grad_input;
}

at::Tensor _log_softmax_backward_data(const at::Tensor& grad_output, const at::Tensor& output, int64_t dim,
                                      at::ScalarType input_dtype) {
  c10_npu::NPUGuard guard(grad_output.device());
  check_backward("_log_softmax_backward_data", grad_output, output, dim);
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(
      grad_output.sizes(), grad_output.options().dtype(backward_result_type(grad_output, input_dtype)));
  EXEC_NPU_CMD(aclnnLogSoftmaxBackward, grad_output, output, dim, grad_input);
  return grad_input;
}

}  // namespace op_api
