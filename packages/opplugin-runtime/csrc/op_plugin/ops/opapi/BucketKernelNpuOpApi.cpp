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
#include "op_plugin/utils/RearrangeUtils.h"
#include "op_plugin/ops/searchsorted.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

bool effective_right(bool right, const c10::optional<c10::string_view>& side) {
  if (!side.has_value()) return right;
  TORCH_CHECK(*side == "left" || *side == "right", "torch.searchsorted(): side can only be 'left' or 'right' but got ",
              *side);
  TORCH_CHECK(!right || *side == "right", "torch.searchsorted(): side and right can't be set to opposites, got side of ",
              *side, " while right was True");
  return *side == "right";
}

void check_search(const at::Tensor& boundaries, const at::Tensor& input, bool scalar_input,
                  const c10::optional<at::Tensor>& sorter) {
  TORCH_CHECK(!boundaries.is_complex() && !input.is_complex(), "torch.searchsorted(): complex tensors are not "
              "supported on npu");
  TORCH_CHECK(boundaries.dim() != 0, "torch.searchsorted(): boundaries tensor should have positive dimension, but got "
              "0 dimension");
  if (scalar_input) {
    TORCH_CHECK(boundaries.dim() == 1, "torch.searchsorted(): input value can be a scalar only when boundaries tensor "
                "dimension is 1, but we got boundaries tensor dim(", boundaries.dim(), ") and input value's dim(0) "
                "numel(1)");
  } else if (boundaries.dim() != 1) {
    bool same = boundaries.dim() == input.dim();
    for (int64_t d = 0; same && d + 1 < boundaries.dim(); ++d) same = boundaries.size(d) == input.size(d);
    TORCH_CHECK(same, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
                "boundaries tensor and input value tensor must match, but we got boundaries tensor ",
                boundaries.sizes(), " and input value tensor ", input.sizes());
  }
  if (sorter.has_value() && sorter->defined()) {
    TORCH_CHECK(sorter->scalar_type() == at::kLong, "torch.searchsorted(): sorter must be a tensor of long dtype but "
                "got dtype ", sorter->scalar_type());
    TORCH_CHECK(sorter->sizes().equals(boundaries.sizes()), "torch.searchsorted(): boundary and sorter must have the "
                "same size, but got boundary tensor ", boundaries.sizes(), "and got sorter tensor ", sorter->sizes());
  }
}

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

void check_out_dtype(const at::Tensor& out, bool out_int32) {
  const at::ScalarType want = out_int32 ? at::kInt : at::kLong;
  TORCH_CHECK(out.scalar_type() == want, "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32)"
              " or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype ",
              out.scalar_type(), " and out_int32 flag is ", out_int32 ? "True" : "False");
}

}  // namespace

at::Tensor searchsorted(const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32, bool right,
                        c10::optional<c10::string_view> side, const c10::optional<at::Tensor>& sorter) {
  check_search(sorted_sequence, self, false, sorter);
  const bool r = effective_right(right, side);
  at::Tensor out = new_index_tensor(self, self.sizes(), out_int32);
  return search_into(sorted_sequence, self, out_int32, r, sorter, out);
}

at::Tensor& searchsorted_out(const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32, bool right,
                             c10::optional<c10::string_view> side, const c10::optional<at::Tensor>& sorter,
                             at::Tensor& out) {
  check_search(sorted_sequence, self, false, sorter);
  check_out_dtype(out, out_int32);
  const bool r = effective_right(right, side);
  return search_into(sorted_sequence, self, out_int32, r, sorter, out);
}

at::Tensor searchsorted(const at::Tensor& sorted_sequence, const at::Scalar& self, bool out_int32, bool right,
                        c10::optional<c10::string_view> side, const c10::optional<at::Tensor>& sorter) {
  const at::Tensor value = at::scalar_tensor(self, sorted_sequence.options());
  check_search(sorted_sequence, value, true, sorter);
  const bool r = effective_right(right, side);
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
