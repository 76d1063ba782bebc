#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "npu/aten/CopyImpl.h"

#include <ATen/ExpandUtils.h>
#include <ATen/EmptyTensor.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUCachingHostAllocator.h"
#include "npu/core/NPUEmptyTensor.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStream.h"
#include "npu/format/FormatCast.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_api/op_api_common.h"

namespace at_npu::native {
namespace {

bool BitsMatch(const at::Tensor& a, const at::Tensor& b) {
  return a.is_conj() == b.is_conj() && a.is_neg() == b.is_neg();
}

size_t DenseBytes(const at::Tensor& t) {
  return static_cast<size_t>(t.numel()) * t.element_size();
}

// dst <- src on one device (the current one), with broadcasting and dtype cast.
void DeviceCopy(const at::Tensor& dst, const at::Tensor& src) {
  EXEC_NPU_CMD(aclnnInplaceCopy, dst, src);
}

void CheckBroadcast(const at::Tensor& self, const at::Tensor& src) {
  if (self.sizes().equals(src.sizes())) {
    return;
  }
  const auto shape = at::infer_size_dimvector(self.sizes(), src.sizes());
  TORCH_CHECK(c10::IntArrayRef(shape).equals(self.sizes()), "output with shape ", self.sizes(),
              " doesn't match the broadcast shape ", c10::IntArrayRef(shape));
}

// Synchronizes `src`'s device's current stream so errors of queued kernels
// surface here, then copies dense device bytes to host memory.
void DeviceToHostBytes(void* host, const at::Tensor& dense_src) {
  c10_npu::getCurrentNPUStream(dense_src.device().index()).synchronize();
  const size_t nbytes = DenseBytes(dense_src);
  NPU_CHECK_ACL(aclrtMemcpy(host, nbytes, dense_src.const_data_ptr(), nbytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

bool IsPinned(const at::Tensor& host) {
  return c10_npu::NPUCachingHostAllocator::isPinned(host.const_data_ptr());
}

// After a copy queued on `stream` that reads or writes pinned `host`: its block
// must not be handed out again before the copy has run. Memory that is pinned
// but not this allocator's (a from_blob view) cannot carry the event: wait instead.
void KeepPinnedUntilCopied(const at::Tensor& host, c10_npu::NPUStream stream) {
  if (!c10_npu::NPUCachingHostAllocator::recordEvent(host.storage().data_ptr().get_context(), stream)) {
    stream.synchronize();
  }
}

void CopyDeviceToHost(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
  c10_npu::NPUGuard guard(src.device());
  const at::Tensor dense = npu_contiguous(src);
  const bool direct = self.is_contiguous() && self.scalar_type() == src.scalar_type() &&
                      self.sizes().equals(src.sizes()) && BitsMatch(self, src);
  if (direct && non_blocking && IsPinned(self)) {
    // Queued behind the kernels that produce src; the caller synchronizes before reading self.
    c10_npu::NPUStream stream = c10_npu::getCurrentNPUStream(src.device().index());
    const size_t nbytes = DenseBytes(dense);
    NPU_CHECK_ACL(aclrtMemcpyAsync(self.mutable_data_ptr(), nbytes, dense.const_data_ptr(), nbytes,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream.stream()));
    KeepPinnedUntilCopied(self, stream);
    return;
  }
  if (direct) {
    DeviceToHostBytes(self.mutable_data_ptr(), dense);
    return;
  }
  at::Tensor host = at::empty(src.sizes(), src.options().device(c10::kCPU));
  DeviceToHostBytes(host.mutable_data_ptr(), dense);
  host._set_conj(src.is_conj());
  host._set_neg(src.is_neg());
  self.copy_(host);  // CPU: dtype, strides, broadcasting, conj/neg
}

// A non_blocking copy from pinned memory is queued on self's device's current
// stream and returns at once; from pageable memory it is synchronous (the host
// bytes may change as soon as this returns).
void CopyHostToDevice(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
  CheckBroadcast(self, src);
  const bool queued = non_blocking && IsPinned(src);
  at::Tensor host = src;
  if (!src.is_contiguous() || src.scalar_type() != self.scalar_type() || !src.sizes().equals(self.sizes()) ||
      !BitsMatch(self, src)) {
    // Let the CPU produce the bytes self's storage must hold (in pinned memory when the copy is queued).
    host = queued ? at::detail::empty_generic(self.sizes(), c10_npu::NPUCachingHostAllocator::get(),
                                              c10::DispatchKeySet(c10::DispatchKey::CPU), self.scalar_type(),
                                              c10::nullopt)
                  : at::empty(self.sizes(), self.options().device(c10::kCPU));
    host._set_conj(self.is_conj());
    host._set_neg(self.is_neg());
    host.copy_(src);
  }
  c10_npu::NPUGuard guard(self.device());
  const size_t nbytes = DenseBytes(self);
  at::Tensor target = self.is_contiguous() ? self : c10_npu::empty_npu(self.sizes(), self.scalar_type(), self.device());
  if (queued) {
    c10_npu::NPUStream stream = c10_npu::getCurrentNPUStream(self.device().index());
    NPU_CHECK_ACL(aclrtMemcpyAsync(target.mutable_data_ptr(), nbytes, host.const_data_ptr(), nbytes,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream.stream()));
    KeepPinnedUntilCopied(host, stream);
  } else {
    // aclrtMemcpy waits for the device's queued work, which may still read self.
    NPU_CHECK_ACL(aclrtMemcpy(target.mutable_data_ptr(), nbytes, host.const_data_ptr(), nbytes,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  }
  if (!target.is_same(self)) {
    DeviceCopy(self, target);  // stream-ordered after the copy into the staging buffer
  }
}

void CopyDeviceToDevice(at::Tensor& self, const at::Tensor& src) {
  CheckBroadcast(self, src);
  if (self.device() == src.device()) {
    at::assert_no_internal_overlap(self);
    at::assert_no_partial_overlap(self, src);
    c10_npu::NPUGuard guard(self.device());
    DeviceCopy(self, src);
    return;
  }
  // Across devices: a dense buffer in self's dtype and shape on src's device,
  // then a device-to-device memcpy, then (if needed) a strided copy on self's device.
  at::Tensor dense_src;
  {
    c10_npu::NPUGuard guard(src.device());
    dense_src = c10_npu::empty_npu(self.sizes(), self.scalar_type(), src.device());
    DeviceCopy(dense_src, src);
  }
  c10_npu::NPUGuard guard(self.device());
  const size_t nbytes = DenseBytes(self);
  if (self.is_contiguous()) {
    NPU_CHECK_ACL(aclrtMemcpy(self.mutable_data_ptr(), nbytes, dense_src.const_data_ptr(), nbytes,
                              ACL_MEMCPY_DEVICE_TO_DEVICE));
    return;
  }
  at::Tensor staging = c10_npu::empty_npu(self.sizes(), self.scalar_type(), self.device());
  NPU_CHECK_ACL(aclrtMemcpy(staging.mutable_data_ptr(), nbytes, dense_src.const_data_ptr(), nbytes,
                            ACL_MEMCPY_DEVICE_TO_DEVICE));
  DeviceCopy(self, staging);
}

}  // namespace

at::Tensor npu_contiguous(const at::Tensor& src) {
  if (src.is_contiguous()) {
    return src;
  }
  c10_npu::NPUGuard guard(src.device());
  at::Tensor dense = c10_npu::empty_npu(src.sizes(), src.scalar_type(), src.device());
  DeviceCopy(dense, src);
  return dense;
}

at::Tensor& npu_copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
  TORCH_CHECK(self.defined() && src.defined(), "copy_: expected defined tensors");
  TORCH_CHECK(self.layout() == c10::kStrided && src.layout() == c10::kStrided,
              "copy_: the npu backend copies only strided tensors, got ", src.layout(), " -> ", self.layout());
  if (self.is_same(src) || self.numel() == 0) {
    return self;
  }
  if (!self.is_complex() && src.is_complex()) {
    TORCH_WARN_ONCE("Casting complex values to real discards the imaginary part");  // as ATen's copy_
  }
  const bool self_npu = self.device().is_privateuseone();
  const bool src_npu = src.device().is_privateuseone();
  TORCH_CHECK((self_npu || self.device().is_cpu()) && (src_npu || src.device().is_cpu()),
              "copy_: copying from ", src.device(), " to ", self.device(), " is not supported by the npu backend");
  if (FormatHelper::IsInternalFormatTensor(src)) {
    // The logical values: the source re-laid in its base format first.
    return npu_copy_(self, to_base_format(src, "copy_"), non_blocking);
  }
  if (FormatHelper::IsInternalFormatTensor(self)) {
    // Into an internal-format tensor: the values in the base layout, then TransData.
    at::Tensor staging = c10_npu::empty_npu(self.sizes(), self.scalar_type(), self.device());
    npu_copy_(staging, src, non_blocking);
    format_cast_into(staging, self, "copy_");
    return self;
  }
  if (self_npu && src_npu) {
    if (BitsMatch(self, src)) {
      CopyDeviceToDevice(self, src);
    } else {
      // The device has no conj/neg kernel: resolve the bits on the host.
      at::Tensor host = at::empty(src.sizes(), src.options().device(c10::kCPU));
      CopyDeviceToHost(host, src, /*non_blocking=*/false);
      CopyHostToDevice(self, host, /*non_blocking=*/false);
    }
  } else if (self_npu) {
    CopyHostToDevice(self, src, non_blocking);
  } else {
    CopyDeviceToHost(self, src, non_blocking);
  }
  return self;
}

}  // namespace at_npu::native
