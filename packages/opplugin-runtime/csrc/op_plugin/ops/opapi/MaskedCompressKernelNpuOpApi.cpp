// nonzero and masked_select (+ out=): outputs whose size depends on the data. As
// upstream calls CANN, the kernel writes into an output of the largest size
// (EXEC_NPU_CMD_SYNC: launch, then wait for the stream), aclGetViewShape on the out
// tensor gives the size the op produced and the output is resized to it.
// masked_scatter_ (aclnnInplaceMaskedScatter) has self's shape and needs no wait.
// _unique2 (torch.unique without dim) works the same way (aclnnUnique2). nonzero_static is
// nonzero's first `size` rows, padded with fill_value.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <memory>
#include <tuple>
#include <vector>

#include "aclnn/acl_meta.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/masked_scatter.h"
#include "op_plugin/ops/masked_select.h"
#include "op_plugin/ops/nonzero.h"
#include "op_plugin/ops/nonzero_static.h"
#include "op_plugin/ops/_unique2.h"
#include "op_plugin/utils/MaskedCompressUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;
using op_plugin::utils::check_not_complex;
using op_plugin::utils::copy_result_into;

// The view shape the op set on `tensor` when it ran.
std::vector<int64_t> produced_shape(const char* api, const aclTensor* tensor) {
  int64_t* dims = nullptr;
  uint64_t count = 0;
  const aclnnStatus status = aclGetViewShape(tensor, &dims, &count);
  std::unique_ptr<int64_t[]> owned(dims);
  TORCH_CHECK(status == ACLNN_SUCCESS, api, ": aclGetViewShape failed with status ", status);
  return std::vector<int64_t>(dims, dims + count);
}

// nonzero into a fresh dense [numel, dim] int64 tensor, then resized to the result.
at::Tensor nonzero_dense(const at::Tensor& self) {
  check_not_complex("nonzero", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format({self.numel(), self.dim()},
                                                             self.options().dtype(at::kLong));
  auto params = EXEC_NPU_CMD_SYNC(aclnnNonzero, self, out);
  const std::vector<int64_t> shape = produced_shape("aclnnNonzero", params.Get<1>());
  out.resize_(shape);
  return out;
}

at::Tensor masked_select_dense(const at::Tensor& self, const at::Tensor& mask) {
  const std::vector<int64_t> capacity = op_plugin::utils::masked_select_capacity(self, mask);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(capacity, self.options());
  auto params = EXEC_NPU_CMD_SYNC(aclnnMaskedSelect, self, mask, out);
  const std::vector<int64_t> produced = produced_shape("aclnnMaskedSelect", params.Get<2>());
  out.resize_(produced);
  return out;
}

}  // namespace

at::Tensor nonzero(const at::Tensor& self) { return nonzero_dense(self); }

at::Tensor& nonzero_out(const at::Tensor& self, at::Tensor& out) {
  return copy_result_into(nonzero_dense(self), out, "nonzero.out");
}

at::Tensor nonzero_static(const at::Tensor& self, int64_t size, int64_t fill_value) {
  const int64_t rows = size;
  TORCH_CHECK(rows >= 0, "nonzero_static: 'size' must be an non-negative integer");
  const at::Tensor found = nonzero_dense(self);
  const int64_t count = found.size(0);
  if (count >= rows) return found.narrow(0, 0, rows).clone();
  at::Tensor out = OpPreparation::apply_tensor_without_format({rows, self.dim()}, found.options());
  out.narrow(0, 0, count).copy_(found);
  out.narrow(0, count, rows - count).fill_(fill_value);
  return out;
}

at::Tensor& nonzero_static_out(const at::Tensor& self, int64_t size, int64_t fill_value, at::Tensor& out) {
  return copy_result_into(op_api::nonzero_static(self, size, fill_value), out, "nonzero_static.out");
}

at::Tensor masked_select(const at::Tensor& self, const at::Tensor& mask) {
  return masked_select_dense(self, mask);
}

at::Tensor& masked_select_out(const at::Tensor& self, const at::Tensor& mask, at::Tensor& out) {
  return copy_result_into(masked_select_dense(self, mask), out, "masked_select.out");
}

at::Tensor& masked_scatter_(at::Tensor& self, const at::Tensor& mask, const at::Tensor& source) {
  op_plugin::utils::check_masked_scatter(self, mask, source);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() > 0) EXEC_NPU_CMD(aclnnInplaceMaskedScatter, self, mask, source);
  return self;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> _unique2(const at::Tensor& self, bool sorted, bool return_inverse,
                                                        bool return_counts) {
  check_not_complex("unique", self);
  c10_npu::NPUGuard guard(self.device());
  const at::TensorOptions longs = self.options().dtype(at::kLong);
  at::Tensor y = OpPreparation::apply_tensor_without_format({self.numel()}, self.options());
  at::Tensor inverse = OpPreparation::apply_tensor_without_format(
      return_inverse ? self.sizes() : at::IntArrayRef{0}, longs);
  at::Tensor counts = OpPreparation::apply_tensor_without_format({return_counts ? self.numel() : 0}, longs);
  auto params = EXEC_NPU_CMD_SYNC(aclnnUnique2, self, sorted, return_inverse, return_counts, y, inverse, counts);
  const std::vector<int64_t> shape = produced_shape("aclnnUnique2", params.Get<4>());
  y.resize_(shape);
  if (return_counts) counts.resize_(shape);
  return std::make_tuple(y, inverse, counts);
}

}  // namespace op_api
