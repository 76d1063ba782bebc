// clamp_min_ on the op_api path (aclnnInplaceClampMin). clamp_min_ is a structured
// in-place op with its own kernel (structured: true in yaml/op_plugin_functions.yaml):
// the structured meta function has already checked its result type and shape, so the
// kernel only runs the aclnn call. clamp_min.out is generated from its gen_opapi block.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/clamp_min.h"

namespace op_api {

at::Tensor& clamp_min_(at::Tensor& self, const at::Scalar& min) {
  c10_npu::NPUGuard guard(self.device());
  EXEC_NPU_CMD(aclnnInplaceClampMin, self, min);
  return self;
}

}  // namespace op_api
