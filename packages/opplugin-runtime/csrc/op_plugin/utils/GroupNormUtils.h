// What native_group_norm and its backward share on both paths: the size checks (same messages), CPU's
// layout check, and weight/bias in the input's dtype.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

// `t` in `input`'s dtype (undefined when absent): CPU takes weight/bias of another float dtype.
at::Tensor group_norm_param(const c10::optional<at::Tensor>& t, const at::Tensor& input);

// `op`'s group dividing C, input of N * C * HxW elements, weight of C (when defined).
void check_group_norm(const char* op, const at::Tensor& input, const at::Tensor& weight, int64_t N, int64_t C,
                      int64_t HxW, int64_t group);

// native_group_norm's checks: check_group_norm, bias of C, and CPU's layout or size checks of the release
// (before torch 2.14: the input contiguous in its suggested memory format, channels_last passes and the
// kernels read it as NCHW; from 2.14: any layout, but channels and planes).
void check_group_norm_forward(const at::Tensor& input, const at::Tensor& weight, const at::Tensor& bias, int64_t N,
                              int64_t C, int64_t HxW, int64_t group);

}  // namespace op_plugin::utils
