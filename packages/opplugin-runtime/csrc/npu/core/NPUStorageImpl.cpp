#include "npu/core/NPUStorageImpl.h"

#include <algorithm>

#include <c10/util/Exception.h>

#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUGuard.h"

namespace c10_npu {

NPUStorageImpl::NPUStorageImpl(use_byte_size_t use_byte_size, c10::SymInt size_bytes, at::DataPtr data_ptr,
                               at::Allocator* allocator, bool resizable)
    : c10::StorageImpl(use_byte_size, std::move(size_bytes), std::move(data_ptr), allocator, resizable) {}

c10::intrusive_ptr<c10::StorageImpl> make_npu_storage_impl(c10::StorageImpl::use_byte_size_t use_byte_size,
                                                           c10::SymInt size_bytes, c10::DataPtr data_ptr,
                                                           c10::Allocator* allocator, bool resizable) {
  if (data_ptr == nullptr && allocator != nullptr) {
    // Python's UntypedStorage(n, device="npu") arrives here without memory.
    data_ptr = allocator->allocate(size_bytes.expect_int());
  }
  return c10::make_intrusive<NPUStorageImpl>(use_byte_size, std::move(size_bytes), std::move(data_ptr), allocator,
                                             resizable);
}

c10::intrusive_ptr<c10::StorageImpl> make_npu_storage_impl(c10::StorageImpl::use_byte_size_t use_byte_size,
                                                           c10::SymInt size_bytes, c10::Allocator* allocator,
                                                           bool resizable) {
  return make_npu_storage_impl(use_byte_size, std::move(size_bytes), c10::DataPtr(), allocator, resizable);
}

void resize_npu_storage_bytes(c10::StorageImpl* storage, size_t new_nbytes) {
  TORCH_CHECK(storage->resizable(), "Trying to resize storage that is not resizable");
  c10::Allocator* allocator = storage->allocator();
  TORCH_CHECK(allocator != nullptr, "Trying to resize an npu storage without an allocator");
  const size_t old_nbytes = storage->nbytes();
  OptionalNPUGuard guard;
  if (storage->data_ptr().device().is_privateuseone() && storage->data_ptr().device().has_index()) {
    guard.reset_device(storage->data_ptr().device());
  }
  at::DataPtr new_data = allocator->allocate(new_nbytes);
  const size_t keep = std::min(old_nbytes, new_nbytes);
  if (keep > 0 && storage->data() != nullptr) {
    NPUCachingAllocator::copyDeviceToDevice(new_data.get(), storage->data(), keep);
  }
  storage->set_data_ptr_noswap(std::move(new_data));
  storage->set_nbytes(new_nbytes);
}

namespace {
const bool kRegistered = [] {
  c10::StorageImplCreateHelper create = &make_npu_storage_impl;  // the overload this torch expects
  c10::SetStorageImplCreate(c10::DeviceType::PrivateUse1, create);
  return true;
}();
}  // namespace

}  // namespace c10_npu
