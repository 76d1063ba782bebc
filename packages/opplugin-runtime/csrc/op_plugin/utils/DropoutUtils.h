// What native_dropout's two paths share: the probability check (ATen's message, naming the op) and the
// cases that draw nothing.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

#include <tuple>

namespace op_plugin::utils {

void check_dropout_probability(const char* op, double p);

// native_dropout up to its draw: ATen's check of p, *mask made a bool tensor of input's shape, and the
// result where nothing is drawn (an empty input; evaluation, train false: the input unchanged with an
// all-true mask), else nullopt.
c10::optional<std::tuple<at::Tensor, at::Tensor>> dropout_without_draw(const at::Tensor& input, double p,
                                                                         c10::optional<bool> train, at::Tensor* mask);

}  // namespace op_plugin::utils
