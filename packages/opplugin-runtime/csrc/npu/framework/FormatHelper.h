// NPU storage formats of tensors (read from the storage's NPUStorageDesc).
#pragma once

#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

#include "acl/acl_base.h"

namespace at_npu::native {

class FormatHelper {
 public:
  // The storage format of `tensor`'s bytes (ND for any tensor the runtime did
  // not create, and for non-npu tensors).
  static aclFormat GetFormat(const at::Tensor& tensor);

  // Base formats are the ones a strided view can describe (ND, NCHW, NHWC,
  // NCDHW, NCL); the others are internal (private) formats.
  static bool IsBaseFormatType(aclFormat format);

  // Whether an op input is in a base format. Undefined/absent tensors count as base.
  static bool IsOpInputBaseFormat(const at::Tensor& tensor);
  static bool IsOpInputBaseFormat(const c10::optional<at::Tensor>& tensor);
  static bool IsOpInputBaseFormat(at::TensorList tensors);
  static bool IsOpInputBaseFormat(const at::ITensorListRef& tensors);
  static bool IsOpInputBaseFormat(const c10::List<c10::optional<at::Tensor>>& tensors);

  static const char* GetFormatName(aclFormat format);
};

}  // namespace at_npu::native
