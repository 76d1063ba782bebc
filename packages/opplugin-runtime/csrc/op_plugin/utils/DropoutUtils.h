// What native_dropout's and native_dropout_backward's two paths share: the probability check (ATen's message,
// naming the op), the cases that draw nothing, and the backward's cases outside the masked-scale kernels.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

#include <functional>
#include <tuple>


namespace op_plugin::utils {

void check_dropout_probability(const char* op, double p);

// native_dropout up to its draw: ATen's check of p, *mask made a bool tensor of input's shape, and the
// result where nothing is drawn (an empty input; evaluation, train false: the input unchanged with an
// all-true mask), else nullopt.
c10::optional<std::tuple<at::Tensor, at::Tensor>> dropout_without_draw(const at::Tensor& input, double p,
                                                                         c10::optional<bool> train, at::Tensor* mask);

// native_dropout_backward: `masked_scale(grad, mask_bytes, grad_input)` writes grad * mask * scale into grad_input
// (dense, of the broadcast shape and grad_output's dtype) from grad_output and the bool mask (as uint8) expanded to
// that shape. A mask that is not bool (CPU takes any, grad_output * mask * scale promoted) and float64 (the
// kernels' scale is a float32; CPU's is the double) are that product on npu instead.
using MaskedScaleFn = std::function<void(const at::Tensor& grad, const at::Tensor& mask_bytes, at::Tensor& grad_input)>;
at::Tensor dropout_backward(const at::Tensor& grad_output, const at::Tensor& mask, double scale,
                            const MaskedScaleFn& masked_scale);

}  // namespace op_plugin::utils
