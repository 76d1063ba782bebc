// Conversions between storage formats on the device (acl op "TransData").
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>

#include "acl/acl_base.h"

namespace at_npu::native {

// A new contiguous npu tensor of logical `sizes` whose storage is in `format`
// (padded as FormatHelper::GetStorageSizes says; a base format: a plain tensor
// labelled with it). `op` names the caller in errors.
at::Tensor empty_with_format(c10::IntArrayRef sizes, const c10::TensorOptions& options, aclFormat format,
                             const char* op);

// `src`'s values in a new tensor whose storage is in `format` (`src` itself
// when it already is): TransData on the current stream; internal -> internal
// goes through the origin format.
at::Tensor format_cast(const at::Tensor& src, aclFormat format, const char* op);

// `tensor` itself when its storage is in a base format, else a copy in the
// base (origin) format.
at::Tensor to_base_format(const at::Tensor& tensor, const char* op);

// dst <- src, where `dst` is an internal-format tensor (FormatHelper::IsInternalFormatTensor)
// and `src` a base-format one of the same shape and dtype: TransData into dst's storage.
void format_cast_into(const at::Tensor& src, at::Tensor& dst, const char* op);

// Re-lays the internal-format storage of `tensor` in its origin format in
// place (new bytes in the same StorageImpl, the descriptor updated), so every
// tensor sharing the storage sees base-format bytes. What view ops, resize_ and
// fill_ do before they touch an internal-format tensor, as torch_npu does.
// A no-op for base formats and for raw reinterpretations of the bytes
// (tensors that are not FormatHelper::IsInternalFormatTensor).
void convert_storage_to_base_format(const at::Tensor& tensor, const char* op);

}  // namespace at_npu::native
