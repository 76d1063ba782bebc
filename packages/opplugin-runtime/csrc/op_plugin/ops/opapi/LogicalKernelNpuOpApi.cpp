// logical_and/or/xor.out on the op_api path (aclnnLogicalAnd/Or/Xor). ATen makes the functional and
// in-place forms composites over these, so logical_and_(self, other) arrives as
// logical_and_out(self, other, self): an out that is also an input must already have the broadcast
// shape (CPU's TensorIterator refuses to resize it); another out is resized. Any out dtype holds
// the result (1 or 0).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/logical_and.h"
#include "op_plugin/ops/logical_or.h"
#include "op_plugin/ops/logical_xor.h"
#include "op_plugin/utils/PointwiseUtils.h"

namespace op_api {

using op_plugin::utils::check_logical_out;

at::Tensor& logical_and_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  check_logical_out(self, other, out);
  c10_npu::NPUGuard guard(out.device());
  EXEC_NPU_CMD(aclnnLogicalAnd, self, other, out);
  return out;
}

at::Tensor& logical_or_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  check_logical_out(self, other, out);
  c10_npu::NPUGuard guard(out.device());
  EXEC_NPU_CMD(aclnnLogicalOr, self, other, out);
  return out;
}

at::Tensor& logical_xor_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  check_logical_out(self, other, out);
  c10_npu::NPUGuard guard(out.device());
  EXEC_NPU_CMD(aclnnLogicalXor, self, other, out);
  return out;
}

}  // namespace op_api
