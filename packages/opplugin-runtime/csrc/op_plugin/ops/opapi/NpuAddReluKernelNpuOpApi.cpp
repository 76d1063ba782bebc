// npu::npu_add_relu / npu_add_relu_ / npu_add_relu.out on the op_api path:
// relu(self + alpha * other) as aclnnAdd (aclnnInplaceAdd) followed by relu in place,
// which is aclnnInplaceClampMin at 0 (ATen defines relu as clamp_min(self, 0)).
// Type promotion, broadcasting and alpha follow torch.add; bool results are rejected
// like torch.relu's.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_infer/InferSize.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/npu_add_relu.h"
#include "op_plugin/utils/BinaryOpUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

at::ScalarType add_relu_result_type(const char* op, const at::Tensor& self, const at::Tensor& other,
                                    const at::Scalar& alpha) {
  const at::ScalarType result_type = at::result_type(self, other);
  TORCH_CHECK(result_type != at::kBool, op, ": boolean inputs are not supported (relu of a bool)");
  op_plugin::utils::alpha_check(result_type, alpha);
  return result_type;
}

// A 0-dim CPU operand as a device scalar of the result dtype; any other operand unchanged.
at::Tensor device_operand(const at::Tensor& operand, at::ScalarType result_type, c10::Device device) {
  return OpPreparation::IsCPUScalar(operand) ? OpPreparation::copy_scalar_to_device(operand.item(), result_type, device)
                                             : operand;
}

void relu_in_place(at::Tensor& tensor) {
  EXEC_NPU_CMD(aclnnInplaceClampMin, tensor, at::Scalar(0));
}

}  // namespace

at::Tensor npu_add_relu(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const c10::Device device = op_plugin::utils::binary_op_device("npu_add_relu", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = add_relu_result_type("npu_add_relu", self, other, alpha);
  at::Tensor out = OpPreparation::apply_tensor_without_format(op_infer::broadcast_ops_npu_output_size(self, other),
                                                              at::TensorOptions().device(device).dtype(result_type));
  const at::Tensor self_npu = device_operand(self, result_type, device);
  const at::Tensor other_npu = device_operand(other, result_type, device);
  EXEC_NPU_CMD(aclnnAdd, self_npu, other_npu, alpha, out);
  relu_in_place(out);
  return out;
}

at::Tensor& npu_add_relu_out(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha,
                             at::Tensor& out) {
  const c10::Device device = op_plugin::utils::binary_op_device("npu_add_relu_out", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = add_relu_result_type("npu_add_relu_out", self, other, alpha);
  OpPreparation::check_tensor({self, other}, out, result_type, op_infer::broadcast_ops_npu_output_size(self, other));
  const at::Tensor self_npu = device_operand(self, result_type, device);
  const at::Tensor other_npu = device_operand(other, result_type, device);
  EXEC_NPU_CMD(aclnnAdd, self_npu, other_npu, alpha, out);
  relu_in_place(out);
  return out;
}

at::Tensor& npu_add_relu_(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const c10::Device device = op_plugin::utils::binary_op_device("npu_add_relu_", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = add_relu_result_type("npu_add_relu_", self, other, alpha);
  op_plugin::utils::check_inplace(self, other, result_type);
  const at::Tensor other_npu = device_operand(other, result_type, device);
  EXEC_NPU_CMD(aclnnInplaceAdd, self, other_npu, alpha);
  relu_in_place(self);
  return self;
}

}  // namespace op_api
