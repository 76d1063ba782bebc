#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/AclOpUtils.h"

#include "npu/framework/OpPreparation.h"

namespace op_plugin::utils {

void AddBroadcastInput(at_npu::native::OpCommand& cmd, const at::Tensor& input, const at::Tensor& result) {
  at::Tensor operand = at_npu::native::OpPreparation::IsCPUScalar(input)
                           ? at_npu::native::OpPreparation::copy_scalar_to_device(input.item(), result.scalar_type(),
                                                                                   result.device())
                           : input;
  if (operand.scalar_type() != result.scalar_type()) {
    operand = operand.to(result.scalar_type());
  }
  if (!operand.sizes().equals(result.sizes())) {
    operand = operand.expand(result.sizes());
  }
  cmd.Input(operand);
}

}  // namespace op_plugin::utils
