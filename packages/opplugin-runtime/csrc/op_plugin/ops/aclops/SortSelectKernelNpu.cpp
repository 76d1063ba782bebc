// Selections from sorted rows on the acl_op path: topk ("TopKV2", k a constant input), median() of every
// element (the (n/2 + 1)-th largest through topk, as upstream composes it; TopKV2 sorts NaN above every
// number, so a NaN first means a NaN median, as CPU's) and nanmedian() (the ((m - 1)/2 + 1)-th smallest of
// the m numbers, which come before every NaN; m counted on the device by "Equal" of self with itself and
// read back: upstream's acl_op kernel copies the tensor to the host instead), and along a dimension kthvalue
// (the k-th of the k smallest) and median (the (n/2 + 1)-th of the largest, NaN where the largest is NaN), as
// upstream composes them: which of equal values' indices they give is TopKV2's order, where the op_api
// kernels give CPU's (PyTorch leaves it to the device). TopKV2 selects
// along the last dimension, so dim is swapped with it and the results swapped back; its int32 indices
// reach the int64 ones through copy_. bool runs as uint8 (TopKV2 takes no bool). Checks are the op_api
// kernel's (op_plugin/utils/ReductionUtils.h); topk.values is structured (the meta function has checked
// and sized values and indices).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <tuple>
#include <vector>

#include <ATen/core/Tensor.h>

#include <limits>
#include <c10/core/WrapDimMinimal.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/kthvalue.h"
#include "op_plugin/ops/median.h"
#include "op_plugin/ops/nanmedian.h"
#include "op_plugin/ops/topk.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace acl_op {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

