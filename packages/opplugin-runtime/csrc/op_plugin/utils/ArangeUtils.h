// What arange.start_out's two paths share: CPU's argument checks, the size of the range and the
// resize of out (before torch 2.14 an int64 out sizes the range in int64, the others in double;
// from 2.14 every dtype sizes it in double).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

namespace op_plugin::utils {

// Checks start/end/step and out's dtype as CPU's arange_out does, resizes out to the range's
// length (warning, as CPU, when a non-empty out had another size) and returns that length.
int64_t arange_resize_out(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::Tensor& out);

}  // namespace op_plugin::utils
