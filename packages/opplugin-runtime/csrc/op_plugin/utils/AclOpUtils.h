// Input preparation for acl_op kernels.
#pragma once

#include <functional>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>

#include "acl/acl_base.h"
#include "npu/acl_op/OpCommand.h"

namespace op_plugin::utils {

// `tensor` as `dtype` on the device (acl op "Cast", which keeps an internal
// format); `tensor` itself when it already has that dtype.
at::Tensor cast_for_acl_op(const at::Tensor& tensor, c10::ScalarType dtype);

// The internal format (FRACTAL_NZ, NC1HWC0) that all of `tensors` share with
// equal shapes, so that an elementwise acl op can run on their padded storage
// (the padding is zero and stays zero for Add, Mul, Axpy, Abs, Cast); else
// ACL_FORMAT_ND: the op runs on base-format operands.
aclFormat elementwise_internal_format(c10::ArrayRef<at::Tensor> tensors);

// A new result of `sizes` and `options` in `format` (ND: a plain tensor).
at::Tensor apply_result(c10::IntArrayRef sizes, const c10::TensorOptions& options, aclFormat format);

// Adds `input` to `cmd` as an operand of `dtype`: a 0-dim CPU scalar becomes a
// host constant, an npu tensor is cast on the device when its dtype differs.
// (The executor's binary ops broadcast and require equal dtypes.) With a base
// `format` an internal-format input is converted to its base format first.
void AddInputAs(at_npu::native::OpCommand& cmd, const at::Tensor& input, c10::ScalarType dtype,
                aclFormat format = ACL_FORMAT_ND);

// out <- the elementwise acl op `type` of `inputs` (npu tensors, or 0-dim CPU scalars that become
// host constants, e.g. scalar_operand), each cast to `compute_dtype`; the op's result has
// `result_dtype` (compute_dtype, or bool for a compare) and out's shape (the executor broadcasts).
// Inputs and out sharing an internal format and shape run on their storage; otherwise on
// base-format operands. An out of another dtype or an internal format the op cannot write gets
// the values through copy_. `attrs` adds the op's attributes. An op whose result depends on the
// layout (tril) passes `layout_free` false: it always runs on base formats.
at::Tensor& elementwise_acl_op_out(const char* type, const std::vector<at::Tensor>& inputs,
                                   c10::ScalarType compute_dtype, c10::ScalarType result_dtype, at::Tensor& out,
                                   const std::function<void(at_npu::native::OpCommand&)>& attrs = nullptr,
                                   bool layout_free = true);

// out <- `run`, which writes a dense base-format tensor of out's shape and dtype: out itself when it is one,
// else a temporary whose values reach out through copy_ (an internal-format or strided out). `run` is not
// called for an empty out.
at::Tensor& write_through_base_format(at::Tensor& out, const std::function<void(at::Tensor&)>& run);

// `value` as a 0-dim CPU tensor: an operand elementwise_acl_op_out passes as a host constant.
at::Tensor scalar_operand(const c10::Scalar& value);

// The dtype an elementwise op of result `dtype` computes in when a Python number is among its operands
// (`with_number`): float32 for float16/bfloat16, where CPU computes with the number unrounded (a host
// constant of the 16-bit dtype would round it first); else `dtype`.
c10::ScalarType number_compute_dtype(c10::ScalarType dtype, bool with_number);

// result <- self + alpha * other by "AxpyV2", alpha a constant of result's dtype (base formats; result dense,
// of the broadcast shape and the result dtype).
void axpy_v2_out(const at::Tensor& self, const at::Tensor& other, const c10::Scalar& alpha, at::Tensor& result);

// Whether one of `operands` is a Python number (a 0-dim CPU tensor).
bool has_number(std::initializer_list<at::Tensor> operands);

// The dtype a float-producing unary op (exp, sqrt, ...) computes `self` in: self's dtype when it is
// floating, else the default float dtype (integral inputs promote as in ATen).
c10::ScalarType unary_float_dtype(const at::Tensor& self);

}  // namespace op_plugin::utils
