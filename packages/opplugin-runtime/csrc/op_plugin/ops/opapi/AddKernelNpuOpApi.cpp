// add.Tensor / add.out / add_.Tensor on the op_api path (aclnnAdd, aclnnInplaceAdd).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_infer/InferSize.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/add.h"
#include "op_plugin/utils/BinaryOpUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// A 0-dim CPU operand (a Python number or CPU scalar tensor) as a device scalar
// of the result dtype, filled on the stream (CPU computes it in that dtype too);
// any other operand unchanged.
at::Tensor device_operand(const at::Tensor& operand, at::ScalarType result_type, c10::Device device) {
  return OpPreparation::IsCPUScalar(operand) ? OpPreparation::copy_scalar_to_device(operand.item(), result_type, device)
                                             : operand;
}

}  // namespace

at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  DO_COMPATIBILITY(aclnnAdd, acl_op::add(self, other, alpha));
  const c10::Device device = op_plugin::utils::binary_op_device("add", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = at::result_type(self, other);
  op_plugin::utils::alpha_check(result_type, alpha);
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      output_size, at::TensorOptions().device(device).dtype(result_type));
  const at::Tensor self_npu = device_operand(self, result_type, device);
  const at::Tensor other_npu = device_operand(other, result_type, device);
  EXEC_NPU_CMD(aclnnAdd, self_npu, other_npu, alpha, out);
  return out;
}

at::Tensor& add_out(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha, at::Tensor& out) {
  DO_COMPATIBILITY(aclnnAdd, acl_op::add_out(self, other, alpha, out));
  const c10::Device device = op_plugin::utils::binary_op_device("add_out", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = at::result_type(self, other);
  op_plugin::utils::alpha_check(result_type, alpha);
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  OpPreparation::check_tensor({self, other}, out, result_type, output_size);
  const at::Tensor self_npu = device_operand(self, result_type, device);
  const at::Tensor other_npu = device_operand(other, result_type, device);
  EXEC_NPU_CMD(aclnnAdd, self_npu, other_npu, alpha, out);
  return out;
}

at::Tensor& add_(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  DO_COMPATIBILITY(aclnnInplaceAdd, acl_op::add_(self, other, alpha));
  const c10::Device device = op_plugin::utils::binary_op_device("add_", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = at::result_type(self, other);
  op_plugin::utils::alpha_check(result_type, alpha);
  op_plugin::utils::check_inplace(self, other, result_type);
  const at::Tensor other_npu = device_operand(other, result_type, device);
  EXEC_NPU_CMD(aclnnInplaceAdd, self, other_npu, alpha);
  return self;
}

}  // namespace op_api
