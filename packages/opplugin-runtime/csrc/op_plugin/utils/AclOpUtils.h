// Input preparation for acl_op kernels.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>

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
aclFormat elementwise_internal_format(std::initializer_list<at::Tensor> tensors);

// A new result of `sizes` and `options` in `format` (ND: a plain tensor).
at::Tensor apply_result(c10::IntArrayRef sizes, const c10::TensorOptions& options, aclFormat format);

// Adds `input` to `cmd` as an operand of `dtype`: a 0-dim CPU scalar becomes a
// host constant, an npu tensor is cast on the device when its dtype differs.
// (The executor's binary ops broadcast and require equal dtypes.) With a base
// `format` an internal-format input is converted to its base format first.
void AddInputAs(at_npu::native::OpCommand& cmd, const at::Tensor& input, c10::ScalarType dtype,
                aclFormat format = ACL_FORMAT_ND);

}  // namespace op_plugin::utils
