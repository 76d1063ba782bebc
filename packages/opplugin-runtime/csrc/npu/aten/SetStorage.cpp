// The set_ overloads for the npu device.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include "npu/aten/NPUNativeFunctions.h"
#include "npu/aten/ResizeImpl.h"
#include "npu/core/NPUEmptyTensor.h"

namespace at_npu::native {
namespace {

// ATen's checkSetStorage (same messages), then makes `source` self's storage.
void SetStorageChecked(at::Tensor& self, at::Storage source, int64_t storage_offset, at::IntArrayRef size,
                       at::IntArrayRef stride) {
  if (stride.data() != nullptr) {
    TORCH_CHECK(size.size() == stride.size(), "unequal size length (", size.size(), ") and stride length (",
                stride.size(), ")");
  }
  TORCH_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  if (!self.storage().is_alias_of(source)) {
    TORCH_CHECK(self.storage().device() == source.device(), "Attempted to set the storage of a tensor on device \"",
                self.storage().device(), "\" to a storage on different device \"", source.device(),
                "\".  This is no longer allowed; the devices must match.");
    self.unsafeGetTensorImpl()->set_storage_keep_dtype(std::move(source));
  }
}

}  // namespace

at::Tensor& NPUNativeFunctions::set_(at::Tensor& self, at::Storage source) {
  const int64_t new_size = static_cast<int64_t>(source.nbytes() / self.dtype().itemsize());
  return NPUNativeFunctions::set_(self, std::move(source), 0, {new_size}, {});
}

at::Tensor& NPUNativeFunctions::set_(at::Tensor& self, at::Storage source, int64_t storage_offset,
                                     at::IntArrayRef size, at::IntArrayRef stride) {
  SetStorageChecked(self, std::move(source), storage_offset, size, stride);
  self.unsafeGetTensorImpl()->set_storage_offset(storage_offset);
  const c10::OptionalIntArrayRef stride_opt =
      stride.data() != nullptr ? c10::OptionalIntArrayRef(stride) : c10::OptionalIntArrayRef();
  resize_impl_npu_(self.unsafeGetTensorImpl(), size, stride_opt, /*always_fit_storage=*/true);
  return self;
}

at::Tensor& NPUNativeFunctions::set_(at::Tensor& self, const at::Tensor& source) {
  if (!self.is_same(source)) {
    NPUNativeFunctions::set_(self, source.storage(), source.storage_offset(), source.sizes(), source.strides());
  }
  return self;
}

at::Tensor& NPUNativeFunctions::set_(at::Tensor& self) {
  at::Storage storage = c10_npu::make_empty_npu_storage(self.device());
  return NPUNativeFunctions::set_(self, std::move(storage), 0, {0}, {});
}

}  // namespace at_npu::native
