// Checks of the interpolation kernels (upsample_*) on the acl_op path, whose CANN types take output sizes.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

// The dtype of `arg` (self, grad_output) is one the npu interpolation takes: floating, and uint8 for nearest.
void check_upsample_dtype(const char* op, const char* arg, const at::Tensor& self, bool nearest);

// A CANN type that derives an axis' source positions from its sizes (scale in / out) computes what the
// op computes with `scale` (the caller's scale factor, or none): TORCH_CHECK naming the op and argument
// otherwise. align_corners positions ignore the scale; `exact_sizes` (nearest) also accepts the sizes
// whose positions are exact whatever the scale (out == in, out == 2 * in).
void check_size_derived_scale(const char* op, const char* type, const char* arg, int64_t in, int64_t out,
                              c10::optional<double> scale, bool align_corners, bool exact_sizes,
                              at::ScalarType dtype);

}  // namespace op_plugin::utils
