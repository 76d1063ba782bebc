// View kernels: the npu device shares ATen's device-independent view logic. A
// strided view cannot describe an internal layout: a tensor whose storage is in an
// internal format (FRACTAL_NZ, NC1HWC0) has its storage re-laid in the base format
// first (in place, for every alias), as torch_npu does.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/view_as_complex_native.h>
#include <ATen/ops/view_as_real_native.h>
#include <ATen/ops/view_native.h>

#include "npu/aten/NPUNativeFunctions.h"
#include "npu/format/FormatCast.h"

namespace at_npu::native {

at::Tensor NPUNativeFunctions::as_strided(const at::Tensor& self, at::IntArrayRef size, at::IntArrayRef stride,
                                          c10::optional<int64_t> storage_offset) {
  convert_storage_to_base_format(self, "as_strided");
  return at::native::as_strided_tensorimpl(self, size, stride, storage_offset);
}

at::Tensor NPUNativeFunctions::view(const at::Tensor& self, at::IntArrayRef size) {
  convert_storage_to_base_format(self, "view");
  return at::native::view(self, size);
}

at::Tensor NPUNativeFunctions::_reshape_alias(const at::Tensor& self, at::IntArrayRef size, at::IntArrayRef stride) {
  convert_storage_to_base_format(self, "_reshape_alias");
  return at::native::_reshape_alias(self, size, stride);
}

at::Tensor NPUNativeFunctions::unfold(const at::Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  convert_storage_to_base_format(self, "unfold");
  return at::native::unfold(self, dimension, size, step);
}

// A complex tensor as its (real, imaginary) pairs and back: views of the same storage.
at::Tensor NPUNativeFunctions::view_as_real(const at::Tensor& self) {
  convert_storage_to_base_format(self, "view_as_real");
  return at::native::view_as_real(self);
}

at::Tensor NPUNativeFunctions::view_as_complex(const at::Tensor& self) {
  convert_storage_to_base_format(self, "view_as_complex");
  return at::native::view_as_complex(self);
}

}  // namespace at_npu::native
