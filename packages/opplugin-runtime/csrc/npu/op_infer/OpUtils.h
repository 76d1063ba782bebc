// op_plugin::utils: small helpers generated and hand-written kernels share.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/SmallVector.h>

namespace op_plugin::utils {

// 0, 1, ..., self.dim() - 1: every dim of self (reductions over all dims).
c10::SmallVector<int64_t, 32> get_dimlist_for_tensor(const at::Tensor& self);

// True when the toolkit (aclsysGetCANNVersion of the simulator) is CANN 8.2.RC1 or newer.
bool is_gte_cann_version_820rc1();

}  // namespace op_plugin::utils
