// npu::get_npu_format, npu::get_storage_size, npu::npu_format_cast(_): the storage format
// and size of a tensor's npu storage and conversions between formats (runtime-owned custom ops,
// declared under custom: in yaml/npu_native_functions.yaml).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/aten/NPUNativeFunctions.h"
#include "npu/dispatch/EnvVariables.h"
#include "npu/format/FormatCast.h"
#include "npu/format/FormatHelper.h"

namespace at_npu::native {
namespace {

// The format a cast gives when internal formats are forbidden: the base format of the
// requested one (NC1HWC0, FRACTAL_Z -> NCHW, NDC1HWC0, FRACTAL_Z_3D -> NCDHW, FRACTAL_NZ -> ND), with a
// warning once per process.
aclFormat AllowedFormat(aclFormat format, const char* op) {
  if (env::IsAllowInternalFormat() || FormatHelper::IsBaseFormatType(format)) {
    return format;
  }
  const aclFormat base = FormatHelper::GetOriginFormat(format);
  TORCH_WARN_ONCE(op, ": torch.npu.config.allow_internal_format is False, so the tensor keeps the base format ",
                  FormatHelper::GetFormatName(base), " instead of ", FormatHelper::GetFormatName(format));
  return base;
}

}  // namespace

int64_t NPUNativeFunctions::get_npu_format(const at::Tensor& self) {
  TORCH_CHECK(self.device().is_privateuseone(), "get_npu_format: expected an npu tensor, got one on ", self.device());
  return static_cast<int64_t>(FormatHelper::GetFormat(self));
}

int64_t NPUNativeFunctions::get_storage_size(const at::Tensor& self) {
  TORCH_CHECK(self.device().is_privateuseone(), "get_storage_size: expected an npu tensor, got one on ",
              self.device());
  return static_cast<int64_t>(self.storage().nbytes() / self.element_size());
}

at::Tensor NPUNativeFunctions::npu_format_cast(const at::Tensor& self, int64_t acl_format) {
  TORCH_CHECK(self.device().is_privateuseone(), "npu_format_cast: expected an npu tensor, got one on ",
              self.device());
  const aclFormat format =
      AllowedFormat(FormatHelper::CheckSupportedFormat(acl_format, "npu_format_cast", "acl_format"), "npu_format_cast");
  return format_cast(self, format, "npu_format_cast");
}

at::Tensor& NPUNativeFunctions::npu_format_cast_(at::Tensor& self, int64_t acl_format) {
  TORCH_CHECK(self.device().is_privateuseone(), "npu_format_cast_: expected an npu tensor, got one on ",
              self.device());
  const aclFormat format = AllowedFormat(
      FormatHelper::CheckSupportedFormat(acl_format, "npu_format_cast_", "acl_format"), "npu_format_cast_");
  TORCH_CHECK(!FormatHelper::IsBaseFormatType(FormatHelper::GetFormat(self)) ||
                  (self.storage_offset() == 0 && self.is_contiguous() &&
                   self.numel() * static_cast<int64_t>(self.element_size()) ==
                       static_cast<int64_t>(self.storage().nbytes())),
              "npu_format_cast_: self must be a contiguous tensor that covers its whole storage (got shape ",
              self.sizes(), ", strides ", self.strides(), ", offset ", self.storage_offset(), ")");
  at::Tensor result = format_cast(self, format, "npu_format_cast_");
  if (!result.is_same(self)) {
    // self takes over the converted storage (shape and strides are unchanged).
    self.unsafeGetTensorImpl()->set_storage_keep_dtype(result.storage());
  }
  return self;
}

}  // namespace at_npu::native
