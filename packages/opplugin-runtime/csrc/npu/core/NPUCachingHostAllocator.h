// Caching allocator for pinned (page-locked) host memory from aclrtMallocHost:
// what tensor.pin_memory(), DataLoader(pin_memory=True) and
// torch.empty(..., pin_memory=True) allocate, and what lets a non_blocking copy
// between host and npu be queued on a stream instead of waited for.
//
// Requests are rounded up to a power of two (at least 512 bytes); a freed block
// is cached by that size. A non_blocking copy records an event on its stream for
// the block it reads or writes (recordEvent): a freed block is handed out again
// only once every such event has completed, so the host never overwrites bytes a
// queued copy has yet to read. emptyCache() returns the cached blocks whose
// copies have finished to aclrtFreeHost.
#pragma once

#include <cstdint>

#include <c10/core/Allocator.h>

#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUStream.h"

namespace c10_npu::NPUCachingHostAllocator {

// Time spent in aclrtMallocHost / aclrtFreeHost, in microseconds.
struct DurationStat {
  int64_t total = 0;
  int64_t max = 0;
  int64_t min = 0;
  int64_t count = 0;

  void add(int64_t us);
};

// The statistics of torch.cuda.host_memory_stats, for the npu's pinned memory.
struct HostStats {
  NPUCachingAllocator::Stat allocations;      // blocks owned by the allocator (held and cached)
  NPUCachingAllocator::Stat allocated_bytes;  // their bytes (rounded sizes)
  NPUCachingAllocator::Stat active_requests;  // blocks handed out and not yet reusable
  NPUCachingAllocator::Stat active_bytes;     // their bytes
  int64_t num_host_alloc = 0;                 // aclrtMallocHost calls that succeeded
  int64_t num_host_free = 0;                  // aclrtFreeHost calls
  DurationStat host_alloc_time;
  DurationStat host_free_time;
};

// The allocator instance (what the PrivateUse1 hooks return as the pinned memory allocator).
c10::Allocator* get();

// Whether `ptr` lies within a block of this allocator (held by a tensor or cached).
bool isPinned(const void* ptr);

// Marks the block of `ctx` (the context of a DataPtr this allocator returned) as
// in use by `stream` until the work queued there so far has completed. Returns
// false, and records nothing, when `ctx` is not one of this allocator's blocks.
bool recordEvent(void* ctx, c10_npu::NPUStream stream);

// Returns every cached block whose queued copies have finished to aclrtFreeHost.
void emptyCache();

HostStats getStats();
void resetPeakStats();
void resetAccumulatedStats();

}  // namespace c10_npu::NPUCachingHostAllocator
