// Output-dtype helpers of op_plugin: what `dtype:` expressions of gen_opapi kernels
// call. Names and semantics follow upstream's op_infer dtype helpers.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>

namespace op_infer {

// abs: complex -> its real counterpart, otherwise self's dtype.
at::ScalarType abs_out_dtype(const at::Tensor& self);

// angle: complex -> real counterpart, integral/bool -> the default float dtype, else self's.
at::ScalarType angle_out_dtype(const at::Tensor& self);

// polar(abs, angle): the complex dtype of the promoted real inputs.
at::ScalarType polar_out_dtype(const at::Tensor& abs, const at::Tensor& angle);

// clamp(self, min, max) with optional tensor / scalar bounds: result_type of self and the
// present bounds (scalars take part as Python numbers do in type promotion).
at::ScalarType clamp_out_dtype(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                               const c10::optional<at::Tensor>& max);
at::ScalarType clamp_scalar_out_dtype(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                                      const c10::optional<at::Scalar>& max);

// npu_group_norm_silu: the dtype of the normalised output given input, weight and bias.
at::ScalarType npu_group_norm_silu_dst_type(const at::Tensor& input, const c10::optional<at::Tensor>& weight,
                                            const c10::optional<at::Tensor>& bias);

// npu_group_quant: dst_dtype (int8 when absent; int4 is carried in int32).
at::ScalarType npu_group_quant_dst_type(c10::optional<at::ScalarType> dst_dtype);

// npu_moe_distribute_dispatch_setup: the dtype of y for the given y_dtype code.
at::ScalarType npu_moe_distribute_dispatch_setup_out_dtype(c10::optional<int64_t> y_dtype);

}  // namespace op_infer
