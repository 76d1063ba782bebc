// native_dropout and native_dropout_backward on the op_api path. The mask is a
// bool tensor of the input's shape (ATen's contract, so autograd, Meta and the
// CPU formula apply unchanged): aclnnInplaceBernoulli draws it with the keep
// probability 1 - p from the npu generator, and aclnnMaskedScale computes
// input * mask * scale (rounded after each product, as CPU's input.mul(mask).mul_(scale)).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <tuple>

#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/native_dropout.h"
#include "op_plugin/ops/native_dropout_backward.h"
#include "op_plugin/utils/DropoutUtils.h"

namespace op_api {

using at_npu::native::OpPreparation;

std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double p, c10::optional<bool> train) {
  c10_npu::NPUGuard guard(input.device());
  at::Tensor mask;
  if (auto done = op_plugin::utils::dropout_without_draw(input, p, train, &mask)) return *done;
  const double keep = 1.0 - p;
  const double scale = keep == 0 ? 0.0 : 1.0 / keep;
  const auto [seed, offset] = c10_npu::philoxInputsFor(c10::nullopt, input.device(), "native_dropout");
  EXEC_NPU_CMD(aclnnInplaceBernoulli, mask, at::Scalar(keep), static_cast<int64_t>(seed),
               static_cast<int64_t>(offset));
  at::Tensor output = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
  const at::Tensor mask_bytes = mask.view(at::kByte);  // aclnnMaskedScale takes a UINT8 mask
  EXEC_NPU_CMD(aclnnMaskedScale, input, mask_bytes, static_cast<float>(scale), output);
  return std::make_tuple(output, mask);
}

at::Tensor native_dropout_backward(const at::Tensor& grad_output, const at::Tensor& mask, double scale) {
  c10_npu::NPUGuard guard(grad_output.device());
  op_infer::SmallVector output_size;
  if (auto done = op_plugin::utils::dropout_backward_without_kernel(grad_output, mask, scale, &output_size)) {
    return *done;
  }
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(output_size, grad_output.options());
  if (grad_input.numel() == 0) return grad_input;
  const at::Tensor grad = grad_output.expand(output_size);
  const at::Tensor mask_bytes = mask.view(at::kByte).expand(output_size);
  EXEC_NPU_CMD(aclnnMaskedScale, grad, mask_bytes, static_cast<float>(scale), grad_input);
  return grad_input;
}

}  // namespace op_api
