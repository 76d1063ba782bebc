// Input preparation for acl_op kernels.
#pragma once

#include <ATen/core/Tensor.h>

#include "npu/framework/OpCommand.h"

namespace op_plugin::utils {

// Adds `input` to `cmd` as an operand of `result`'s dtype and shape: a 0-dim
// CPU scalar is filled on the device, an npu tensor is cast on the device when
// its dtype differs, and broadcast inputs are expanded (OpCommand then makes
// them dense), since the executor's elementwise ops take equal shapes.
void AddBroadcastInput(at_npu::native::OpCommand& cmd, const at::Tensor& input, const at::Tensor& result);

}  // namespace op_plugin::utils
