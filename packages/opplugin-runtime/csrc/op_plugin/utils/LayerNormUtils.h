// What native_layer_norm and its backward share on both paths: ATen's shape checks (same messages) and
// the shape of the per-row statistics.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>
#include <c10/util/SmallVector.h>

#include <array>

namespace op_plugin::utils {

// `op`'s input, normalized_shape, weight and bias (a float input, normalized_shape its trailing sizes,
// weight/bias of normalized_shape); returns the statistics' shape: input's leading sizes, then ones.
c10::SmallVector<int64_t, 8> check_layer_norm(const char* op, const at::Tensor& input,
                                              at::IntArrayRef normalized_shape,
                                              const c10::optional<at::Tensor>& weight,
                                              const c10::optional<at::Tensor>& bias);

// native_layer_norm_backward's grad_out (input's shape) and output_mask (no gradient of an absent weight/bias).
void check_layer_norm_backward(const at::Tensor& grad_out, const at::Tensor& input, const at::Tensor& weight,
                               const at::Tensor& bias, std::array<bool, 3> output_mask);

}  // namespace op_plugin::utils
