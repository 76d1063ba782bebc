// Shape changes that may grow an npu storage (resize_, set_).
#pragma once

#include <c10/core/TensorImpl.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/OptionalArrayRef.h>

namespace at_npu::native {

// Sets `self`'s sizes (and strides, if given; else contiguous) and grows its
// storage through the caching allocator when the new extent needs more bytes
// (old bytes are kept by a device-to-device copy). Unchanged sizes/strides
// return early unless `always_fit_storage` (set_ with a new storage/offset).
void resize_impl_npu_(c10::TensorImpl* self, c10::IntArrayRef size, c10::OptionalIntArrayRef stride,
                      bool always_fit_storage = false);

}  // namespace at_npu::native
