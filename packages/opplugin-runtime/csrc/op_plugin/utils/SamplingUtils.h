// What the two paths of multinomial and randperm share: CPU's checks and messages.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace op_plugin::utils {

// multinomial's arguments; the shape of its result.
std::vector<int64_t> multinomial_shape(const at::Tensor& self, int64_t num_samples, bool replacement);

// multinomial.out's out: Long.
void check_multinomial_out(const at::Tensor& out);

// randperm.generator_out's n and out.
void check_randperm_out(int64_t n, const at::Tensor& out);

}  // namespace op_plugin::utils
