// Output allocation and argument checks shared by op_api and acl_op kernels.
#pragma once

#include <initializer_list>

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>

#include "acl/acl_base.h"

namespace at_npu::native {

class OpPreparation {
 public:
  // A new npu tensor of `sizes` with `options` (dtype, device), base (ND) format.
  static at::Tensor apply_tensor_without_format(c10::IntArrayRef sizes, const c10::TensorOptions& options);
  // Same shape and options as `src`.
  static at::Tensor apply_tensor_without_format(const at::Tensor& src);
  static at::Tensor apply_tensor_without_format(const at::Tensor& src, c10::IntArrayRef sizes);
  // A new npu tensor of logical `sizes` whose storage is in `acl_format` (an
  // internal format is padded as FormatHelper::GetStorageSizes says).
  static at::Tensor apply_tensor_with_format(c10::IntArrayRef sizes, const c10::TensorOptions& options,
                                             int64_t acl_format);
  static at::Tensor apply_tensor_with_format(const at::Tensor& src, int64_t acl_format);
  // acl_op flavour: on real hardware these keep the source's internal format;
  // the simulator's acl_op kernels produce base formats.
  static at::Tensor apply_tensor(const at::Tensor& src);
  static at::Tensor apply_tensor(const at::Tensor& src, c10::IntArrayRef sizes);
  static at::Tensor apply_tensor(c10::IntArrayRef sizes, const c10::TensorOptions& options, const at::Tensor& src);

  // Checks an out= argument against its inputs, as CPU does: `out` is on the
  // inputs' npu device, `dtype` (the computed result type) can be cast to
  // out's dtype, no harmful overlap with the inputs; then resizes `out` to
  // `sizes` (warning when a non-empty out changes shape, as at::native::resize_output).
  static void check_tensor(std::initializer_list<at::Tensor> inputs, at::Tensor& out, at::ScalarType dtype,
                           c10::IntArrayRef sizes);
  static void check_tensor(std::initializer_list<at::Tensor> inputs, const at::Tensor& out, at::ScalarType dtype,
                           c10::IntArrayRef sizes);
  static void check_tensor(std::initializer_list<at::Tensor> inputs, at::Tensor& out, c10::IntArrayRef sizes);

  // Overlap check of outputs against inputs (see MemoryOverlap.h).
  static void check_memory(std::initializer_list<at::Tensor> inputs, std::initializer_list<at::Tensor> outputs);

  // A 0-dim tensor on the CPU (a wrapped Python number or a CPU scalar tensor).
  static bool IsCPUScalar(const at::Tensor& tensor);

  // A 0-dim npu tensor holding `value` as `dtype`, filled on the device's
  // current stream (no host synchronisation). Device -1: the current device.
  static at::Tensor copy_scalar_to_device(const c10::Scalar& value, at::ScalarType dtype);
  static at::Tensor copy_scalar_to_device(const c10::Scalar& value, at::ScalarType dtype, c10::Device device);

  // A 0-dim CPU tensor moved to `device` (same dtype), else `tensor` itself.
  static at::Tensor copy_cpu_scalar_to_device(const at::Tensor& tensor, c10::Device device);

  // torch dtype <-> ACL data type. Each raises naming the type when the other side has no
  // counterpart (for example an ACL float4 type, or float8_e8m0 before torch 2.7).
  static aclDataType convert_to_acl_data_type(at::ScalarType dtype);
  static at::ScalarType convert_to_scalar_type(aclDataType data_type);

  // The cubeMathType argument of cube (matmul / convolution) aclnn apis, from whether HF32
  // is allowed and env::IsAllowFP32ToFP16(): neither -> KEEP_DTYPE (0), fp16 only ->
  // USE_FP16 (2), hf32 only -> USE_HF32 (3), both -> ALLOW_FP32_DOWN_PRECISION (1).
  // Without an argument HF32 counts as not allowed.
  static int8_t get_cube_math_type(bool allow_hf32);
  static int8_t get_cube_math_type();
};

}  // namespace at_npu::native