namespace {

// The first `count` elements of self along `wrapped` in TopKV2's sorted order (largest first when `largest`):
// values and int64 indices of self's shape with `count` at `wrapped`.
std::tuple<at::Tensor, at::Tensor> first_in_order(const at::Tensor& self, int64_t count, int64_t wrapped,
                                                  bool largest) {
  std::vector<int64_t> size = self.sizes().vec();
  if (self.dim() > 0) size[static_cast<size_t>(wrapped)] = count;
  at::Tensor values = OpPreparation::apply_tensor_without_format(size, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format(size, self.options().dtype(at::kLong));
  acl_op::topk_out(self, count, wrapped, largest, true, values, indices);
  return std::make_tuple(values, indices);
}

// out <- entry `position` of `picked` along `wrapped`, that dimension kept (size 1) or dropped.
void put_entry(const at::Tensor& picked, int64_t wrapped, int64_t position, bool keepdim, at::Tensor& out) {
  if (picked.dim() == 0) {
    out.copy_(picked);
    return;
  }
  const at::Tensor entry = picked.narrow(wrapped, position, 1);
  out.copy_(keepdim ? entry : entry.squeeze(wrapped));
}

}  // namespace

std::tuple<at::Tensor&, at::Tensor&> topk_out(const at::Tensor& self, int64_t k, int64_t dim, bool largest,
                                              bool sorted, at::Tensor& values, at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction("topk", self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  if (self.numel() == 0 || k == 0) {
    return std::tie(values, indices);
  }
  const int64_t last = self.dim() > 0 ? self.dim() - 1 : 0;
  const at::Tensor input = self.dim() == 0 ? self.reshape({1}) : self.transpose(wrapped, last);
  const at::ScalarType dtype = self.scalar_type() == at::kBool ? at::kByte : self.scalar_type();
  std::vector<int64_t> size = input.sizes().vec();
  size.back() = k;
  at::Tensor picked = OpPreparation::apply_tensor_without_format(size, self.options().dtype(dtype));
  at::Tensor index = OpPreparation::apply_tensor_without_format(size, self.options().dtype(at::kInt));
  OpCommand cmd;
  cmd.Name("TopKV2");
  op_plugin::utils::AddInputAs(cmd, input, dtype, ACL_FORMAT_ND);
  cmd.Input(at::IntArrayRef({k}), at::kInt)
      .Output(picked)
      .Output(index)
      .Attr("dim", last)
      .Attr("largest", largest)
      .Attr("sorted", sorted)
      .Run();
  if (self.dim() == 0) {
    values.copy_(picked.reshape({}));
    indices.copy_(index.reshape({}));
  } else {
    values.copy_(picked.transpose(wrapped, last));
    indices.copy_(index.transpose(wrapped, last));
  }
  return std::tie(values, indices);
}

at::Tensor median(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction("median", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format({}, self.options());
  if (self.numel() == 0) {
    out.fill_(std::numeric_limits<double>::quiet_NaN());  // the median of nothing, as on CPU
    return out;
  }
  const at::Tensor flat = self.reshape({-1});
  const int64_t k = flat.numel() / 2;
  at::Tensor values = OpPreparation::apply_tensor_without_format({k + 1}, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format({k + 1}, self.options().dtype(at::kLong));
  acl_op::topk_out(flat, k + 1, 0, true, true, values, indices);
  const at::Tensor lower = values.select(0, k);
  if (at::isFloatingType(self.scalar_type())) {
    const at::Tensor largest = values.select(0, 0);
    out.copy_(largest.where(largest.isnan(), lower));
  } else {
    out.copy_(lower);
  }
  return out;
}

std::tuple<at::Tensor&, at::Tensor&> kthvalue_out(const at::Tensor& self, int64_t k, int64_t dim, bool keepdim,
                                                  at::Tensor& values, at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  const int64_t wrapped =
      op_plugin::utils::check_dim_selection_out("kthvalue", self, dim, keepdim, k, values, indices);
  if (self.numel() == 0) {
    return std::tie(values, indices);
  }
  const auto [smallest, positions] = first_in_order(self, k, wrapped, false);
  put_entry(smallest, wrapped, k - 1, keepdim, values);
  put_entry(positions, wrapped, k - 1, keepdim, indices);
  return std::tie(values, indices);
}

std::tuple<at::Tensor&, at::Tensor&> median_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& values,
                                                at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  const int64_t wrapped =
      op_plugin::utils::check_dim_selection_out("median", self, dim, keepdim, c10::nullopt, values, indices);
  if (self.numel() == 0) {
    return std::tie(values, indices);
  }
  const int64_t n = self.dim() > 0 ? self.size(wrapped) : 1;
  const auto [largest, positions] = first_in_order(self, n / 2 + 1, wrapped, true);
  at::Tensor lower = self.dim() > 0 ? largest.narrow(wrapped, n / 2, 1) : largest;
  at::Tensor lower_at = self.dim() > 0 ? positions.narrow(wrapped, n / 2, 1) : positions;
  if (at::isFloatingType(self.scalar_type())) {  // a NaN, largest of all, is the row's median
    const at::Tensor top = self.dim() > 0 ? largest.narrow(wrapped, 0, 1) : largest;
    const at::Tensor top_at = self.dim() > 0 ? positions.narrow(wrapped, 0, 1) : positions;
    const at::Tensor nan = top.isnan();
    lower = top.where(nan, lower);
    lower_at = top_at.where(nan, lower_at);
  }
  put_entry(lower, wrapped, 0, keepdim, values);
  put_entry(lower_at, wrapped, 0, keepdim, indices);
  return std::tie(values, indices);
}

at::Tensor nanmedian(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction("nanmedian", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format({}, self.options());
  const at::Tensor flat = self.reshape({-1});
  int64_t numbers = flat.numel();
  if (numbers > 0 && at::isFloatingType(self.scalar_type())) {
    at::Tensor is_number = OpPreparation::apply_tensor_without_format({numbers}, self.options().dtype(at::kBool));
    op_plugin::utils::elementwise_acl_op_out("Equal", {flat, flat}, self.scalar_type(), at::kBool, is_number);
    numbers = is_number.sum().item<int64_t>();
  }
  if (numbers == 0) {
    out.fill_(std::numeric_limits<double>::quiet_NaN());  // the median of no number, as on CPU
    return out;
  }
  const int64_t k = (numbers - 1) / 2;
  at::Tensor values = OpPreparation::apply_tensor_without_format({k + 1}, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format({k + 1}, self.options().dtype(at::kLong));
  acl_op::topk_out(flat, k + 1, 0, false, true, values, indices);
  out.copy_(values.select(0, k));
  return out;
}

}  // namespace acl_op
