// What max_unpool2d / max_unpool3d share on both paths: the argument checks (CPU's messages, naming the op)
// and the result's shape.
#pragma once

#include <vector>

#include <ATen/core/Tensor.h>

namespace op_plugin::utils {

// `op`'s self (floating, (C, *spatial) or (N, C, *spatial), non-empty but for the batch), its int64 indices
// of self's shape and output_size of `spatial` sizes; returns the result's shape.
std::vector<int64_t> max_unpool_shape(const char* op, const at::Tensor& self, const at::Tensor& indices,
                                      at::IntArrayRef output_size, int64_t spatial);

// max_unpool3d's stride (three positive sizes) and padding (three sizes).
void check_max_unpool3d_args(at::IntArrayRef stride, at::IntArrayRef padding);

}  // namespace op_plugin::utils
