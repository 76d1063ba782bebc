// add.Tensor / add.out / add_.Tensor on the acl_op path: "Add" when alpha is 1,
// else "Axpy" (self + alpha * other, float attribute alpha), or for float64, whose
// alpha a float would round, "AxpyV2" (alpha a constant input, as upstream); for
// dtypes Axpy lacks, "Mul" by a constant alpha then "Add". Inputs are cast to the
// result dtype first; the executor broadcasts.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_infer/InferSize.h"
#include "npu/acl_op/OpCommand.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/add.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/BinaryOpUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

bool IsOne(const at::Scalar& alpha) {
  if (alpha.isBoolean()) {
    return alpha.toBool();
  }
  return alpha.isComplex() ? alpha.toComplexDouble() == c10::complex<double>(1.0) : alpha.toDouble() == 1.0;
}

// The dtypes of the executor's "Axpy".
bool AxpySupports(at::ScalarType dtype) {
  switch (dtype) {
    case at::kFloat:
    case at::kHalf:
    case at::kBFloat16:
    case at::kDouble:
    case at::kInt:
    case at::kLong:
      return true;
    default:
      return false;
  }
}

// result <- self + alpha * other; result has the result dtype and the broadcast shape.
// Operands sharing an internal format and shape run on their padded storage;
// otherwise on base-format operands (a result in an internal format is then
// computed in a base-format temporary and converted by copy_).
void add_out_nocheck(at::Tensor& result, const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const aclFormat format = op_plugin::utils::elementwise_internal_format({result, self, other});
  if (format == ACL_FORMAT_ND && !at_npu::native::FormatHelper::IsOpInputBaseFormat(result)) {
    at::Tensor temp = OpPreparation::apply_tensor_without_format(result.sizes(), result.options());
    add_out_nocheck(temp, self, other, alpha);
    result.copy_(temp);
    return;
  }
  const at::ScalarType dtype = result.scalar_type();
  if (IsOne(alpha)) {
    OpCommand cmd;
    cmd.Name("Add");
    op_plugin::utils::AddInputAs(cmd, self, dtype, format);
    op_plugin::utils::AddInputAs(cmd, other, dtype, format);
    cmd.Output(result).Run();
    return;
  }
  if (dtype == at::kDouble) {
    op_plugin::utils::write_through_base_format(
        result, [&](at::Tensor& dense) { op_plugin::utils::axpy_v2_out(self, other, alpha, dense); });
    return;
  }
  if (AxpySupports(dtype)) {
    OpCommand cmd;
    cmd.Name("Axpy");
    op_plugin::utils::AddInputAs(cmd, self, dtype, format);
    op_plugin::utils::AddInputAs(cmd, other, dtype, format);
    cmd.Output(result).Attr("alpha", alpha).Run();
    return;
  }
  at::Tensor scaled = op_plugin::utils::apply_result(
      OpPreparation::IsCPUScalar(other) ? c10::IntArrayRef{} : other.sizes(), result.options(), format);
  OpCommand mul;
  mul.Name("Mul");
  op_plugin::utils::AddInputAs(mul, other, dtype, format);
  if (format == ACL_FORMAT_ND) {
    mul.Input(alpha, dtype);
  } else {
    // alpha as a tensor of other's layout (the padding of the product stays zero).
    at::Tensor alpha_tensor = op_plugin::utils::apply_result(other.sizes(), result.options(), format);
    alpha_tensor.copy_(OpPreparation::copy_scalar_to_device(alpha, dtype, result.device()).expand(other.sizes()));
    mul.Input(alpha_tensor);
  }
  mul.Output(scaled).Run();
  OpCommand add;
  add.Name("Add");
  op_plugin::utils::AddInputAs(add, self, dtype, format);
  add.Input(scaled).Output(result).Run();
}

}  // namespace

at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const c10::Device device = op_plugin::utils::binary_op_device("add", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = at::result_type(self, other);
  op_plugin::utils::alpha_check(result_type, alpha);
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  at::Tensor result = op_plugin::utils::apply_result(output_size, at::TensorOptions().device(device).dtype(result_type),
                                                     op_plugin::utils::elementwise_internal_format({self, other}));
  add_out_nocheck(result, self, other, alpha);
  return result;
}

at::Tensor& add_out(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha, at::Tensor& out) {
  const c10::Device device = op_plugin::utils::binary_op_device("add_out", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = at::result_type(self, other);
  op_plugin::utils::alpha_check(result_type, alpha);
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  OpPreparation::check_tensor({self, other}, out, result_type, output_size);
  if (out.scalar_type() == result_type) {
    add_out_nocheck(out, self, other, alpha);
  } else {
    at::Tensor result = OpPreparation::apply_tensor_without_format(output_size, out.options().dtype(result_type));
    add_out_nocheck(result, self, other, alpha);
    out.copy_(result);
  }
  return out;
}

at::Tensor& add_(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const c10::Device device = op_plugin::utils::binary_op_device("add_", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType result_type = at::result_type(self, other);
  op_plugin::utils::alpha_check(result_type, alpha);
  op_plugin::utils::check_inplace(self, other, result_type);
  if (self.scalar_type() == result_type) {
    add_out_nocheck(self, self, other, alpha);
  } else {
    at::Tensor result = OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(result_type));
    add_out_nocheck(result, self, other, alpha);
    self.copy_(result);
  }
  return self;
}

}  // namespace acl_op
