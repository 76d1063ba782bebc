// npu::get_npu_format: the aclFormat of a tensor's npu storage (a runtime-owned custom op,
// declared under custom: in yaml/npu_native_functions.yaml).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/aten/NPUNativeFunctions.h"
#include "npu/framework/FormatHelper.h"

namespace at_npu::native {

int64_t NPUNativeFunctions::get_npu_format(const at::Tensor& self) {
  TORCH_CHECK(self.device().is_privateuseone(), "get_npu_format: expected an npu tensor, got one on ", self.device());
  return static_cast<int64_t>(FormatHelper::GetFormat(self));
}

}  // namespace at_npu::native
