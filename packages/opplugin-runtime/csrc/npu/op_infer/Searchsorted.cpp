#include "npu/op_infer/Searchsorted.h"

#include <climits>
#include <string>
#include <tuple>

#include <c10/util/Exception.h>

namespace op_plugin {

namespace {

// What the checks read of the values searched for: a tensor, or ATen's wrapped 0-dim tensor
// of a scalar (on the boundaries' device), which need not be created to be checked.
struct SearchedValues {
  int64_t dim;
  int64_t numel;
  c10::IntArrayRef sizes;
  c10::Device device;
};

bool DimsMatchBeforeLast(const at::Tensor& boundaries, const SearchedValues& input) {
  if (boundaries.dim() != input.dim) {
    return false;
  }
  for (int64_t dim = 0; dim + 1 < boundaries.dim(); ++dim) {
    if (boundaries.size(dim) != input.sizes[dim]) {
      return false;
    }
  }
  return true;
}

// ATen's searchsorted_pre_check (BucketizationUtils.h): the same conditions in the same order,
// with the same messages; `output` is the out= tensor, or nullptr when the op allocates it.
void CheckSearchsortedArguments(const at::Tensor& boundaries, const SearchedValues& input, const at::Tensor* output,
                                bool out_int32, bool right, const c10::optional<c10::string_view>& side_opt,
                                const c10::optional<at::Tensor>& sorter_opt) {
  if (side_opt.has_value()) {
    const std::string side(side_opt->data(), side_opt->size());
    TORCH_CHECK(side == "left" || side == "right",
                "torch.searchsorted(): side can only be 'left' or 'right' but got ", side);
    TORCH_CHECK(!right || side == "right",
                "torch.searchsorted(): side and right can't be set to opposites, got side of ", side,
                " while right was True");
  }

  TORCH_CHECK(boundaries.device() == input.device,
              "torch.searchsorted(): boundaries and input value tensors should have same device type, but got "
              "boundaries tensor device type ",
              boundaries.device(), " and input value tensor device type ", input.device);

  if (sorter_opt.has_value() && sorter_opt->defined()) {
    const at::Tensor& sorter = *sorter_opt;
    TORCH_CHECK(sorter.device() == boundaries.device(),
                "torch.searchsorted(): sorter and boundary tensors should have same device type, but got sorter "
                "tensor device type ",
                sorter.device(), " and input value tensor device type ", boundaries.device());
    TORCH_CHECK(sorter.sizes() == boundaries.sizes(),
                "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor ",
                boundaries.sizes(), "and got sorter tensor ", sorter.sizes());
    TORCH_CHECK(sorter.scalar_type() == at::kLong,
                "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype ", sorter.scalar_type());
    if (sorter.numel() > 0) {
      const auto minmax = sorter.aminmax();
      const int64_t low = std::get<0>(minmax).item().toLong();
      const int64_t high = std::get<1>(minmax).item().toLong();
      TORCH_CHECK(low >= 0 && high < sorter.sizes().back(), "torch.searchsorted(): sorter index out of range");
    }
  }

  TORCH_CHECK(input.dim > 0 || (input.dim == 0 && input.numel == 1 && boundaries.dim() == 1),
              "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we "
              "got boundaries tensor dim(",
              boundaries.dim(), ") and input value's dim(", input.dim, ") numel(", input.numel, ")");

  TORCH_CHECK(boundaries.dim() != 0,
              "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");

  TORCH_CHECK(boundaries.dim() == 1 || DimsMatchBeforeLast(boundaries, input),
              "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
              "boundaries tensor and input value tensor must match, but we got boundaries tensor ",
              boundaries.sizes(), " and input value tensor ", input.sizes);

  // Without out=, ATen allocates Int or Long from out_int32 itself, so this always holds.
  if (output != nullptr) {
    const at::ScalarType output_dtype = output->scalar_type();
    TORCH_CHECK((output_dtype == at::kLong && !out_int32) || (output_dtype == at::kInt && out_int32),
                "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) "
                "depending on whether out_int32 flag is True, but we got output tensor's dtype ",
                output_dtype, " and out_int32 flag is ", (out_int32 ? "True" : "False"));
  }

  if (out_int32) {
    TORCH_CHECK(boundaries.sizes().back() < INT_MAX,
                "torch.searchsorted(): the size of boundaries' last dimension should be less than ", INT_MAX,
                ", but we got ", boundaries.sizes().back());
  }
}

SearchedValues ValuesOf(const at::Tensor& self) { return {self.dim(), self.numel(), self.sizes(), self.device()}; }

void WarnIfBoundariesOrSorterNoncontiguous(const at::Tensor& sorted_sequence,
                                           const c10::optional<at::Tensor>& sorter_opt) {
  if (!sorted_sequence.is_contiguous()) {
    TORCH_WARN_ONCE(
        "torch.searchsorted(): boundary tensor is non-contiguous, this will lower the performance due "
        "to extra data copy when converting non-contiguous tensor to contiguous, please use contiguous boundary "
        "tensor if possible. This message will only appear once per program.");
  }
  if (sorter_opt.has_value() && sorter_opt->defined() && !sorter_opt->is_contiguous()) {
    TORCH_WARN_ONCE(
        "torch.searchsorted(): sorter tensor is non-contiguous, this will lower the performance due "
        "to extra data copy when converting non-contiguous tensor to contiguous, please use contiguous sorter "
        "tensor if possible. This message will only appear once per program.");
  }
}

}  // namespace

bool resolve_searchsorted_effective_right(bool right, const c10::optional<c10::string_view>& side_opt) {
  return side_opt.has_value() ? *side_opt == "right" : right;
}

int searchsorted_validate_core_no_output(const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32,
                                         bool right, const c10::optional<c10::string_view>& side_opt,
                                         const c10::optional<at::Tensor>& sorter_opt) {
  CheckSearchsortedArguments(sorted_sequence, ValuesOf(self), nullptr, out_int32, right, side_opt, sorter_opt);
  return 0;
}

int searchsorted_validate_scalar_op(const at::Tensor& sorted_sequence, const c10::Scalar& self, bool out_int32,
                                    bool right, const c10::optional<c10::string_view>& side_opt,
                                    const c10::optional<at::Tensor>& sorter_opt) {
  (void)self;  // ATen searches a 0-dim tensor holding it, on the boundaries' device
  const SearchedValues scalar{0, 1, c10::IntArrayRef(), sorted_sequence.device()};
  CheckSearchsortedArguments(sorted_sequence, scalar, nullptr, out_int32, right, side_opt, sorter_opt);
  return 0;
}

int searchsorted_validate_tensor_out_op(const at::Tensor& sorted_sequence, const at::Tensor& self,
                                        const at::Tensor& out, bool out_int32, bool right,
                                        const c10::optional<c10::string_view>& side_opt,
                                        const c10::optional<at::Tensor>& sorter_opt) {
  CheckSearchsortedArguments(sorted_sequence, ValuesOf(self), &out, out_int32, right, side_opt, sorter_opt);
  return 0;
}

int warn_if_searchsorted_inputs_noncontiguous(const at::Tensor& sorted_sequence, const at::Tensor& self,
                                              const c10::optional<at::Tensor>& sorter_opt) {
  // ATen returns before searching (and warning) when there is nothing to search for.
  if (self.numel() == 0) {
    return 0;
  }
  if (!self.is_contiguous()) {
    TORCH_WARN_ONCE(
        "torch.searchsorted(): input value tensor is non-contiguous, this will lower the performance due "
        "to extra data copy when converting non-contiguous tensor to contiguous, please use contiguous input value "
        "tensor if possible. This message will only appear once per program.");
  }
  WarnIfBoundariesOrSorterNoncontiguous(sorted_sequence, sorter_opt);
  return 0;
}

int warn_if_searchsorted_scalar_inputs_noncontiguous(const at::Tensor& sorted_sequence,
                                                     const c10::optional<at::Tensor>& sorter_opt) {
  WarnIfBoundariesOrSorterNoncontiguous(sorted_sequence, sorter_opt);
  return 0;
}

}  // namespace op_plugin
