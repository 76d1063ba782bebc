// Virtual device memory (aclrtReserveMemAddress / aclrtMallocPhysical / aclrtMapMem): what the rest
// of the simulator asks of it.
#ifndef ASCENDC_SIM_RUNTIME_VIRTUAL_MEMORY_H
#define ASCENDC_SIM_RUNTIME_VIRTUAL_MEMORY_H

#include "runtime/memory.h"

namespace ascendc_sim {

// The run of adjacent mappings containing `ptr` (mapped device memory), if any.
bool FindMappedRange(const void* ptr, Allocation* out);

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_VIRTUAL_MEMORY_H
