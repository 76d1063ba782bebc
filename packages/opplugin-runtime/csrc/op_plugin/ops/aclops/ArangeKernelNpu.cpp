// arange.start_out on the acl_op path ("Range" of constant start, limit and delta: double for a floating
// out, int64 for an integral one, so the values are the op_api kernel's). Size, checks and the resize
// follow CPU's arange_out as the op_api kernel does.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <cmath>
#include <limits>

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/TorchCompat.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/arange.h"

namespace acl_op {

at::Tensor& arange_out(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::Tensor& out) {
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
  c10_npu::NPUGuard guard(out.device());
  if (size == 0) {
    return out;
  }
  const at::ScalarType constants = at::isFloatingType(dtype) ? at::kDouble : at::kLong;
  at::Tensor result = out;
  const bool direct = at_npu::native::FormatHelper::IsOpInputBaseFormat(out);
  if (!direct) {
    result = at_npu::native::OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
  }
  at_npu::native::OpCommand cmd;
  cmd.Name("Range").Input(start, constants).Input(end, constants).Input(step, constants).Output(result).Run();
  if (!direct) {
    out.copy_(result);
  }
  return out;
}

}  // namespace acl_op
