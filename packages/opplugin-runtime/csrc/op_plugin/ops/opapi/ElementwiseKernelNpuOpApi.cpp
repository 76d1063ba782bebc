// masked_fill_ and where on the op_api path (aclnnInplaceMaskedFillScalar /
// aclnnInplaceMaskedFillTensor, aclnnSWhere): elementwise ops that ATen does not make structured,
// whose checks and messages are ATen's CPU kernels'. The other elementwise kernels are generated
// from their gen_opapi blocks in yaml/op_plugin_functions.yaml.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_infer/InferSize.h"
#include "npu/op_common/MemoryOverlap.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/masked_fill.h"
#include "op_plugin/ops/where.h"

namespace op_api {
namespace {

// ATen's masked_fill_ checks: a bool mask on self's device that broadcasts to self.
void check_masked_fill(const char* op, const at::Tensor& self, const at::Tensor& mask) {
  TORCH_CHECK(mask.scalar_type() == at::kBool, op, " only supports boolean masks, but got mask with dtype ",
              mask.dtype());
  TORCH_CHECK(mask.device() == self.device(), op, ": expected self and mask to be on the same device, but got mask on ",
              mask.device(), " and self on ", self.device());
  const auto shape = op_infer::broadcast_ops_npu_output_size(self, mask);
  TORCH_CHECK(c10::IntArrayRef(shape) == self.sizes(), op, ": mask of shape ", mask.sizes(),
              " cannot be broadcast to self of shape ", self.sizes());
  at_npu::native::check_memory_overlaps({mask}, {self});
}

// The npu device of where's operands (any of them may be a 0-dim CPU scalar).
c10::Device where_device(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
  for (const at::Tensor* t : {&self, &other, &condition}) {
    if (!t->device().is_cpu()) return t->device();
  }
  TORCH_CHECK(false, "where: expected at least one npu tensor among condition, self and other");
}

c10::SmallVector<int64_t, 8> where_size(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
  TORCH_CHECK(condition.scalar_type() == at::kBool,
              "where expected condition to be a boolean tensor, but got a tensor with dtype ", condition.scalar_type());
  return op_infer::broadcast_ops_npu_output_size(op_infer::broadcast_ops_npu_output_size(condition, self),
                                                 other.sizes());
}

}  // namespace

at::Tensor where(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
  const auto size = where_size(condition, self, other);
  const c10::Device device = where_device(condition, self, other);
  c10_npu::NPUGuard guard(device);
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(
      size, at::TensorOptions().device(device).dtype(at::result_type(self, other)));
  EXEC_NPU_CMD(aclnnSWhere, condition, self, other, out);
  return out;
}

at::Tensor& where_out(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other,
                      at::Tensor& out) {
  const auto size = where_size(condition, self, other);
  c10_npu::NPUGuard guard(where_device(condition, self, other));
  at_npu::native::OpPreparation::check_tensor({condition, self, other}, out, at::result_type(self, other), size);
  EXEC_NPU_CMD(aclnnSWhere, condition, self, other, out);
  return out;
}

at::Tensor& masked_fill_(at::Tensor& self, const at::Tensor& mask, const at::Scalar& value) {
  check_masked_fill("masked_fill_", self, mask);
  c10_npu::NPUGuard guard(self.device());
  EXEC_NPU_CMD(aclnnInplaceMaskedFillScalar, self, mask, value);
  return self;
}

at::Tensor& masked_fill_(at::Tensor& self, const at::Tensor& mask, const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  check_masked_fill("masked_fill_", self, mask);
  c10_npu::NPUGuard guard(self.device());
  if (value.device().is_cpu()) {  // a host number: no device tensor needed
    const at::Scalar scalar = value.item();
    EXEC_NPU_CMD(aclnnInplaceMaskedFillScalar, self, mask, scalar);
    return self;
  }
  TORCH_CHECK(value.device() == self.device(), "masked_fill_: expected value on ", self.device(), ", got ",
              value.device());
  EXEC_NPU_CMD(aclnnInplaceMaskedFillTensor, self, mask, value);
  return self;
}

}  // namespace op_api
