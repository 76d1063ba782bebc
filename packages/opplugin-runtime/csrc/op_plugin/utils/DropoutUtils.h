// What native_dropout's and native_dropout_backward's two paths share: the probability check (ATen's message,
// naming the op), the cases that draw nothing, and the backward's cases outside the masked-scale kernels.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

#include <tuple>

#include "npu/op_infer/InferSize.h"

namespace op_plugin::utils {

void check_dropout_probability(const char* op, double p);

// native_dropout up to its draw: ATen's check of p, *mask made a bool tensor of input's shape, and the
// result where nothing is drawn (an empty input; evaluation, train false: the input unchanged with an
// all-true mask), else nullopt.
c10::optional<std::tuple<at::Tensor, at::Tensor>> dropout_without_draw(const at::Tensor& input, double p,
                                                                         c10::optional<bool> train, at::Tensor* mask);

// native_dropout_backward where the masked-scale kernels do not apply: a mask that is not bool (CPU takes any,
// grad_output * mask * scale promoted) and float64 (the kernels' scale is a float32; CPU's is the double):
// that product on npu; else nullopt. *output_size is the broadcast shape of grad_output and mask.
c10::optional<at::Tensor> dropout_backward_without_kernel(const at::Tensor& grad_output, const at::Tensor& mask,
                                                          double scale, op_infer::SmallVector* output_size);

}  // namespace op_plugin::utils
