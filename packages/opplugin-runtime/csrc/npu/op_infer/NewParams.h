// Attribute helpers of op_plugin: what `new_params:` expressions of gen_opapi kernels call to
// turn schema arguments into the values an aclnn api takes. Names follow upstream's op_infer.
#pragma once

#include <cstdint>
#include <string>

#include <c10/util/string_view.h>

namespace op_infer {

// npu_gelu's approximate ("none" / "tanh") as the aclnn approximate mode (0 / 1).
int64_t npu_gelu_approximate_mode(c10::string_view approximate);

// npu_gelu_backward / npu_gelu_mul's approximate ("none" / "tanh"), checked, as a string.
std::string npu_gelu_approximate_str(c10::string_view approximate);

}  // namespace op_infer
