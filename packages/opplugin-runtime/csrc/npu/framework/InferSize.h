// Output-shape helpers used by `size:` expressions of gen_opapi kernels and by
// hand-written kernels.
#pragma once

#include <ATen/ExpandUtils.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>
#include <c10/util/SmallVector.h>

namespace op_infer {

using SmallVector = c10::SmallVector<int64_t, 8>;

// The broadcast shape of two tensors (error names both shapes, as on CPU).
SmallVector broadcast_ops_npu_output_size(const at::Tensor& self, const at::Tensor& other);
SmallVector broadcast_ops_npu_output_size(c10::IntArrayRef self_sizes, c10::IntArrayRef other_sizes);

// The shape of `input` (elementwise unary ops).
SmallVector input_same_output_size(const at::Tensor& input);

}  // namespace op_infer
