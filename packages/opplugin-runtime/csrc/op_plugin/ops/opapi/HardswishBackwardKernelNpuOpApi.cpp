// hardswish_backward on the op_api path: aclnnHardswishBackward, then the boundaries x = -3 and x = 3
// as the linked torch's CPU gives them (op_plugin::utils::match_cpu_hardswish_backward_boundaries).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "op_plugin/ops/hardswish_backward.h"
#include "op_plugin/utils/ActivationUtils.h"

namespace op_api {

at::Tensor hardswish_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  DO_COMPATIBILITY(aclnnHardswishBackward, acl_op::hardswish_backward(grad_output, self));
  c10_npu::NPUGuard guard(grad_output.device());
  const auto sizes = op_infer::broadcast_ops_npu_output_size(grad_output, self);
  at::Tensor grad_input = at_npu::native::OpPreparation::apply_tensor_without_format(
      sizes, grad_output.options().dtype(at::result_type(grad_output, self)));
  EXEC_NPU_CMD(aclnnHardswishBackward, grad_output, self, grad_input);
  op_plugin::utils::match_cpu_hardswish_backward_boundaries(grad_output, self, grad_input);
  return grad_input;
}

}  // namespace op_api
