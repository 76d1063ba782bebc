#include "npu/op_infer/NewParams.h"

#include <c10/util/Exception.h>

namespace op_infer {

namespace {

// approximate of the npu_gelu family, checked: "none" or "tanh".
std::string CheckedApproximate(const char* op, c10::string_view approximate) {
  const std::string value(approximate.data(), approximate.size());
  TORCH_CHECK(value == "none" || value == "tanh", op, ": approximate must be 'none' or 'tanh', but got '", value,
              "'");
  return value;
}

}  // namespace

int64_t npu_gelu_approximate_mode(c10::string_view approximate) {
  return CheckedApproximate("npu_gelu", approximate) == "tanh" ? 1 : 0;
}

std::string npu_gelu_approximate_str(c10::string_view approximate) {
  return CheckedApproximate("npu_gelu_backward / npu_gelu_mul", approximate);
}

}  // namespace op_infer
