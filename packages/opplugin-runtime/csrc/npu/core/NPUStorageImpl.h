// Per-storage NPU format descriptor: the storage (device-side) format of the
// bytes, which may be an internal format such as FRACTAL_NZ. Every storage the
// runtime creates for the npu device is an NPUStorageImpl; FormatHelper reads it.
#pragma once

#include <c10/core/StorageImpl.h>
#include <c10/util/SmallVector.h>
#include <c10/util/typeid.h>

#include "acl/acl_base.h"

namespace c10_npu {

struct NPUStorageDesc {
  // Logical layout the user sees, and the layout the bytes are stored in.
  aclFormat origin_format_ = ACL_FORMAT_ND;
  aclFormat npu_format_ = ACL_FORMAT_ND;
  // Shape in npu_format_ (empty: the storage is a flat run of elements).
  c10::SmallVector<int64_t, 5> storage_sizes_;
  // For an internal npu_format_: the logical (origin) shape and dtype of the
  // tensor the bytes hold (a contiguous tensor at offset 0 of the storage).
  c10::SmallVector<int64_t, 5> base_sizes_;
  caffe2::TypeMeta data_type_;
};

struct NPUStorageImpl final : public c10::StorageImpl {
  NPUStorageImpl(use_byte_size_t use_byte_size, c10::SymInt size_bytes, at::DataPtr data_ptr,
                 at::Allocator* allocator, bool resizable);
  ~NPUStorageImpl() override = default;

  NPUStorageDesc npu_desc_;
};

// The descriptor of `storage` if the runtime made it, else nullptr (a foreign
// StorageImpl, e.g. from at::from_blob; such storages are treated as ND).
inline const NPUStorageDesc* GetNPUStorageDesc(const c10::StorageImpl* storage) {
  const auto* npu_storage = dynamic_cast<const NPUStorageImpl*>(storage);
  return npu_storage != nullptr ? &npu_storage->npu_desc_ : nullptr;
}

inline NPUStorageDesc* GetMutableNPUStorageDesc(c10::StorageImpl* storage) {
  auto* npu_storage = dynamic_cast<NPUStorageImpl*>(storage);
  return npu_storage != nullptr ? &npu_storage->npu_desc_ : nullptr;
}

// The storage factory registered for PrivateUse1 (c10::SetStorageImplCreate),
// also used directly by the runtime's empty kernels.
c10::intrusive_ptr<c10::StorageImpl> make_npu_storage_impl(c10::StorageImpl::use_byte_size_t use_byte_size,
                                                           c10::SymInt size_bytes, c10::DataPtr data_ptr,
                                                           c10::Allocator* allocator, bool resizable);
// The same without memory: the factory's function type before c10 passed a DataPtr
// (torch 2.1); SetStorageImplCreate picks whichever overload its release expects.
c10::intrusive_ptr<c10::StorageImpl> make_npu_storage_impl(c10::StorageImpl::use_byte_size_t use_byte_size,
                                                           c10::SymInt size_bytes, c10::Allocator* allocator,
                                                           bool resizable);

// Grows or shrinks `storage` to `new_nbytes` through its allocator, keeping the
// first min(old, new) bytes (device-to-device copy). The storage must be resizable.
void resize_npu_storage_bytes(c10::StorageImpl* storage, size_t new_nbytes);

}  // namespace c10_npu
