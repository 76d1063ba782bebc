#include "npu/core/NPUEmptyTensor.h"

#include <ATen/EmptyTensor.h>
#include <c10/util/Exception.h>

#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUStorageImpl.h"
#include "npu/core/NPUStream.h"

namespace c10_npu {
namespace {

c10::DeviceIndex ResolveIndex(c10::Device device, const char* what) {
  TORCH_CHECK(device.is_privateuseone(), what, ": expected an npu device, got ", device);
  if (!device.has_index()) {
    return current_device();
  }
  check_device_index(device.index(), what);
  return device.index();
}

c10::intrusive_ptr<c10::StorageImpl> NewStorage(size_t nbytes, c10::DeviceIndex device) {
  c10::DataPtr data = NPUCachingAllocator::allocate_on(nbytes, device, getCurrentNPUStream(device));
  return make_npu_storage_impl(c10::StorageImpl::use_byte_size_t(), c10::SymInt(static_cast<int64_t>(nbytes)),
                               std::move(data), NPUCachingAllocator::get(), /*resizable=*/true);
}

}  // namespace

at::Tensor empty_npu(c10::IntArrayRef size, c10::ScalarType dtype, c10::Device device,
                     c10::optional<c10::MemoryFormat> memory_format) {
  at::detail::check_size_nonnegative(size);
  const c10::DeviceIndex index = ResolveIndex(device, "empty");
  const caffe2::TypeMeta meta = c10::scalarTypeToTypeMeta(dtype);
  const size_t nbytes = at::detail::computeStorageNbytesContiguous(size, meta.itemsize());
  at::Tensor tensor(at::detail::make_tensor_base<c10::TensorImpl>(
      c10::Storage(NewStorage(nbytes, index)), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), meta));
  tensor.unsafeGetTensorImpl()->set_sizes_contiguous(size);
  const c10::MemoryFormat format = memory_format.value_or(c10::MemoryFormat::Contiguous);
  if (format != c10::MemoryFormat::Contiguous) {
    TORCH_CHECK(format != c10::MemoryFormat::Preserve, "empty: memory_format Preserve is not valid for a new tensor");
    tensor.unsafeGetTensorImpl()->empty_tensor_restride(format);
  }
  return tensor;
}

at::Tensor empty_npu(c10::IntArrayRef size, const c10::TensorOptions& options,
                     c10::optional<c10::MemoryFormat> memory_format) {
  TORCH_CHECK(options.layout() == c10::kStrided, "empty: npu tensors must be strided, got layout ", options.layout());
  TORCH_CHECK(!options.pinned_memory(), "empty: only CPU tensors can be pinned; got pin_memory=True for an npu tensor");
  return empty_npu(size, c10::typeMetaToScalarType(options.dtype()), options.device(), memory_format);
}

at::Tensor empty_strided_npu(c10::IntArrayRef size, c10::IntArrayRef stride, c10::ScalarType dtype,
                             c10::Device device) {
  at::detail::check_size_nonnegative(size);
  TORCH_CHECK(size.size() == stride.size(), "empty_strided: dimensionality of sizes (", size.size(),
              ") must match dimensionality of strides (", stride.size(), ")");
  const c10::DeviceIndex index = ResolveIndex(device, "empty_strided");
  const caffe2::TypeMeta meta = c10::scalarTypeToTypeMeta(dtype);
  const size_t nbytes = at::detail::computeStorageNbytes(size, stride, meta.itemsize());
  at::Tensor tensor(at::detail::make_tensor_base<c10::TensorImpl>(
      c10::Storage(NewStorage(nbytes, index)), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), meta));
  tensor.unsafeGetTensorImpl()->set_sizes_and_strides(size, stride);
  return tensor;
}

at::Tensor empty_npu_with_storage_desc(c10::IntArrayRef size, c10::ScalarType dtype, c10::Device device,
                                       const NPUStorageDesc& desc) {
  at::detail::check_size_nonnegative(size);
  const c10::DeviceIndex index = ResolveIndex(device, "empty_with_format");
  const caffe2::TypeMeta meta = c10::scalarTypeToTypeMeta(dtype);
  size_t nbytes = at::detail::computeStorageNbytesContiguous(size, meta.itemsize());
  if (!desc.storage_sizes_.empty()) {
    nbytes = meta.itemsize();
    for (const int64_t dim : desc.storage_sizes_) {
      nbytes *= static_cast<size_t>(dim);
    }
  }
  c10::intrusive_ptr<c10::StorageImpl> storage = NewStorage(nbytes, index);
  *GetMutableNPUStorageDesc(storage.get()) = desc;
  at::Tensor tensor(at::detail::make_tensor_base<c10::TensorImpl>(
      c10::Storage(std::move(storage)), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), meta));
  tensor.unsafeGetTensorImpl()->set_sizes_contiguous(size);
  return tensor;
}

c10::Storage make_empty_npu_storage(c10::Device device) {
  return c10::Storage(NewStorage(0, ResolveIndex(device, "set_")));
}

}  // namespace c10_npu
