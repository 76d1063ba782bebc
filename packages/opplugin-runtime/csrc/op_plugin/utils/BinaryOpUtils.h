// Checks and argument preparation shared by hand-written binary kernels
// (same checks and messages as ATen's CPU kernels).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>

namespace op_plugin::utils {

// at::native::alpha_check: alpha must be representable in the result dtype.
void alpha_check(c10::ScalarType dtype, const c10::Scalar& alpha);

// The npu device a binary op runs on: the first npu tensor among self/other
// (one of them may be a 0-dim CPU scalar); raises naming `op` otherwise.
c10::Device binary_op_device(const char* op, const at::Tensor& self, const at::Tensor& other);

// For inplace ops: `result_type` must cast to self's dtype and the broadcast
// shape must be self's shape.
void check_inplace(const at::Tensor& self, const at::Tensor& other, c10::ScalarType result_type);

}  // namespace op_plugin::utils
