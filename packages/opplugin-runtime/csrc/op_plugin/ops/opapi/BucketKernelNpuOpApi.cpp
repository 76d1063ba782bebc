// searchsorted (Tensor, Scalar, out=), bucketize (Tensor, Scalar, out=) and histc (+ out=)
// on the op_api path: aclnnSearchSorted / aclnnBucketize (binary search per value, as
// CPU's kernel) and aclnnHistc (CPU's bin edges). A Scalar value becomes a 0-d device
// tensor; histc's min == max takes the data's range first (aminmax, read on the host as
// CPU does).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/amax.h>
#include <ATen/ops/amin.h>
#include <ATen/ops/scalar_tensor.h>

#include <cmath>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/bucketize.h"
#include "op_plugin/ops/histc.h"
#include "op_plugin/ops/searchsorted.h"
#include "op_plugin/utils/RearrangeUtils.h"
#include "op_plugin/utils/SearchSortedUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

at::Tensor& search_into(const at::Tensor& boundaries, const at::Tensor& input, bool out_int32, bool right,
                        const c10::optional<at::Tensor>& sorter, at::Tensor& out) {
  c10_npu::NPUGuard guard(input.device());
  if (!out.sizes().equals(input.sizes())) out.resize_(input.sizes());
  if (out.numel() == 0) return out;
  const at::Tensor order = sorter.has_value() ? *sorter : at::Tensor();
  EXEC_NPU_CMD(aclnnSearchSorted, boundaries, input, out_int32, right, order, out);
  return out;
}

at::Tensor new_index_tensor(const at::Tensor& like, at::IntArrayRef sizes, bool out_int32) {
  return OpPreparation::apply_tensor_without_format(sizes, like.options().dtype(out_int32 ? at::kInt : at::kLong));
}

}  // namespace

at::Tensor searchsorted(const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32, bool right,
                        c10::optional<c10::string_view> side, const c10::optional<at::Tensor>& sorter) {
  op_plugin::utils::check_searchsorted(sorted_sequence, self, false, sorter);
  const bool r = op_plugin::utils::searchsorted_right(right, side);
  at::Tensor out = new_index_tensor(self, self.sizes(), out_int32);
  return search_into(sorted_sequence, self, out_int32, r, sorter, out);
}

at::Tensor& searchsorted_out(const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32, bool right,
                             c10::optional<c10::string_view> side, const c10::optional<at::Tensor>& sorter,
                             at::Tensor& out) {
  op_plugin::utils::check_searchsorted(sorted_sequence, self, false, sorter);
  op_plugin::utils::check_searchsorted_out(out, out_int32);
  const bool r = op_plugin::utils::searchsorted_right(right, side);
  return search_into(sorted_sequence, self, out_int32, r, sorter, out);
}

at::Tensor searchsorted(const at::Tensor& sorted_sequence, const at::Scalar& self, bool out_int32, bool right,
                        c10::optional<c10::string_view> side, const c10::optional<at::Tensor>& sorter) {
  const at::Tensor value = at::scalar_tensor(self, sorted_sequence.options());
  op_plugin::utils::check_searchsorted(sorted_sequence, value, true, sorter);
  const bool r = op_plugin::utils::searchsorted_right(right, side);
  at::Tensor out = new_index_tensor(sorted_sequence, {}, out_int32);
  return search_into(sorted_sequence, value, out_int32, r, sorter, out);
}

at::Tensor bucketize(const at::Tensor& self, const at::Tensor& boundaries, bool out_int32, bool right) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  return op_api::searchsorted(boundaries, self, out_int32, right, c10::nullopt, c10::nullopt);
}

at::Tensor& bucketize_out(const at::Tensor& self, const at::Tensor& boundaries, bool out_int32, bool right,
                          at::Tensor& out) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  return op_api::searchsorted_out(boundaries, self, out_int32, right, c10::nullopt, c10::nullopt, out);
}

at::Tensor bucketize(const at::Scalar& self, const at::Tensor& boundaries, bool out_int32, bool right) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  return op_api::searchsorted(boundaries, self, out_int32, right, c10::nullopt, c10::nullopt);
}

at::Tensor& histc_out(const at::Tensor& self, int64_t bins, const at::Scalar& min, const at::Scalar& max,
                      at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const auto [lo, hi] = op_plugin::utils::histc_range(self, bins, min, max, out);
  if (!out.sizes().equals({bins})) out.resize_({bins});
  EXEC_NPU_CMD(aclnnHistc, self, bins, at::Scalar(lo), at::Scalar(hi), out);
  return out;
}

at::Tensor histc(const at::Tensor& self, int64_t bins, const at::Scalar& min, const at::Scalar& max) {
  at::Tensor out = OpPreparation::apply_tensor_without_format({std::max<int64_t>(bins, 0)}, self.options());
  return op_api::histc_out(self, bins, min, max, out);
}

}  // namespace op_api
