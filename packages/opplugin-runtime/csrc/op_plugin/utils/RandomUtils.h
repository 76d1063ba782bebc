// random_ on both paths: the inclusive range [from, last] each overload draws integers from, with CPU's
// checks and messages; the draw is the path's own.
#pragma once

#include <cstdint>
#include <utility>

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

// random_.from: [from, to - 1], or [from, the dtype's largest draw] without `to`.
std::pair<int64_t, int64_t> random_range(const at::Tensor& self, int64_t from, c10::optional<int64_t> to);

// random_(): [0, the dtype's largest draw] (2^digits for floats, the type's maximum for integers).
std::pair<int64_t, int64_t> random_full_range(const at::Tensor& self);

}  // namespace op_plugin::utils
