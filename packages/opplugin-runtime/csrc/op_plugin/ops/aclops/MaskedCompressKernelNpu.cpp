// nonzero, masked_select (+ out=) and _unique2 on the acl_op path: "NonZero", "MaskedSelect" and
// "UniqueWithCountsAndSorting", whose output sizes depend on the data. Each output is made at its
// largest size and named in OpCommand::Sync, so Run waits for the op and resizes it to what the op
// produced. Checks and messages are op_plugin::utils' (MaskedCompressUtils.h), shared with op_api.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <tuple>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_unique2.h"
#include "op_plugin/ops/masked_select.h"
#include "op_plugin/ops/nonzero.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/MaskedCompressUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::copy_result_into;

at::Tensor nonzero_dense(const at::Tensor& self) {
  op_plugin::utils::check_not_complex("nonzero", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result =
      OpPreparation::apply_tensor_without_format({self.numel(), self.dim()}, self.options().dtype(at::kLong));
  const c10::SmallVector<int64_t, 1> sized_by_op = {0};
  OpCommand cmd;
  cmd.Sync(sized_by_op).Name("NonZero");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
  cmd.Output(result).Attr("transpose", false).Run();
  return result;
}

at::Tensor masked_select_dense(const at::Tensor& self, const at::Tensor& mask) {
  const std::vector<int64_t> capacity = op_plugin::utils::masked_select_capacity(self, mask);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = OpPreparation::apply_tensor_without_format(capacity, self.options());
  const c10::SmallVector<int64_t, 1> sized_by_op = {0};
  OpCommand cmd;
  cmd.Sync(sized_by_op).Name("MaskedSelect");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
  op_plugin::utils::AddInputAs(cmd, mask, at::kBool);
  cmd.Output(result).Run();
  return result;
}

}  // namespace

at::Tensor nonzero(const at::Tensor& self) { return nonzero_dense(self); }

at::Tensor& nonzero_out(const at::Tensor& self, at::Tensor& out) {
  return copy_result_into(nonzero_dense(self), out, "nonzero.out");
}

at::Tensor masked_select(const at::Tensor& self, const at::Tensor& mask) { return masked_select_dense(self, mask); }

at::Tensor& masked_select_out(const at::Tensor& self, const at::Tensor& mask, at::Tensor& out) {
  return copy_result_into(masked_select_dense(self, mask), out, "masked_select.out");
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> _unique2(const at::Tensor& self, bool sorted, bool return_inverse,
                                                        bool return_counts) {
  op_plugin::utils::check_not_complex("unique", self);
  c10_npu::NPUGuard guard(self.device());
  const at::TensorOptions longs = self.options().dtype(at::kLong);
  at::Tensor y = OpPreparation::apply_tensor_without_format({self.numel()}, self.options());
  at::Tensor inverse =
      OpPreparation::apply_tensor_without_format(return_inverse ? self.sizes() : at::IntArrayRef{0}, longs);
  at::Tensor counts = OpPreparation::apply_tensor_without_format({return_counts ? self.numel() : 0}, longs);
  c10::SmallVector<int64_t, 2> sized_by_op = {0};
  if (return_counts) sized_by_op.push_back(2);
  OpCommand cmd;
  cmd.Sync(sized_by_op).Name("UniqueWithCountsAndSorting");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
  cmd.Output(y)
      .Output(inverse)
      .Output(counts)
      .Attr("sorted", sorted)
      .Attr("return_inverse", return_inverse)
      .Attr("return_counts", return_counts)
      .Run();
  return std::make_tuple(y, inverse, counts);
}

}  // namespace acl_op
