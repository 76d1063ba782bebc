#include "op_plugin/utils/RearrangeUtils.h"

#include <ATen/ops/amax.h>
#include <ATen/ops/amin.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace op_plugin::utils {

void check_not_complex(const char* op, const at::Tensor& self) {
  TORCH_CHECK(!self.is_complex(), op, ": complex tensors are not supported on npu");
}

void check_flip_dims(const at::Tensor& self, at::IntArrayRef dims) {
  check_not_complex("flip", self);
  std::vector<bool> seen(std::max<int64_t>(self.dim(), 1), false);
  for (int64_t d : dims) {
    const int64_t w = c10::maybe_wrap_dim(d, self.dim());
    TORCH_CHECK(!seen[w], "dim ", w, " appears multiple times in the list of dims");
    seen[w] = true;
  }
}

void check_roll_args(const at::Tensor& self, at::IntArrayRef shifts, at::IntArrayRef dims) {
  check_not_complex("roll", self);
  TORCH_CHECK(!shifts.empty(), "`shifts` required");
  if (dims.empty()) {
    TORCH_CHECK(shifts.size() == 1, "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
    return;
  }
  TORCH_CHECK(shifts.size() == dims.size(), "shifts and dimensions must align. shifts: ", shifts.size(),
              ", dims:", dims.size());
  for (int64_t d : dims) (void)c10::maybe_wrap_dim(d, self.dim(), /*wrap_scalar=*/false);
}

void check_take_args(const at::Tensor& self, const at::Tensor& index) {
  check_not_complex("take", self);
  TORCH_CHECK(index.scalar_type() == at::kLong, "take(): Expected a long tensor for index, but got ",
              index.scalar_type());
  TORCH_CHECK_INDEX(!(self.numel() == 0 && index.numel() != 0), "take(): tried to take from an empty tensor");
}

void check_take_out(const at::Tensor& self, const at::Tensor& out) {
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "take(): self and out expected to have the same dtype, but got "
              "self.dtype = ", self.scalar_type(), " and out.dtype = ", out.scalar_type());
}

std::pair<double, double> histc_range(const at::Tensor& self, int64_t bins, const at::Scalar& min,
                                      const at::Scalar& max, const at::Tensor& out) {
  TORCH_CHECK(bins > 0, "torch.histc(): bins must be > 0, but got ", bins, " for dimension 0");
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "torch.histc: input tensor of dtype ", self.scalar_type(),
              " is not supported on npu (floating types only)");
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "torch.histc: input tensor and out (hist) tensor should have the "
              "same dtype, but got input ", self.scalar_type(), " and hist ", out.scalar_type());
  double lo = min.to<double>();
  double hi = max.to<double>();
  if (lo == hi && self.numel() > 0) {
    lo = at::amin(self).item<double>();
    hi = at::amax(self).item<double>();
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  TORCH_CHECK(!(std::isinf(lo) || std::isinf(hi) || std::isnan(lo) || std::isnan(hi)), "torch.histc: range of [", lo,
              ", ", hi, "] is not finite");
  TORCH_CHECK(lo < hi, "torch.histc: max must be larger than min");
  return {lo, hi};
}

void check_cross_dtypes(const at::Tensor& self, const at::Tensor& other) {
  TORCH_CHECK(self.scalar_type() == other.scalar_type(), "linalg_cross: expected scalar type ", self.scalar_type(),
              " but found ", other.scalar_type(), " (other)");
}

}  // namespace op_plugin::utils
