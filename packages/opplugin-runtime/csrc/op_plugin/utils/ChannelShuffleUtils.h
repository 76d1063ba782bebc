// channel_shuffle's argument checks (CPU's messages), shared by its two paths.
#pragma once

#include <ATen/core/Tensor.h>

namespace op_plugin::utils {

// self has more than two dimensions and `groups` (positive) divides its channels.
void check_channel_shuffle(const at::Tensor& self, int64_t groups);

}  // namespace op_plugin::utils
