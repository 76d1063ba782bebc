// NPU storage formats of tensors (read from the storage's NPUStorageDesc).
#pragma once

#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>
#include <c10/util/SmallVector.h>

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
  static bool IsOpInputBaseFormat(const c10::optional<at::TensorList>& tensors);
  static bool IsOpInputBaseFormat(const at::ITensorListRef& tensors);
  static bool IsOpInputBaseFormat(const c10::List<c10::optional<at::Tensor>>& tensors);

  static const char* GetFormatName(aclFormat format);

  // The formats npu_format_cast creates: ND, NCHW, NC1HWC0, FRACTAL_NZ.
  static bool IsSupportedFormat(int64_t acl_format);
  // TORCH_CHECK naming `op` and `arg` unless IsSupportedFormat(acl_format).
  static aclFormat CheckSupportedFormat(int64_t acl_format, const char* op, const char* arg);

  // The storage shape of a tensor of logical `sizes` and `dtype` in `format`,
  // as CANN lays it out (a base format: `sizes`):
  //   FRACTAL_NZ [..., M, N] -> [..., ceil(N/C0), ceil(M/16), 16, C0] (1-D [N]: [ceil(N/C0), 1, 16, C0])
  //   NC1HWC0    [N, C, H, W] -> [N, ceil(C/C0), H, W, C0] (fewer dims read as [1, C, 1, 1], [N, C, 1, 1], [N, C, H, 1])
  // C0 = 16 for 2- and 4-byte dtypes, 32 for 1-byte ones; raises naming `op` when
  // the format cannot hold the shape or dtype.
  static c10::SmallVector<int64_t, 5> GetStorageSizes(aclFormat format, c10::IntArrayRef sizes,
                                                      at::ScalarType dtype, const char* op = "GetStorageSizes");

  // The logical (origin) format of an internal format's data: NCHW for NC1HWC0, else ND.
  static aclFormat GetOriginFormat(aclFormat internal_format);

  // Whether `tensor` is the logical tensor its internal-format storage holds
  // (offset 0, contiguous, the descriptor's sizes and dtype), as opposed to a
  // reinterpretation of the raw bytes (e.g. a uint8 tensor set_ onto the storage).
  static bool IsInternalFormatTensor(const at::Tensor& tensor);
};

}  // namespace at_npu::native
