// Host-side entry of the add_custom kernel: tiling plus launch. No torch here,
// so the kernel library can be tested and reused without PyTorch.
#ifndef ASCENDC_ADD_ADD_CUSTOM_H
#define ASCENDC_ADD_ADD_CUSTOM_H

#include <cstdint>

#include "acl/acl_base.h"

namespace ascendc_ops {

enum class AddDtype { kFloat16, kBFloat16, kFloat32 };

// z[i] = x[i] + y[i] for i < totalLength; x, y, z are device pointers on the
// stream's device. Queues the kernel on `stream` and returns at once.
aclError LaunchAddCustom(AddDtype dtype, const void* x, const void* y, void* z, uint64_t totalLength,
                         aclrtStream stream);

}  // namespace ascendc_ops

#endif  // ASCENDC_ADD_ADD_CUSTOM_H
