// The npu's autocast state (torch.npu.is_autocast_enabled and friends): at::autocast's
// thread-local state of the PrivateUse1 device, whatever the torch release calls it.
#pragma once

#include <c10/core/ScalarType.h>

namespace at_npu::autocast {

bool is_autocast_enabled();
void set_autocast_enabled(bool enabled);
at::ScalarType get_autocast_dtype();
void set_autocast_dtype(at::ScalarType dtype);

}  // namespace at_npu::autocast
