// mul.Tensor on the acl_op path ("Mul"); inputs cast to the result dtype (the executor broadcasts), or to
// float32 for a float16/bfloat16 result with a Python number (number_compute_dtype: CPU's rounding).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_infer/InferSize.h"
#include "npu/acl_op/OpCommand.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/mul.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/BinaryOpUtils.h"

namespace acl_op {

at::Tensor mul(const at::Tensor& self, const at::Tensor& other) {
  const c10::Device device = op_plugin::utils::binary_op_device("mul", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = at::result_type(self, other);
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  const at::ScalarType compute =
      op_plugin::utils::number_compute_dtype(result_type, op_plugin::utils::has_number({self, other}));
  if (compute != result_type) {
    at::Tensor result = at_npu::native::OpPreparation::apply_tensor_without_format(
        output_size, at::TensorOptions().device(device).dtype(result_type));
    return op_plugin::utils::elementwise_acl_op_out("Mul", {self, other}, compute, compute, result);
  }
  // Operands sharing an internal format and shape: Mul on the padded storage, the result in that format.
  const aclFormat format = op_plugin::utils::elementwise_internal_format({self, other});
  at::Tensor result =
      op_plugin::utils::apply_result(output_size, at::TensorOptions().device(device).dtype(result_type), format);
  at_npu::native::OpCommand cmd;
  cmd.Name("Mul");
  op_plugin::utils::AddInputAs(cmd, self, result_type, format);
  op_plugin::utils::AddInputAs(cmd, other, result_type, format);
  cmd.Output(result).Run();
  return result;
}

}  // namespace acl_op
