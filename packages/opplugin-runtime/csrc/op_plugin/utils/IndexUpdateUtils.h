// What the two paths of put_, index_copy and index_fill_ share: CPU's checks and messages.
#pragma once

#include <ATen/core/Tensor.h>

namespace op_plugin::utils {

void check_put(const at::Tensor& self, const at::Tensor& index, const at::Tensor& source);

void check_index_copy(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source);

void check_index_fill(const at::Tensor& self, int64_t dim, const at::Tensor& index);

// index_fill_'s value given as a tensor: it must be 0-d.
void check_index_fill_value(const at::Tensor& value);

}  // namespace op_plugin::utils
