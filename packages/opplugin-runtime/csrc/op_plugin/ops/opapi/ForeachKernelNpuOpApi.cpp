// torch._foreach_* ops of the optimizers (SGD momentum, Adam/AdamW incl. amsgrad) on the
// op_api path: one aclnn elementwise launch per tensor of the list, queued back to back
// on the current stream. On torch 2.1 ATen registers these ops for CPU and CUDA only (a
// CPU fallback otherwise); later releases have a CompositeExplicitAutograd slow path,
// which the npu kernels take precedence over.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>
#include <c10/core/DefaultDtype.h>

#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/_foreach_add.h"
#include "op_plugin/ops/_foreach_addcdiv.h"
#include "op_plugin/ops/_foreach_addcmul.h"
#include "op_plugin/ops/_foreach_div.h"
#include "op_plugin/ops/_foreach_lerp.h"
#include "op_plugin/ops/_foreach_maximum.h"
#include "op_plugin/ops/_foreach_mul.h"
#include "op_plugin/ops/_foreach_neg.h"
#include "op_plugin/ops/_foreach_sqrt.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// ATen's check_foreach_api_restrictions, with the op's name.
void check_lists(const char* op, at::TensorList self) {
  TORCH_CHECK(!self.empty(), op, ": Tensor list must have at least one tensor.");
}

void check_lists(const char* op, at::TensorList self, at::TensorList other) {
  check_lists(op, self);
  TORCH_CHECK(self.size() == other.size(), op, ": Tensor lists must have the same number of tensors, got ",
              self.size(), " and ", other.size());
}

void check_scalars(const char* op, at::TensorList self, at::ArrayRef<at::Scalar> scalars) {
  check_lists(op, self);
  TORCH_CHECK(self.size() == scalars.size(), op, ": Tensor list must have same number of elements as scalar list, got ",
              self.size(), " and ", scalars.size());
}

// The result dtype of an out-of-place floating op on `t` (integral inputs give the default float type).
at::ScalarType float_result(const at::Tensor& t) {
  return at::isFloatingType(t.scalar_type()) ? t.scalar_type() : at::typeMetaToScalarType(at::get_default_dtype());
}

}  // namespace

void _foreach_add_(at::TensorList self, const at::Scalar& scalar) {
  check_lists("_foreach_add_", self);
  c10_npu::NPUGuard guard(self[0].device());
  const at::Scalar alpha(1);
  for (const at::Tensor& t : self) {
    EXEC_NPU_CMD(aclnnInplaceAdds, t, scalar, alpha);
  }
}

void _foreach_add_(at::TensorList self, at::TensorList other, const at::Scalar& alpha) {
  check_lists("_foreach_add_", self, other);
  c10_npu::NPUGuard guard(self[0].device());
  for (size_t i = 0; i < self.size(); ++i) {
    EXEC_NPU_CMD(aclnnInplaceAdd, self[i], other[i], alpha);
  }
}

::std::vector<at::Tensor> _foreach_add(at::TensorList self, at::TensorList other, const at::Scalar& alpha) {
  check_lists("_foreach_add", self, other);
  c10_npu::NPUGuard guard(self[0].device());
  ::std::vector<at::Tensor> result;
  result.reserve(self.size());
  for (size_t i = 0; i < self.size(); ++i) {
    at::Tensor out = OpPreparation::apply_tensor_without_format(
        self[i].sizes(), self[i].options().dtype(at::result_type(self[i], other[i])));
    EXEC_NPU_CMD(aclnnAdd, self[i], other[i], alpha, out);
    result.push_back(out);
  }
  return result;
}

void _foreach_mul_(at::TensorList self, const at::Scalar& scalar) {
  check_lists("_foreach_mul_", self);
  c10_npu::NPUGuard guard(self[0].device());
  for (const at::Tensor& t : self) {
    EXEC_NPU_CMD(aclnnInplaceMuls, t, scalar);
  }
}

void _foreach_mul_(at::TensorList self, at::TensorList other) {
  check_lists("_foreach_mul_", self, other);
  c10_npu::NPUGuard guard(self[0].device());
  for (size_t i = 0; i < self.size(); ++i) {
    EXEC_NPU_CMD(aclnnMul, self[i], other[i], self[i]);
  }
}

