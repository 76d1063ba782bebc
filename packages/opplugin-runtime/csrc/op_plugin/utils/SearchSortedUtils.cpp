#include "op_plugin/utils/SearchSortedUtils.h"

#include <c10/util/Exception.h>

namespace op_plugin::utils {

bool searchsorted_right(bool right, const c10::optional<c10::string_view>& side) {
  if (!side.has_value()) return right;
  TORCH_CHECK(*side == "left" || *side == "right", "torch.searchsorted(): side can only be 'left' or 'right' but got ",
              *side);
  TORCH_CHECK(!right || *side == "right", "torch.searchsorted(): side and right can't be set to opposites, got side of ",
              *side, " while right was True");
  return *side == "right";
}

void check_searchsorted(const at::Tensor& boundaries, const at::Tensor& input, bool scalar_input,
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

void check_searchsorted_out(const at::Tensor& out, bool out_int32) {
  const at::ScalarType want = out_int32 ? at::kInt : at::kLong;
  TORCH_CHECK(out.scalar_type() == want, "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32)"
              " or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype ",
              out.scalar_type(), " and out_int32 flag is ", out_int32 ? "True" : "False");
}

}  // namespace op_plugin::utils
