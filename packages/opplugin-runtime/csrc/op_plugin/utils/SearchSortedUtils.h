// What searchsorted's two paths share: CPU's checks and messages, and the side resolved to `right`.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>
#include <c10/util/string_view.h>

namespace op_plugin::utils {

// `right`, or the side named by `side` (which must agree with right when both are given).
bool searchsorted_right(bool right, const c10::optional<c10::string_view>& side);

// boundaries and the input values (a Scalar's 0-d tensor with scalar_input) and the optional sorter.
void check_searchsorted(const at::Tensor& boundaries, const at::Tensor& input, bool scalar_input,
                        const c10::optional<at::Tensor>& sorter);

// out= of searchsorted: Int with out_int32, else Long.
void check_searchsorted_out(const at::Tensor& out, bool out_int32);

}  // namespace op_plugin::utils
