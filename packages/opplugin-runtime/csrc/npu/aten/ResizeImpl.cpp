#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "npu/aten/ResizeImpl.h"

#include <ATen/EmptyTensor.h>
#include <c10/core/Storage.h>
#include <c10/util/Exception.h>

#include "npu/core/NPUStorageImpl.h"

namespace at_npu::native {

void resize_impl_npu_(c10::TensorImpl* self, c10::IntArrayRef size, c10::OptionalIntArrayRef stride,
                      bool always_fit_storage) {
  if (!always_fit_storage && self->sizes() == size && (!stride.has_value() || self->strides() == *stride)) {
    return;
  }
  const size_t itemsize = self->dtype().itemsize();
  const int64_t storage_offset = self->storage_offset();
  size_t needed_bytes = 0;
  if (stride.has_value()) {
    self->set_sizes_and_strides(size, *stride);
    needed_bytes = at::detail::computeStorageNbytes(size, *stride, itemsize, storage_offset);
  } else {
    self->set_sizes_contiguous(size);
    needed_bytes = at::detail::computeStorageNbytesContiguous(size, itemsize, storage_offset);
  }
  const c10::Storage& storage = self->unsafe_storage();
  TORCH_CHECK(storage, "resize_: tensor has no storage");
  if (needed_bytes > storage.nbytes()) {
    c10_npu::resize_npu_storage_bytes(storage.unsafeGetStorageImpl(), needed_bytes);
  }
}

}  // namespace at_npu::native
