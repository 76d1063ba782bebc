#include "npu/op_common/OpPreparation.h"

#include <c10/util/Exception.h>

#include "npu/core/NPUEmptyTensor.h"
#include "npu/core/TorchCompat.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/op_common/AclDataType.h"
#include "npu/dispatch/EnvVariables.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/MemoryOverlap.h"
#include "npu/op_api/op_api_common.h"

namespace at_npu::native {
namespace {

// at::native::resize_output: resize `out` to `shape`, warning (as ATen does)
// when an out= tensor that already had elements changes shape.
void ResizeOutput(at::Tensor& out, c10::IntArrayRef shape) {
  if (out.sizes().equals(shape)) {
    return;
  }
  if (out.numel() != 0) {
    TORCH_WARN("An output with one or more elements was resized since it had shape ", out.sizes(),
               ", which does not match the required output shape ", shape,
               ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless "
               "they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
               "elements with t.resize_(0).");
  }
  out.resize_(shape);
}

}  // namespace

at::Tensor OpPreparation::apply_tensor_without_format(c10::IntArrayRef sizes, const c10::TensorOptions& options) {
  return c10_npu::empty_npu(sizes, options);
}

at::Tensor OpPreparation::apply_tensor_without_format(const at::Tensor& src) {
  return c10_npu::empty_npu(src.sizes(), src.options());
}

at::Tensor OpPreparation::apply_tensor_without_format(const at::Tensor& src, c10::IntArrayRef sizes) {
  return c10_npu::empty_npu(sizes, src.options());
}

at::Tensor OpPreparation::apply_tensor_with_format(c10::IntArrayRef sizes, const c10::TensorOptions& options,
                                                   int64_t acl_format) {
  const aclFormat format = FormatHelper::CheckSupportedFormat(acl_format, "apply_tensor_with_format", "acl_format");
  return empty_with_format(sizes, options, format, "apply_tensor_with_format");
}

at::Tensor OpPreparation::apply_tensor_with_format(const at::Tensor& src, int64_t acl_format) {
  return apply_tensor_with_format(src.sizes(), src.options(), acl_format);
}

at::Tensor OpPreparation::apply_tensor(const at::Tensor& src) {
  return apply_tensor_without_format(src);
}

at::Tensor OpPreparation::apply_tensor(const at::Tensor& src, c10::IntArrayRef sizes) {
  return apply_tensor_without_format(src, sizes);
}

at::Tensor OpPreparation::apply_tensor(c10::IntArrayRef sizes, const c10::TensorOptions& options,
                                       const at::Tensor& src) {
  (void)src;
  return apply_tensor_without_format(sizes, options);
}

void OpPreparation::check_tensor(std::initializer_list<at::Tensor> inputs, at::Tensor& out, at::ScalarType dtype,
                                 c10::IntArrayRef sizes) {
  TORCH_CHECK(out.defined(), "out: expected a defined tensor");
  TORCH_CHECK(out.device().is_privateuseone(), "Expected out tensor to have device npu, but got ", out.device(),
              " instead");
  for (const at::Tensor& input : inputs) {
    if (!input.defined() || IsCPUScalar(input)) {
      continue;
    }
    TORCH_CHECK(input.device() == out.device(),
                "Expected all tensors to be on the same device, but found at least two devices, ", out.device(),
                " and ", input.device(), "!");
  }
  TORCH_CHECK(c10::canCast(dtype, out.scalar_type()), "result type ", dtype, " can't be cast to the desired output type ",
              out.scalar_type());
  check_memory_overlaps(inputs, {out});
  ResizeOutput(out, sizes);
}

void OpPreparation::check_tensor(std::initializer_list<at::Tensor> inputs, const at::Tensor& out,
                                 at::ScalarType dtype, c10::IntArrayRef sizes) {
  at::Tensor& mutable_out = const_cast<at::Tensor&>(out);
  check_tensor(inputs, mutable_out, dtype, sizes);
}

void OpPreparation::check_tensor(std::initializer_list<at::Tensor> inputs, at::Tensor& out, c10::IntArrayRef sizes) {
  check_tensor(inputs, out, out.scalar_type(), sizes);
}

void OpPreparation::check_memory(std::initializer_list<at::Tensor> inputs, std::initializer_list<at::Tensor> outputs) {
  check_memory_overlaps(inputs, outputs);
}

bool OpPreparation::IsCPUScalar(const at::Tensor& tensor) {
  return tensor.defined() && tensor.dim() == 0 && tensor.device().is_cpu();
}

at::Tensor OpPreparation::copy_scalar_to_device(const c10::Scalar& value, at::ScalarType dtype) {
  return copy_scalar_to_device(value, dtype, c10::Device(c10::DeviceType::PrivateUse1, c10_npu::current_device()));
}

at::Tensor OpPreparation::copy_scalar_to_device(const c10::Scalar& value, at::ScalarType dtype, c10::Device device) {
  c10_npu::OptionalNPUGuard guard(device);
  at::Tensor result = c10_npu::empty_npu({}, dtype, device);
  EXEC_NPU_CMD(aclnnInplaceFillScalar, result, value);
  return result;
}

at::Tensor OpPreparation::copy_cpu_scalar_to_device(const at::Tensor& tensor, c10::Device device) {
  if (!IsCPUScalar(tensor)) {
    return tensor;
  }
  return copy_scalar_to_device(tensor.item(), tensor.scalar_type(), device);
}

aclDataType OpPreparation::convert_to_acl_data_type(at::ScalarType dtype) {
  return ToAclDataTypeChecked(dtype, "convert_to_acl_data_type");
}

at::ScalarType OpPreparation::convert_to_scalar_type(aclDataType data_type) {
  switch (data_type) {
    case ACL_FLOAT: return at::kFloat;
    case ACL_FLOAT16: return at::kHalf;
    case ACL_BF16: return at::kBFloat16;
    case ACL_DOUBLE: return at::kDouble;
    case ACL_INT8: return at::kChar;
    case ACL_INT16: return at::kShort;
    case ACL_INT32: return at::kInt;
    case ACL_INT64: return at::kLong;
    case ACL_UINT8: return at::kByte;
#if NPU_HAS_UNSIGNED_SCALAR_TYPES
    case ACL_UINT16: return at::ScalarType::UInt16;
    case ACL_UINT32: return at::ScalarType::UInt32;
    case ACL_UINT64: return at::ScalarType::UInt64;
#endif
    case ACL_BOOL: return at::kBool;
    case ACL_COMPLEX32: return at::ScalarType::ComplexHalf;
    case ACL_COMPLEX64: return at::kComplexFloat;
    case ACL_COMPLEX128: return at::kComplexDouble;
    case ACL_FLOAT8_E5M2: return at::ScalarType::Float8_e5m2;
    case ACL_FLOAT8_E4M3FN: return at::ScalarType::Float8_e4m3fn;
#if NPU_HAS_FLOAT8_E8M0
    case ACL_FLOAT8_E8M0: return at::ScalarType::Float8_e8m0fnu;
#endif
    default: break;
  }
  TORCH_CHECK(false, "convert_to_scalar_type: aclDataType ", static_cast<int>(data_type),
              " has no torch dtype in this torch release");
}

int8_t OpPreparation::get_cube_math_type(bool allow_hf32) {
  constexpr int8_t kKeepDtype = 0;
  constexpr int8_t kAllowFp32DownPrecision = 1;
  constexpr int8_t kUseFp16 = 2;
  constexpr int8_t kUseHf32 = 3;
  const bool allow_fp16 = env::IsAllowFP32ToFP16();
  if (allow_hf32) {
    return allow_fp16 ? kAllowFp32DownPrecision : kUseHf32;
  }
  return allow_fp16 ? kUseFp16 : kKeepDtype;
}

int8_t OpPreparation::get_cube_math_type() { return get_cube_math_type(false); }

}  // namespace at_npu::native
