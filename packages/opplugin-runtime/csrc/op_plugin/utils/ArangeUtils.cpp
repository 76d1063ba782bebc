#include "op_plugin/utils/ArangeUtils.h"

#include <c10/util/Exception.h>

#include <cmath>
#include <limits>

#include "npu/core/TorchCompat.h"

namespace op_plugin::utils {

int64_t arange_resize_out(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::Tensor& out) {
  const at::ScalarType dtype = out.scalar_type();
  TORCH_CHECK(dtype != at::kBool && !at::isComplexType(dtype), "arange.start_out: out of dtype ", dtype,
              " is not supported on npu");
  double size_d = 0;
  if (dtype == at::kLong && !NPU_ARANGE_LONG_SIZE_IN_DOUBLE) {
    const int64_t s = start.to<int64_t>(), e = end.to<int64_t>(), d = step.to<int64_t>();
    TORCH_CHECK(d != 0, "arange.start_out: step must be nonzero");
    TORCH_CHECK((d > 0 && e >= s) || (d < 0 && e <= s),
                "arange.start_out: upper bound and larger bound inconsistent with step sign");
    const int64_t sgn = (d > 0) - (d < 0);
    size_d = std::ceil(static_cast<double>((e - s + d - sgn) / d));
  } else {
    const double s = start.to<double>(), e = end.to<double>(), d = step.to<double>();
    TORCH_CHECK(d != 0, "arange.start_out: step must be nonzero");
    TORCH_CHECK(std::isfinite(s) && std::isfinite(e), "arange.start_out: unsupported range: ", s, " -> ", e);
    TORCH_CHECK((d > 0 && e >= s) || (d < 0 && e <= s),
                "arange.start_out: upper bound and larger bound inconsistent with step sign");
    size_d = std::ceil((e - s) / d);
  }
  TORCH_CHECK(size_d >= 0 && size_d <= static_cast<double>(std::numeric_limits<int64_t>::max()),
              "arange.start_out: invalid size, possible overflow?");
  const int64_t size = static_cast<int64_t>(size_d);
  if (out.numel() != size) {
    if (out.numel() > 0) {
      TORCH_WARN("The number of elements in the out tensor of shape ", out.sizes(), " is ", out.numel(),
                 " which does not match the computed number of elements ", size,
                 ". Note that this may occur as a result of rounding error. The out tensor will be resized to a "
                 "tensor of shape (", size, ",).");
    }
    out.resize_({size});
  } else if (out.dim() != 1) {
    out.resize_({size});
  }
  return size;
}

}  // namespace op_plugin::utils
