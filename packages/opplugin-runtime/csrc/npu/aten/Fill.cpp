// fill_.Scalar and zero_ for the npu device (aclnn kernels; any strided layout; an
// internal-format storage is re-laid in its base format first: a fill would write the padding).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/aten/NPUNativeFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/op_api/op_api_common.h"

namespace at_npu::native {

at::Tensor& NPUNativeFunctions::fill_(at::Tensor& self, const at::Scalar& value) {
  if (self.numel() == 0) {
    return self;
  }
  c10_npu::NPUGuard guard(self.device());
  convert_storage_to_base_format(self, "fill_");
  EXEC_NPU_CMD(aclnnInplaceFillScalar, self, value);
  return self;
}

at::Tensor& NPUNativeFunctions::zero_(at::Tensor& self) {
  if (self.numel() == 0) {
    return self;
  }
  c10_npu::NPUGuard guard(self.device());
  convert_storage_to_base_format(self, "zero_");
  EXEC_NPU_CMD(aclnnInplaceZero, self);
  return self;
}

}  // namespace at_npu::native
