#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/AclOpUtils.h"

#include <ATen/ops/scalar_tensor.h>

#include "npu/op_common/AclDataType.h"
#include "npu/format/FormatCast.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"

namespace op_plugin::utils {

at::Tensor cast_for_acl_op(const at::Tensor& tensor, c10::ScalarType dtype) {
  if (tensor.scalar_type() == dtype) {
    return tensor;
  }
  const aclFormat format = at_npu::native::FormatHelper::IsInternalFormatTensor(tensor)
                               ? at_npu::native::FormatHelper::GetFormat(tensor)
                               : ACL_FORMAT_ND;
  at::Tensor result = apply_result(tensor.sizes(), tensor.options().dtype(dtype), format);
  at_npu::native::OpCommand cmd;
  cmd.Name("Cast")
      .Input(tensor)
      .Output(result)
      .Attr("dst_type", static_cast<int64_t>(at_npu::native::ToAclDataTypeChecked(dtype, "acl_op Cast")))
      .Run();
  return result;
}

aclFormat elementwise_internal_format(c10::ArrayRef<at::Tensor> tensors) {
  using at_npu::native::FormatHelper;
  const at::Tensor* first = nullptr;
  for (const at::Tensor& tensor : tensors) {
    if (!FormatHelper::IsInternalFormatTensor(tensor)) {
      return ACL_FORMAT_ND;
    }
    if (first == nullptr) {
      first = &tensor;
    } else if (FormatHelper::GetFormat(tensor) != FormatHelper::GetFormat(*first) ||
               !tensor.sizes().equals(first->sizes())) {
      return ACL_FORMAT_ND;
    }
  }
  return first != nullptr ? at_npu::native::FormatHelper::GetFormat(*first) : ACL_FORMAT_ND;
}

at::Tensor apply_result(c10::IntArrayRef sizes, const c10::TensorOptions& options, aclFormat format) {
  if (at_npu::native::FormatHelper::IsBaseFormatType(format)) {
    return at_npu::native::OpPreparation::apply_tensor_without_format(sizes, options);
  }
  return at_npu::native::OpPreparation::apply_tensor_with_format(sizes, options, format);
}

void AddInputAs(at_npu::native::OpCommand& cmd, const at::Tensor& input, c10::ScalarType dtype, aclFormat format) {
  if (at_npu::native::OpPreparation::IsCPUScalar(input)) {
    cmd.Input(input.item(), dtype);
  } else if (at_npu::native::FormatHelper::IsBaseFormatType(format)) {
    cmd.Input(cast_for_acl_op(at_npu::native::to_base_format(input, "acl_op input"), dtype));
  } else {
    cmd.Input(cast_for_acl_op(input, dtype));
  }
}

at::Tensor& write_through_base_format(at::Tensor& out, const std::function<void(at::Tensor&)>& run) {
  if (out.numel() == 0) return out;
  if (out.is_contiguous() && at_npu::native::FormatHelper::IsOpInputBaseFormat(out)) {
    run(out);
    return out;
  }
  at::Tensor temp = at_npu::native::OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
  run(temp);
  out.copy_(temp);
  return out;
}

at::Tensor& elementwise_acl_op_out(const char* type, const std::vector<at::Tensor>& inputs,
                                   c10::ScalarType compute_dtype, c10::ScalarType result_dtype, at::Tensor& out,
                                   const std::function<void(at_npu::native::OpCommand&)>& attrs, bool layout_free) {
  using at_npu::native::FormatHelper;
  std::vector<at::Tensor> operands(inputs);
  operands.push_back(out);
  // An internal format holds the storage shape of its dtype: only a result of the inputs' dtype shares it.
  const aclFormat format =
      layout_free && result_dtype == compute_dtype ? elementwise_internal_format(operands) : ACL_FORMAT_ND;
  if (out.scalar_type() != result_dtype || (format == ACL_FORMAT_ND && !FormatHelper::IsOpInputBaseFormat(out))) {
    at::Tensor temp = at_npu::native::OpPreparation::apply_tensor_without_format(
        out.sizes(), out.options().dtype(result_dtype));
    elementwise_acl_op_out(type, inputs, compute_dtype, result_dtype, temp, attrs, layout_free);
    out.copy_(temp);
    return out;
  }
  if (out.numel() == 0) {
    return out;
  }
  at_npu::native::OpCommand cmd;
  cmd.Name(type);
  for (const at::Tensor& input : inputs) {
    AddInputAs(cmd, input, compute_dtype, format);
  }
  cmd.Output(out);
  if (attrs) {
    attrs(cmd);
  }
  cmd.Run();
  return out;
}

at::Tensor scalar_operand(const c10::Scalar& value) {
  return at::scalar_tensor(value, at::TensorOptions().dtype(value.type()));
}

c10::ScalarType number_compute_dtype(c10::ScalarType dtype, bool with_number) {
  return with_number && at::isReducedFloatingType(dtype) ? at::kFloat : dtype;
}

void axpy_v2_out(const at::Tensor& self, const at::Tensor& other, const c10::Scalar& alpha, at::Tensor& result) {
  if (result.numel() == 0) return;
  const at::ScalarType dtype = result.scalar_type();
  at_npu::native::OpCommand cmd;
  cmd.Name("AxpyV2");
  AddInputAs(cmd, self, dtype);
  AddInputAs(cmd, other, dtype);
  cmd.Input(alpha, dtype).Output(result).Run();
}

bool has_number(std::initializer_list<at::Tensor> operands) {
  for (const at::Tensor& t : operands) {
    if (at_npu::native::OpPreparation::IsCPUScalar(t)) return true;
  }
  return false;
}

c10::ScalarType unary_float_dtype(const at::Tensor& self) {
  return at::isFloatingType(self.scalar_type()) ? self.scalar_type() : c10::typeMetaToScalarType(at::get_default_dtype());
}

}  // namespace op_plugin::utils
