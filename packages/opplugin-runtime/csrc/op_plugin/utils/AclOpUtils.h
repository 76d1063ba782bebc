// Input preparation for acl_op kernels.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>

#include "npu/framework/OpCommand.h"

namespace op_plugin::utils {

// `tensor` as `dtype` on the device (acl op "Cast"); `tensor` itself when it
// already has that dtype.
at::Tensor cast_for_acl_op(const at::Tensor& tensor, c10::ScalarType dtype);

// Adds `input` to `cmd` as an operand of `dtype`: a 0-dim CPU scalar becomes a
// host constant, an npu tensor is cast on the device when its dtype differs.
// (The executor's binary ops broadcast and require equal dtypes.)
void AddInputAs(at_npu::native::OpCommand& cmd, const at::Tensor& input, c10::ScalarType dtype);

}  // namespace op_plugin::utils
