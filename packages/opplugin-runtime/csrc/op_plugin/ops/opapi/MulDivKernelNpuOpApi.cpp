// mul.Tensor / mul.out and div.out on the op_api path (aclnnMul, aclnnDiv). A Python number (a 0-dim CPU
// operand) that leaves the result dtype the tensor's runs the scalar entry points aclnnMuls / aclnnDivs, as
// upstream does: the number then enters a float16/bfloat16 tensor's float32 computation as the float it is,
// as on CPU, where aclnnMul/aclnnDiv would first round it to the tensor's dtype (x * (1 / 0.3) in float16
// differed from CPU in a quarter of the elements).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "npu/version.h"
#include "op_plugin/ops/div.h"
#include "op_plugin/ops/mul.h"
#include "op_plugin/utils/BinaryOpUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// The tensor operand and the number of `a op b` when one of them is a Python number whose scalar entry point
// computes out (out's dtype is the tensor's, a floating one); `commutes`: the number may be on either side.
bool scalar_operands(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out, bool commutes,
                     at::Tensor* tensor, c10::Scalar* number) {
  const bool b_number = OpPreparation::IsCPUScalar(b) && !OpPreparation::IsCPUScalar(a);
  const bool a_number = commutes && OpPreparation::IsCPUScalar(a) && !OpPreparation::IsCPUScalar(b);
  if (!a_number && !b_number) return false;
  const at::Tensor& t = b_number ? a : b;
  if (!at::isFloatingType(t.scalar_type()) || out.scalar_type() != t.scalar_type()) return false;
  *tensor = t;
  *number = (b_number ? b : a).item();
  return true;
}

at::Tensor& mul_into(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  at::Tensor tensor;
  c10::Scalar number;
  if (scalar_operands(self, other, out, true, &tensor, &number)) {
    EXEC_NPU_CMD(aclnnMuls, tensor, number, out);
  } else {
    EXEC_NPU_CMD(aclnnMul, self, other, out);
  }
  return out;
}

}  // namespace

at::Tensor mul(const at::Tensor& self, const at::Tensor& other) {
  DO_COMPATIBILITY(aclnnMul, acl_op::mul(self, other));
  const c10::Device device = op_plugin::utils::binary_op_device("mul", self, other);
  c10_npu::NPUGuard guard(device);
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      output_size, at::TensorOptions().device(device).dtype(at::result_type(self, other)));
  return mul_into(self, other, out);
}

#if OP_API_LIVE(mul_out)
at::Tensor& mul_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  DO_COMPATIBILITY(aclnnMul, acl_op::mul_out(self, other, out));
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  OpPreparation::check_tensor({self, other}, out, at::result_type(self, other), output_size);
  return mul_into(self, other, out);
}
#endif

at::Tensor& div_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  DO_COMPATIBILITY(aclnnDiv, acl_op::div_out(self, other, out));
  at::Tensor tensor;
  c10::Scalar number;
  if (scalar_operands(self, other, out, false, &tensor, &number)) {
    EXEC_NPU_CMD(aclnnDivs, tensor, number, out);
  } else {
    EXEC_NPU_CMD(aclnnDiv, self, other, out);
  }
  return out;
}

}  // namespace op_api
