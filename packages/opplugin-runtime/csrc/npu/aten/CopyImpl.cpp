#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "npu/aten/CopyImpl.h"

#include <ATen/ExpandUtils.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
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

void CopyDeviceToHost(at::Tensor& self, const at::Tensor& src) {
  c10_npu::NPUGuard guard(src.device());
  const at::Tensor dense = npu_contiguous(src);
  const bool direct = self.is_contiguous() && self.scalar_type() == src.scalar_type() &&
                      self.sizes().equals(src.sizes()) && BitsMatch(self, src);
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

void CopyHostToDevice(at::Tensor& self, const at::Tensor& src) {
  CheckBroadcast(self, src);
  at::Tensor host = src;
  if (!src.is_contiguous() || src.scalar_type() != self.scalar_type() || !src.sizes().equals(self.sizes()) ||
      !BitsMatch(self, src)) {
    // Let the CPU produce the bytes self's storage must hold.
    host = at::empty(self.sizes(), self.options().device(c10::kCPU));
    host._set_conj(self.is_conj());
    host._set_neg(self.is_neg());
    host.copy_(src);
  }
  c10_npu::NPUGuard guard(self.device());
  const size_t nbytes = DenseBytes(self);
  if (self.is_contiguous()) {
    // aclrtMemcpy waits for the device's queued work, which may still read self.
    NPU_CHECK_ACL(aclrtMemcpy(self.mutable_data_ptr(), nbytes, host.const_data_ptr(), nbytes,
                              ACL_MEMCPY_HOST_TO_DEVICE));
    return;
  }
  at::Tensor staging = c10_npu::empty_npu(self.sizes(), self.scalar_type(), self.device());
  NPU_CHECK_ACL(aclrtMemcpy(staging.mutable_data_ptr(), nbytes, host.const_data_ptr(), nbytes,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  DeviceCopy(self, staging);
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
  (void)non_blocking;  // every host<->device copy is synchronous here
  TORCH_CHECK(self.defined() && src.defined(), "copy_: expected defined tensors");
  TORCH_CHECK(self.layout() == c10::kStrided && src.layout() == c10::kStrided,
              "copy_: the npu backend copies only strided tensors, got ", src.layout(), " -> ", self.layout());
  if (self.is_same(src) || self.numel() == 0) {
    return self;
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
      CopyDeviceToHost(host, src);
      CopyHostToDevice(self, host);
    }
  } else if (self_npu) {
    CopyHostToDevice(self, src);
  } else {
    CopyDeviceToHost(self, src);
  }
  return self;
}

}  // namespace at_npu::native
