#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/AclOpUtils.h"

#include "npu/framework/AclDataType.h"
#include "npu/framework/OpPreparation.h"

namespace op_plugin::utils {

at::Tensor cast_for_acl_op(const at::Tensor& tensor, c10::ScalarType dtype) {
  if (tensor.scalar_type() == dtype) {
    return tensor;
  }
  at::Tensor result = at_npu::native::OpPreparation::apply_tensor_without_format(tensor.sizes(),
                                                                                 tensor.options().dtype(dtype));
  at_npu::native::OpCommand cmd;
  cmd.Name("Cast")
      .Input(tensor)
      .Output(result)
      .Attr("dst_type", static_cast<int64_t>(at_npu::native::ToAclDataTypeChecked(dtype, "acl_op Cast")))
      .Run();
  return result;
}

void AddInputAs(at_npu::native::OpCommand& cmd, const at::Tensor& input, c10::ScalarType dtype) {
  if (at_npu::native::OpPreparation::IsCPUScalar(input)) {
    cmd.Input(input.item(), dtype);
  } else {
    cmd.Input(cast_for_acl_op(input, dtype));
  }
}

}  // namespace op_plugin::utils
