#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/UnaryMathUtils.h"

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <limits>

namespace op_plugin::utils {
namespace {

// The largest finite value of a floating dtype (integral self is copied: any value serves).
float largest_finite(at::ScalarType dtype) {
  switch (dtype) {
    case at::kHalf: return static_cast<float>(std::numeric_limits<c10::Half>::max());
    case at::kBFloat16: return static_cast<float>(std::numeric_limits<c10::BFloat16>::max());
    default: return std::numeric_limits<float>::max();
  }
}

}  // namespace

NanToNumValues nan_to_num_values(const at::Tensor& self, c10::optional<double> nan, c10::optional<double> posinf,
                                 c10::optional<double> neginf, const at::Tensor& out) {
  TORCH_CHECK(self.scalar_type() == out.scalar_type(), "nan_to_num: dtype of out: ", out.scalar_type(),
              " should be same as input: ", self.scalar_type());
  TORCH_CHECK(self.scalar_type() != at::kDouble || (posinf.has_value() && neginf.has_value()),
              "nan_to_num: float64 self needs explicit posinf and neginf on npu (CANN takes float "
              "replacements, which cannot hold float64's largest finite value)");
  const float largest = largest_finite(self.scalar_type());
  return {static_cast<float>(nan.value_or(0.0)),
          posinf.has_value() ? static_cast<float>(posinf.value()) : largest,
          neginf.has_value() ? static_cast<float>(neginf.value()) : -largest};
}

}  // namespace op_plugin::utils