void _foreach_div_(at::TensorList self, at::ArrayRef<at::Scalar> scalars) {
  check_scalars("_foreach_div_", self, scalars);
  c10_npu::NPUGuard guard(self[0].device());
  for (size_t i = 0; i < self.size(); ++i) {
    EXEC_NPU_CMD(aclnnInplaceDivs, self[i], scalars[i]);
  }
}

void _foreach_lerp_(at::TensorList self, at::TensorList tensors1, const at::Scalar& weight) {
  check_lists("_foreach_lerp_", self, tensors1);
  c10_npu::NPUGuard guard(self[0].device());
  for (size_t i = 0; i < self.size(); ++i) {
    EXEC_NPU_CMD(aclnnInplaceLerps, self[i], tensors1[i], weight);
  }
}

void _foreach_addcmul_(at::TensorList self, at::TensorList tensor1, at::TensorList tensor2, const at::Scalar& value) {
  check_lists("_foreach_addcmul_", self, tensor1);
  check_lists("_foreach_addcmul_", self, tensor2);
  c10_npu::NPUGuard guard(self[0].device());
  for (size_t i = 0; i < self.size(); ++i) {
    EXEC_NPU_CMD(aclnnInplaceAddcmul, self[i], tensor1[i], tensor2[i], value);
  }
}

void _foreach_addcdiv_(at::TensorList self, at::TensorList tensor1, at::TensorList tensor2,
                       at::ArrayRef<at::Scalar> scalars) {
  check_lists("_foreach_addcdiv_", self, tensor1);
  check_lists("_foreach_addcdiv_", self, tensor2);
  check_scalars("_foreach_addcdiv_", self, scalars);
  c10_npu::NPUGuard guard(self[0].device());
  for (size_t i = 0; i < self.size(); ++i) {
    EXEC_NPU_CMD(aclnnInplaceAddcdiv, self[i], tensor1[i], tensor2[i], scalars[i]);
  }
}

void _foreach_maximum_(at::TensorList self, at::TensorList other) {
  check_lists("_foreach_maximum_", self, other);
  c10_npu::NPUGuard guard(self[0].device());
  for (size_t i = 0; i < self.size(); ++i) {
    EXEC_NPU_CMD(aclnnClampMinTensor, self[i], other[i], self[i]);
  }
}

::std::vector<at::Tensor> _foreach_sqrt(at::TensorList self) {
  check_lists("_foreach_sqrt", self);
  c10_npu::NPUGuard guard(self[0].device());
  ::std::vector<at::Tensor> result;
  result.reserve(self.size());
  for (const at::Tensor& t : self) {
    at::Tensor out = OpPreparation::apply_tensor_without_format(t.sizes(), t.options().dtype(float_result(t)));
    EXEC_NPU_CMD(aclnnSqrt, t, out);
    result.push_back(out);
  }
  return result;
}

void _foreach_sqrt_(at::TensorList self) {
  check_lists("_foreach_sqrt_", self);
  c10_npu::NPUGuard guard(self[0].device());
  for (const at::Tensor& t : self) {
    EXEC_NPU_CMD(aclnnInplaceSqrt, t);
  }
}

::std::vector<at::Tensor> _foreach_neg(at::TensorList self) {
  check_lists("_foreach_neg", self);
  c10_npu::NPUGuard guard(self[0].device());
  ::std::vector<at::Tensor> result;
  result.reserve(self.size());
  for (const at::Tensor& t : self) {
    at::Tensor out = OpPreparation::apply_tensor_without_format(t.sizes(), t.options());
    EXEC_NPU_CMD(aclnnNeg, t, out);
    result.push_back(out);
  }
  return result;
}

void _foreach_neg_(at::TensorList self) {
  check_lists("_foreach_neg_", self);
  c10_npu::NPUGuard guard(self[0].device());
  for (const at::Tensor& t : self) {
    EXEC_NPU_CMD(aclnnInplaceNeg, t);
  }
}

}  // namespace op_api
