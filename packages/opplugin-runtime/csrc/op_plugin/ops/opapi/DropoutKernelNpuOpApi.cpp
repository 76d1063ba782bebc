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
  return op_plugin::utils::dropout_backward(
      grad_output, mask, scale, [scale](const at::Tensor& grad, const at::Tensor& mask_bytes, at::Tensor& grad_input) {
        EXEC_NPU_CMD(aclnnMaskedScale, grad, mask_bytes, static_cast<float>(scale), grad_input);
      });
}

}  // namespace op_api
