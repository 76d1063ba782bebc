// normal with tensor moments (Tensor_float, float_Tensor, Tensor_Tensor and their out=) on both paths:
// CPU's checks and the result's shape here; the draw, out = mean + std * z into an out of that shape,
// is the path's own NormalDraw.
#pragma once

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

// out (of the result's shape) = mean + std * z, each moment a tensor or, where it is absent, the value.
using NormalDraw = at::Tensor& (*)(const c10::optional<at::Tensor>& mean, double mean_value,
                                   const c10::optional<at::Tensor>& std, double std_value,
                                   c10::optional<at::Generator> generator, at::Tensor& out);

at::Tensor normal_tensor_float(const at::Tensor& mean, double std, c10::optional<at::Generator> generator,
                               NormalDraw draw);
at::Tensor& normal_tensor_float_out(const at::Tensor& mean, double std, c10::optional<at::Generator> generator,
                                    at::Tensor& out, NormalDraw draw);
at::Tensor normal_float_tensor(double mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                               NormalDraw draw);
at::Tensor& normal_float_tensor_out(double mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                                    at::Tensor& out, NormalDraw draw);
at::Tensor normal_tensor_tensor(const at::Tensor& mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                                NormalDraw draw);
at::Tensor& normal_tensor_tensor_out(const at::Tensor& mean, const at::Tensor& std,
                                     c10::optional<at::Generator> generator, at::Tensor& out, NormalDraw draw);

// out has a floating dtype (the draw's own check, with CPU's message).
void check_normal_out(const at::Tensor& out);

}  // namespace op_plugin::utils
