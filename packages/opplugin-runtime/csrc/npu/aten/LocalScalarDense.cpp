// _local_scalar_dense (Tensor.item()) for the npu device: synchronize, copy
// one element to the host, read it there.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/_local_scalar_dense_native.h>
#include <ATen/ops/empty.h>
#include <c10/util/Exception.h>

#include "npu/aten/CopyImpl.h"
#include "npu/aten/NPUNativeFunctions.h"

namespace at_npu::native {

at::Scalar NPUNativeFunctions::_local_scalar_dense(const at::Tensor& self) {
  TORCH_CHECK(self.numel() == 1, "_local_scalar_dense: expected a tensor with one element, got ", self.numel());
  at::Tensor host = at::empty(self.sizes(), self.options().device(c10::kCPU));
  npu_copy_(host, self, /*non_blocking=*/false);
  return at::native::_local_scalar_dense_cpu(host);
}

}  // namespace at_npu::native
