// What the two paths of nonzero, masked_select and _unique2 share: the checks and messages, the
// largest output each can produce, and out='s copy of a result.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

#include "op_plugin/utils/RearrangeUtils.h"  // check_not_complex

namespace op_plugin::utils {

// masked_select's arguments; its largest result: [the element count of self and mask broadcast].
std::vector<int64_t> masked_select_capacity(const at::Tensor& self, const at::Tensor& mask);

// masked_scatter_'s arguments, as CPU checks them.
void check_masked_scatter(const at::Tensor& self, const at::Tensor& mask, const at::Tensor& source);

// `result` copied into the out= tensor `out` of `op`, resized like CPU's out= ops.
at::Tensor& copy_result_into(const at::Tensor& result, at::Tensor& out, const char* op);

}  // namespace op_plugin::utils
