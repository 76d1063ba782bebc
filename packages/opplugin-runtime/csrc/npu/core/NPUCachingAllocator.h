// Caching allocator for npu device memory (aclrtMalloc), registered for
// PrivateUse1.
//
// Device memory is not host-accessible: the allocator never touches the bytes.
// Stream-ordered reuse: a freed block is cached for the (device, stream) it was
// allocated on and handed out again only to that stream, whose queue orders the
// new user after every earlier user. A block that other streams used
// (recordStream) waits in a pending list until an event recorded on each of
// them has completed. emptyCache synchronizes the devices before aclrtFree.
#pragma once

#include <cstddef>
#include <cstdint>

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>

#include "npu/core/NPUStream.h"

namespace c10_npu::NPUCachingAllocator {

struct DeviceStats {
  int64_t allocated_bytes = 0;       // held by live tensors/workspaces (rounded block sizes)
  int64_t reserved_bytes = 0;        // obtained with aclrtMalloc and not yet freed
  int64_t peak_allocated_bytes = 0;
  int64_t peak_reserved_bytes = 0;
  int64_t num_allocs = 0;            // allocate() calls with n > 0
  int64_t num_device_mallocs = 0;    // aclrtMalloc calls
  int64_t num_device_frees = 0;      // aclrtFree calls
  int64_t num_cache_hits = 0;
};

// The allocator instance (also what c10::GetAllocator(PrivateUse1) returns).
c10::Allocator* get();

// Allocates `nbytes` on `device` for use on `stream`.
c10::DataPtr allocate_on(size_t nbytes, c10::DeviceIndex device, NPUStream stream);

// Marks `data_ptr` as used by `stream` too, so that it is not reused by its
// allocation stream before that stream's queued work has finished.
void recordStream(const c10::DataPtr& data_ptr, NPUStream stream);

// Returns all cached, unused blocks to the device (after synchronizing).
void emptyCache();

DeviceStats getDeviceStats(c10::DeviceIndex device);
void resetPeakStats(c10::DeviceIndex device);

// Copies `nbytes` between two device allocations (synchronous; any devices).
void copyDeviceToDevice(void* dst, const void* src, size_t nbytes);

}  // namespace c10_npu::NPUCachingAllocator
