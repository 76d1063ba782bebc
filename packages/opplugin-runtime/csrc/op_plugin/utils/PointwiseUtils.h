// Checks, result types and bounds shared by the pointwise kernels of both paths (clamp, logical_*),
// with ATen's messages.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>

#include "npu/op_infer/InferSize.h"

namespace op_plugin::utils {

// The largest value of `dtype` (+inf for the floating dtypes): an open upper clamp bound.
c10::Scalar upper_bound(at::ScalarType dtype);

// The smallest value of `dtype` (-inf for the floating dtypes): an open lower clamp bound.
c10::Scalar lower_bound(at::ScalarType dtype);

// clamp with scalar bounds: at least one bound, no complex self; the bounds promote as Python
// numbers do (an integral self with a floating bound gives the default float dtype).
at::ScalarType clamp_result_type(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                                 const c10::optional<at::Scalar>& max);

// In-place clamp with scalar bounds: the result type must be self's dtype.
void check_clamp_inplace(const at::Tensor& self, at::ScalarType result_type);

// clamp with tensor bounds: the operands' result type and broadcast shape (ATen's clamp.Tensor meta).
struct ClampTensorPlan {
  at::ScalarType dtype;
  op_infer::SmallVector size;
};
ClampTensorPlan clamp_tensor_plan(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                                  const c10::optional<at::Tensor>& max);

// In-place clamp with tensor bounds: the result must cast to self's dtype and keep self's shape.
void check_clamp_tensor_inplace(const at::Tensor& self, const ClampTensorPlan& plan);

// logical_and/or/xor.out: an out that is also an input must have the broadcast shape already; another
// out is resized (any out dtype holds the 0/1 result).
void check_logical_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out);

// fill_ with a tensor value: a 0-dim value into a self that is not complex.
void check_fill_value(const at::Tensor& self, const at::Tensor& value);

// linspace.out / logspace.out (`op`): steps non-negative, an out that is neither bool nor complex,
// resized to [steps].
void linspace_check_resize(const char* op, int64_t steps, at::Tensor& out);

// Whether linspace of `dtype` is computed in float and rounded once, from the bounds stored in `dtype`
// (linspace_bound): CPU's float16 and bfloat16 from torch 2.15 on; before, each operation rounds to the type.
bool linspace_in_float(at::ScalarType dtype);
at::Scalar linspace_bound(const at::Scalar& bound, at::ScalarType dtype);

// logspace of more than one step stores start and end in out's dtype: CPU's conversion, which raises where
// one overflows the dtype.
void check_logspace_bounds(const at::Scalar& start, const at::Scalar& end, int64_t steps, at::ScalarType dtype);

// eye.out / eye.m_out: n and m non-negative, an out that is not complex, resized to [n, m].
void eye_check_resize(int64_t n, int64_t m, at::Tensor& out);

// complex.out / polar.out: ATen's complex_check_dtype (float or double parts of one dtype, out of
// the matching complex dtype; Half parts are not supported on npu).
void check_complex_parts(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out);

}  // namespace op_plugin::utils
