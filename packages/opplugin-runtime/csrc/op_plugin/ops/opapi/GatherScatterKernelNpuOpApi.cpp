// gather, scatter (.src/.value), scatter_add (structured: PyTorch's meta functions
// check the arguments and allocate out; the kernels run aclnnGather / aclnnScatter /
// aclnnScatterValue / aclnnScatterAdd) and index_add (unstructured here, checked
// like CPU: aclnnIndexAdd). Out-of-range indices fail the device kernel, naming it.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/gather.h"
#include "op_plugin/ops/index_add.h"
#include "op_plugin/ops/scatter.h"
#include "op_plugin/ops/scatter_add.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

constexpr int64_t kReduceNone = 0;

void check_not_complex(const char* op, const at::Tensor& self) {
  TORCH_CHECK(!self.is_complex(), op, ": complex tensors are not supported on npu");
}

void check_index_add(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  const char* op = "index_add";
  check_not_complex(op, self);
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(index.dim() <= 1, op, ": Index is supposed to be a vector");
  TORCH_CHECK(index.scalar_type() == at::kLong || index.scalar_type() == at::kInt, op,
              ": Expected dtype int32/int64 for index but got: ", index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), op, ": self (", self.scalar_type(), ") and source (",
              source.scalar_type(), ") must have the same scalar type");
  TORCH_CHECK(dim == 0 || dim < source.dim(), op, ": Indexing dim ", dim, " is out of bounds of the source tensor with dim ",
              source.dim());
  const int64_t count = source.dim() > 0 ? source.size(dim) : 1;
  TORCH_CHECK(index.numel() == count, op, ": Number of indices (", index.numel(),
              ") should be equal to source.size(dim) (", count, ")");
  bool same = self.dim() == source.dim() || (self.dim() <= 1 && source.dim() <= 1);
  for (int64_t d = 0; same && d < self.dim(); ++d) same = d == dim || self.size(d) == source.size(d);
  TORCH_CHECK(same, op, ": source tensor shape ", source.sizes(), " must match self tensor shape ", self.sizes(),
              ", excluding the specified dimension ", dim);
}

}  // namespace

at::Tensor& gather_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, bool sparse_grad,
                       at::Tensor& out) {
  (void)sparse_grad;  // only selects the backward formula
  check_not_complex("gather", self);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnGather, self, dim, index, out);
  return out;
}

at::Tensor& scatter_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                        at::Tensor& out) {
  check_not_complex("scatter", self);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnScatter, self, dim, index, src, kReduceNone, out);
  return out;
}

at::Tensor& scatter_value_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Scalar& value,
                              at::Tensor& out) {
  check_not_complex("scatter", self);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnScatterValue, self, dim, index, value, kReduceNone, out);
  return out;
}

at::Tensor& scatter_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                            at::Tensor& out) {
  check_not_complex("scatter_add", self);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnScatterAdd, self, dim, index, src, out);
  return out;
}

at::Tensor& index_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                          const at::Scalar& alpha, at::Tensor& out) {
  check_index_add(self, dim, index, source);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "index_add.out: out (", out.scalar_type(),
              ") must have self's scalar type (", self.scalar_type(), ")");
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, index, source}, out, self.scalar_type(), self.sizes());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnIndexAdd, self, dim, index, source, alpha, out);
  return out;
}

at::Tensor index_add(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                     const at::Scalar& alpha) {
  check_index_add(self, dim, index, source);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnIndexAdd, self, dim, index, source, alpha, out);
  return out;
}

at::Tensor& index_add_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source,
                       const at::Scalar& alpha) {
  check_index_add(self, dim, index, source);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() > 0) EXEC_NPU_CMD(aclnnIndexAdd, self, dim, index, source, alpha, self);
  return self;
}

}  // namespace op_api
