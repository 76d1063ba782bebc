#include "npu/framework/FormatHelper.h"

#include "npu/core/NPUStorageImpl.h"

namespace at_npu::native {

aclFormat FormatHelper::GetFormat(const at::Tensor& tensor) {
  if (!tensor.defined() || !tensor.device().is_privateuseone() || !tensor.has_storage()) {
    return ACL_FORMAT_ND;
  }
  const c10_npu::NPUStorageDesc* desc = c10_npu::GetNPUStorageDesc(tensor.storage().unsafeGetStorageImpl());
  return desc != nullptr ? desc->npu_format_ : ACL_FORMAT_ND;
}

bool FormatHelper::IsBaseFormatType(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NCL:
      return true;
    default:
      return false;
  }
}

bool FormatHelper::IsOpInputBaseFormat(const at::Tensor& tensor) {
  return IsBaseFormatType(GetFormat(tensor));
}

bool FormatHelper::IsOpInputBaseFormat(const c10::optional<at::Tensor>& tensor) {
  return !tensor.has_value() || IsOpInputBaseFormat(*tensor);
}

bool FormatHelper::IsOpInputBaseFormat(at::TensorList tensors) {
  for (const at::Tensor& tensor : tensors) {
    if (!IsOpInputBaseFormat(tensor)) {
      return false;
    }
  }
  return true;
}

bool FormatHelper::IsOpInputBaseFormat(const at::ITensorListRef& tensors) {
  for (const at::Tensor& tensor : tensors) {
    if (!IsOpInputBaseFormat(tensor)) {
      return false;
    }
  }
  return true;
}

bool FormatHelper::IsOpInputBaseFormat(const c10::List<c10::optional<at::Tensor>>& tensors) {
  for (const c10::optional<at::Tensor>& tensor : tensors) {
    if (!IsOpInputBaseFormat(tensor)) {
      return false;
    }
  }
  return true;
}

const char* FormatHelper::GetFormatName(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_UNDEFINED:
      return "UNDEFINED";
    case ACL_FORMAT_NCHW:
      return "NCHW";
    case ACL_FORMAT_NHWC:
      return "NHWC";
    case ACL_FORMAT_ND:
      return "ND";
    case ACL_FORMAT_NC1HWC0:
      return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z:
      return "FRACTAL_Z";
    case ACL_FORMAT_NCDHW:
      return "NCDHW";
    case ACL_FORMAT_FRACTAL_NZ:
      return "FRACTAL_NZ";
    case ACL_FORMAT_NCL:
      return "NCL";
  }
  return "UNKNOWN";
}

}  // namespace at_npu::native
