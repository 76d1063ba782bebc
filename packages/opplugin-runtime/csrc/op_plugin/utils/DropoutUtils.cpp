#include "op_plugin/utils/DropoutUtils.h"

#include <ATen/ops/mul.h>
#include <c10/util/Exception.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"

namespace op_plugin::utils {

void check_dropout_probability(const char* op, double p) {
  TORCH_CHECK(p >= 0 && p <= 1, op, ": dropout probability has to be between 0 and 1, but got ", p);
}

c10::optional<std::tuple<at::Tensor, at::Tensor>> dropout_without_draw(const at::Tensor& input, double p,
                                                                         c10::optional<bool> train, at::Tensor* mask) {
  check_dropout_probability("native_dropout", p);
  *mask = at_npu::native::OpPreparation::apply_tensor_without_format(input.sizes(), input.options().dtype(at::kBool));
  if (input.numel() == 0) {
    return std::make_tuple(input, *mask);
  }
  if (train.has_value() && !*train) {
    mask->fill_(true);
    return std::make_tuple(input.clone(), *mask);
  }
  return c10::nullopt;
}

at::Tensor dropout_backward(const at::Tensor& grad_output, const at::Tensor& mask, double scale,
                            const MaskedScaleFn& masked_scale) {
  c10_npu::NPUGuard guard(grad_output.device());
  if (mask.scalar_type() != at::ScalarType::Bool || grad_output.scalar_type() == at::ScalarType::Double) {
    return grad_output.mul(mask).mul(scale);
  }
  const auto output_size = op_infer::broadcast_ops_npu_output_size(grad_output, mask);
  at::Tensor grad_input = at_npu::native::OpPreparation::apply_tensor_without_format(output_size,
                                                                                     grad_output.options());
  if (grad_input.numel() > 0) {
    masked_scale(grad_output.expand(output_size), mask.view(at::kByte).expand(output_size), grad_input);
  }
  return grad_input;
}

}  // namespace op_plugin::utils
