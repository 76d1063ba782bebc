// channel_shuffle's and _prelu_kernel's argument checks, shared by their two paths.
#pragma once

#include <ATen/core/Tensor.h>

namespace op_plugin::utils {

// self has more than two dimensions and `groups` (positive) divides its channels.
void check_channel_shuffle(const at::Tensor& self, int64_t groups);

// _prelu_kernel's self is floating.
void check_prelu_self(const at::Tensor& self);

}  // namespace op_plugin::utils
