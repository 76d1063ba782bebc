#include "op_plugin/utils/GroupNormUtils.h"

#include <c10/util/Exception.h>

#include "npu/version.h"

// torch >= 2.14: CPU's native_group_norm takes an input of any layout and refuses one without channels or
// without planes (C == 0, HxW == 0); before, it refused an input not contiguous in its suggested memory
// format and normalised empty planes to an empty output.
#define NPU_GROUP_NORM_REFUSES_EMPTY_PLANES VERSION_BETWEEN(V2R14, VERSION_NEWEST)

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
#if NPU_GROUP_NORM_REFUSES_EMPTY_PLANES
  TORCH_CHECK(C > 0, "native_group_norm: Expected number of channels to be greater than 0, got ", C);
  TORCH_CHECK(HxW > 0, "native_group_norm: Expected HxW to be greater than 0, got ", HxW);
#else
  TORCH_CHECK(input.is_contiguous(input.suggest_memory_format()),
              "Expected X.is_contiguous(memory_format) to be true, but got false.");
#endif
}

}  // namespace op_plugin::utils
