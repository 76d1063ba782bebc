// searchsorted (Tensor, Tensor out=, Scalar) on the acl_op path: "SearchSorted" of the boundaries (in the
// sorter's order when one is given) and the values, both promoted to their common dtype, with the index
// dtype as the data type attribute "dtype". Checks and messages are op_plugin::utils' (SearchSortedUtils.h),
// shared with the op_api kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/result_type.h>
#include <ATen/ops/scalar_tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/searchsorted.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/SearchSortedUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

at::ScalarType index_dtype(bool out_int32) { return out_int32 ? at::kInt : at::kLong; }

// out (resized to input's shape) <- the insertion positions of input in boundaries.
at::Tensor& search_into(const at::Tensor& boundaries, const at::Tensor& input, bool out_int32, bool right,
                        const c10::optional<at::Tensor>& sorter, at::Tensor& out) {
  c10_npu::NPUGuard guard(input.device());
  if (!out.sizes().equals(input.sizes())) {
    out.resize_(input.sizes());
  }
  if (out.numel() == 0) {
    return out;
  }
  const at::Tensor sorted =
      sorter.has_value() && sorter->defined() ? at::gather(boundaries, -1, *sorter) : boundaries;
  const at::ScalarType common = at::result_type(sorted, input);
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("SearchSorted");
    op_plugin::utils::AddInputAs(cmd, sorted, common);
    op_plugin::utils::AddInputAs(cmd, input, common);
    cmd.Output(result).Attr("dtype", index_dtype(out_int32)).Attr("right", right).Run();
  });
}

at::Tensor new_index_tensor(const at::Tensor& like, at::IntArrayRef sizes, bool out_int32) {
  return OpPreparation::apply_tensor_without_format(sizes, like.options().dtype(index_dtype(out_int32)));
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

}  // namespace acl_op
