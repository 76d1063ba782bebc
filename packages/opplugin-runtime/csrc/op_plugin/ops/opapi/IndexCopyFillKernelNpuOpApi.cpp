// index_copy (+ out=, in-place: aclnnIndexCopy / aclnnInplaceIndexCopy; its out= meta
// function precomputes `dim`, so the group is unstructured and checked like CPU here),
// index_fill_ with a Scalar or a 0-d Tensor value (aclnnInplaceIndexFill; the functional
// forms are composite), fill_.Tensor (aclnnInplaceFillTensor: the 0-d value stays on the
// device) and repeat_interleave.Tensor (aclnnRepeatInterleaveTensor; without
// output_size the size is the sum of repeats, read on the host as CPU and CUDA do).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/fill.h"
#include "op_plugin/ops/index_copy.h"
#include "op_plugin/ops/index_fill.h"
#include "op_plugin/ops/repeat_interleave.h"
#include "op_plugin/utils/IndexUpdateUtils.h"
#include "op_plugin/utils/PointwiseUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;
using op_plugin::utils::check_index_copy;
using op_plugin::utils::check_index_fill;

}  // namespace

at::Tensor& index_copy_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                           at::Tensor& out) {
  check_index_copy(self, dim, index, source);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "index_copy.out: out (", out.scalar_type(),
              ") must have self's scalar type (", self.scalar_type(), ")");
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, index, source}, out, self.scalar_type(), self.sizes());
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnIndexCopy, self, dim, index, source, out);
  }
  return out;
}

at::Tensor index_copy(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return op_api::index_copy_out(self, dim, index, source, out);
}

at::Tensor& index_copy_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  check_index_copy(self, dim, index, source);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() > 0) EXEC_NPU_CMD(aclnnInplaceIndexCopy, self, dim, index, source);
  return self;
}

at::Tensor& index_fill_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Scalar& value) {
  check_index_fill(self, dim, index);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() > 0 && index.numel() > 0) EXEC_NPU_CMD(aclnnInplaceIndexFill, self, dim, index, value);
  return self;
}

at::Tensor& index_fill_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& value) {
  op_plugin::utils::check_index_fill_value(value);
  return op_api::index_fill_(self, dim, index, value.item());
}

at::Tensor& fill_(at::Tensor& self, const at::Tensor& value) {
  op_plugin::utils::check_fill_value(self, value);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  // A CPU value (a Python number wrapped) is copied to the device by EXEC_NPU_CMD.
  EXEC_NPU_CMD(aclnnInplaceFillTensor, self, value);
  return self;
}

at::Tensor repeat_interleave(const at::Tensor& repeats, c10::optional<int64_t> output_size) {
  TORCH_CHECK(repeats.dim() == 1, "repeat_interleave only accept 1D vector as repeat");
  TORCH_CHECK(repeats.scalar_type() == at::kLong || repeats.scalar_type() == at::kInt,
              "repeats has to be Long or Int tensor");
  c10_npu::NPUGuard guard(repeats.device());
  int64_t total = 0;
  if (output_size.has_value()) {
    total = *output_size;
  } else if (repeats.numel() > 0) {
    const at::Tensor host = repeats.cpu();
    TORCH_CHECK(host.min().item<int64_t>() >= 0, "repeats can not be negative");
    total = host.sum().item<int64_t>();
  }
  TORCH_CHECK(total >= 0, "repeat_interleave: output_size must be non-negative, got ", total);
  at::Tensor out = OpPreparation::apply_tensor_without_format({total}, repeats.options());
  if (repeats.numel() > 0) EXEC_NPU_CMD(aclnnRepeatInterleaveTensor, repeats, total, out);
  return out;
}

// torch.fill (CompositeExplicitAutograd in ATen): the result is allocated here, so that an
// allocation failure is reported under the op's name.
at::Tensor fill(const at::Tensor& self, const at::Scalar& value) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self);
  return out.fill_(value);
}

at::Tensor fill(const at::Tensor& self, const at::Tensor& value) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self);
  return out.fill_(value);
}

}  // namespace op_api
