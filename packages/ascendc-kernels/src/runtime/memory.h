// Device memory: allocations owned by a device, tracked by address range.
#ifndef ASCENDC_SIM_RUNTIME_MEMORY_H
#define ASCENDC_SIM_RUNTIME_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  int32_t device = -1;
};

// The live device allocation containing `ptr`, if any.
ASCENDC_SIM_INTERNAL_API bool FindAllocation(const void* ptr, Allocation* out);

// ACL_SUCCESS when [ptr, ptr + bytes) lies inside one device allocation (its
// device in *device); otherwise sets a message naming `api` and `what`.
ASCENDC_SIM_INTERNAL_API aclError CheckDeviceRange(const void* ptr, size_t bytes, const char* api, const char* what,
                                                   int32_t* device);

// Allocation without the API's argument checks; `api` names the caller in errors.
aclError AllocateDeviceMemory(int32_t device, size_t size, const char* api, void** out);
// Frees an allocation made by AllocateDeviceMemory/aclrtMalloc. With
// `keepForQueuedWork`, keeps the bytes (not the allocation) until every stream of the device has
// run the work queued before the call; the caller does not wait.
aclError FreeDeviceMemory(void* ptr, bool keepForQueuedWork, const char* api);
// Frees `ptr` once the work queued on `stream` so far has run (stream-ordered).
aclError FreeDeviceMemoryAsync(void* ptr, aclrtStream stream);

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_MEMORY_H
