// Creation of npu tensors: storage from the caching allocator, an
// NPUStorageImpl (ND format) and a dense TensorImpl.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>

namespace c10_npu {

// A contiguous (or `memory_format`) tensor on `device` (index -1: current device).
at::Tensor empty_npu(c10::IntArrayRef size, c10::ScalarType dtype, c10::Device device,
                     c10::optional<c10::MemoryFormat> memory_format = c10::nullopt);
// `options` supplies dtype and device (layout must be strided).
at::Tensor empty_npu(c10::IntArrayRef size, const c10::TensorOptions& options,
                     c10::optional<c10::MemoryFormat> memory_format = c10::nullopt);

// A tensor with explicit strides on `device`.
at::Tensor empty_strided_npu(c10::IntArrayRef size, c10::IntArrayRef stride, c10::ScalarType dtype,
                             c10::Device device);

struct NPUStorageDesc;
// A contiguous tensor of logical `size` whose storage is laid out as `desc`
// says: prod(desc.storage_sizes_) elements (the padded internal layout) with the
// descriptor attached. `desc.storage_sizes_` empty: the dense size.
at::Tensor empty_npu_with_storage_desc(c10::IntArrayRef size, c10::ScalarType dtype, c10::Device device,
                                       const NPUStorageDesc& desc);

// An empty (0-byte) resizable storage on `device`, as set_() needs.
c10::Storage make_empty_npu_storage(c10::Device device);

}  // namespace c10_npu
