#include "op_plugin/utils/GroupNormUtils.h"

#include <c10/util/Exception.h>

namespace op_plugin::utils {

at::Tensor group_norm_param(const c10::optional<at::Tensor>& t, const at::Tensor& input) {
  if (!t.has_value() || !t->defined()) return at::Tensor();
  return t->scalar_type() == input.scalar_type() ? *t : t->to(input.scalar_type());
}

void check_group_norm(const char* op, const at::Tensor& input, const at::Tensor& weight, int64_t N, int64_t C,
                      int64_t HxW, int64_t group) {
  TORCH_CHECK(group > 0 && C % group == 0, op, ": expected group (", group, ") > 0 dividing C (", C, ")");
  TORCH_CHECK(input.numel() == N * C * HxW, op, ": input of ", input.numel(), " elements, expected N * C * HxW = ",
              N * C * HxW);
  TORCH_CHECK(!weight.defined() || weight.numel() == C, op, ": weight of ", weight.numel(),
              " elements, expected C = ", C);
}

void check_group_norm_forward(const at::Tensor& input, const at::Tensor& weight, const at::Tensor& bias, int64_t N,
                              int64_t C, int64_t HxW, int64_t group) {
  check_group_norm("native_group_norm", input, weight, N, C, HxW, group);
  TORCH_CHECK(!bias.defined() || bias.numel() == C, "native_group_norm: bias of ", bias.numel(),
              " elements, expected C = ", C);
  TORCH_CHECK(input.is_contiguous(input.suggest_memory_format()),
              "Expected X.is_contiguous(memory_format) to be true, but got false.");
}

}  // namespace op_plugin::utils
