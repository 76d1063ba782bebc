// copy_, _copy_from, _copy_from_and_resize for the npu device.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/aten/CopyImpl.h"
#include "npu/aten/NPUNativeFunctions.h"

namespace at_npu::native {

at::Tensor& NPUNativeFunctions::copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
  return npu_copy_(self, src, non_blocking);
}

at::Tensor NPUNativeFunctions::_copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  at::Tensor result = dst;
  npu_copy_(result, self, non_blocking);
  return result;
}

at::Tensor NPUNativeFunctions::_copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  TORCH_CHECK(dst.defined(), "_copy_from_and_resize: dst is undefined");
  at::Tensor result = dst;
  if (!result.sizes().equals(self.sizes())) {
    result.resize_(self.sizes());
  }
  npu_copy_(result, self, /*non_blocking=*/false);
  return result;
}

}  // namespace at_npu::native
