// What native_dropout's two paths share: the probability check (ATen's message, naming the op).
#pragma once

namespace op_plugin::utils {

void check_dropout_probability(const char* op, double p);

}  // namespace op_plugin::utils
