// Caching allocator for npu device memory (aclrtMalloc), registered for
// PrivateUse1.
//
// Device memory is not host-accessible: the allocator never touches the bytes.
// Requests are rounded to 512 bytes. Requests of at most 256 KiB come from 1 MiB
// segments of the small pool, larger ones from segments of their own size in the
// large pool; a cached block larger than a request is split (the remainder stays
// cached) and adjacent free blocks of one segment are merged again when freed. A
// whole free large segment is not carved up when more than 2 MiB would be left.
//
// Stream-ordered reuse: a freed block is cached for the (device, stream) it was
// allocated on and handed out again to that stream, whose queue orders the new
// user after every earlier user. A block that other streams used
// (recordStream) waits in a pending list until an event recorded on each of
// them has completed. When a segment becomes wholly free, an event is recorded
// on its stream; its completion (a query, never a wait) proves the segment's
// last use has finished. On a miss (nothing fits in the stream's cache) the
// allocator takes the smallest such completed whole segment of another stream's
// cache; failing that, it returns every completed whole free segment (both
// pools, any stream) to the device and allocates a new segment. A segment with
// queued work stays in its stream's cache.
// When aclrtMalloc fails, the allocator synchronizes the device, returns every
// fully free cached segment and retries once before it raises
// c10::OutOfMemoryError (torch.OutOfMemoryError in Python).
//
// A per-process memory fraction caps the bytes reserved on a device; private
// pools (torch.npu.MemPool) keep their segments apart from the default pool's;
// memory history records every allocation, free and segment change with the
// Python frames of the call (torch.npu.memory._record_memory_history).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>

#include "npu/core/NPUStream.h"

namespace c10_npu::NPUCachingAllocator {

// One statistic in the torch.cuda style: current value, peak since the last
// reset, and the cumulative increases ("allocated") and decreases ("freed").
struct Stat {
  int64_t current = 0;
  int64_t peak = 0;
  int64_t allocated = 0;
  int64_t freed = 0;

  void increase(int64_t amount);
  void decrease(int64_t amount);
};

// Indexed by StatType: every block, the small pool's, the large pool's.
enum class StatType : size_t { AGGREGATE = 0, SMALL_POOL = 1, LARGE_POOL = 2, NUM_TYPES = 3 };
using StatArray = std::array<Stat, static_cast<size_t>(StatType::NUM_TYPES)>;

struct DeviceStats {
  StatArray allocation;       // blocks held by tensors/workspaces (count)
  StatArray segment;          // aclrtMalloc'ed segments (count)
  StatArray active;           // blocks held, or freed but awaiting stream-safe reuse (count)
  StatArray allocated_bytes;  // bytes of held blocks (rounded sizes)
  StatArray reserved_bytes;   // bytes of all segments
  StatArray active_bytes;     // bytes of active blocks
  StatArray requested_bytes;  // bytes the callers asked for (unrounded)

  int64_t num_alloc_retries = 0;  // aclrtMalloc failures followed by freeing the cache and retrying
  int64_t num_ooms = 0;           // out-of-memory errors raised
  int64_t num_device_alloc = 0;   // aclrtMalloc calls that succeeded
  int64_t num_device_free = 0;    // aclrtFree calls
  int64_t num_cache_hits = 0;     // requests served from a cached block
};

// The allocator instance (also what c10::GetAllocator(PrivateUse1) returns).
c10::Allocator* get();

// Allocates `nbytes` on `device` for use on `stream`.
c10::DataPtr allocate_on(size_t nbytes, c10::DeviceIndex device, NPUStream stream);

// Marks `data_ptr` as used by `stream` too, so that it is not reused by its
// allocation stream before that stream's queued work has finished.
void recordStream(const c10::DataPtr& data_ptr, NPUStream stream);

// Returns all cached, unused segments to the device (after synchronizing).
void emptyCache();

DeviceStats getDeviceStats(c10::DeviceIndex device);
void resetPeakStats(c10::DeviceIndex device);
void resetAccumulatedStats(c10::DeviceIndex device);

// Copies `nbytes` between two device allocations (synchronous; any devices).
void copyDeviceToDevice(void* dst, const void* src, size_t nbytes);

// ---- per-process memory fraction ----
// Caps the bytes reserved on `device` at fraction * its total memory (1: no cap). A
// request beyond the cap returns the cache to the device, then raises
// c10::OutOfMemoryError. Segments already reserved stay.
void setMemoryFraction(double fraction, c10::DeviceIndex device);
double getMemoryFraction(c10::DeviceIndex device);

// ---- raw allocations (torch.npu.caching_allocator_alloc/_delete) ----
// A block of the caching allocator handed out as a bare pointer; nullptr for 0 bytes.
void* raw_alloc_with_stream(size_t nbytes, c10::DeviceIndex device, NPUStream stream);
// Gives back a pointer of raw_alloc_with_stream; any other pointer is an error.
void raw_delete(void* ptr);

// ---- private pools (torch.npu.MemPool) ----
using PoolId = uint64_t;  // 0: the default pool
PoolId createPool();
// The pool's cached segments return to the device now, its others once wholly free.
void releasePool(PoolId pool);
// Until the matching end, this thread's allocations on `device` come from `pool`
// (nested calls stack).
void beginAllocateToPool(c10::DeviceIndex device, PoolId pool);
void endAllocateToPool(c10::DeviceIndex device, PoolId pool);

// ---- memory history and snapshots ----
struct Frame {
  std::string filename;
  int64_t line = 0;
  std::string name;
};
using Frames = std::vector<Frame>;
// Gathers the caller's frames (innermost first); may return null (no frames known).
using GatherFramesFn = std::shared_ptr<const Frames> (*)();

enum class HistoryMode {
  kOff,    // nothing recorded
  kState,  // live blocks keep the frames of their allocation
  kAll,    // and every event goes to the trace
};
// `free_frames`: free events carry frames too. `max_entries` bounds the trace (the
// oldest entries go first); `clear` drops the trace recorded so far.
void recordHistory(HistoryMode mode, bool free_frames, size_t max_entries, bool clear, GatherFramesFn gather);

struct BlockInfo {
  uintptr_t address = 0;
  size_t size = 0;
  size_t requested = 0;
  const char* state = "";  // "active_allocated", "active_pending_free" or "inactive"
  std::shared_ptr<const Frames> frames;
};

struct SegmentInfo {
  c10::DeviceIndex device = 0;
  uintptr_t address = 0;
  size_t total_size = 0;
  size_t allocated_size = 0;
  size_t active_size = 0;
  size_t requested_size = 0;
  c10::StreamId stream = 0;
  bool small = false;
  PoolId pool = 0;
  std::vector<BlockInfo> blocks;
};

struct TraceEntry {
  // "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "oom"
  const char* action = "";
  c10::DeviceIndex device = 0;
  uintptr_t addr = 0;  // "oom": the device's free bytes
  size_t size = 0;
  c10::StreamId stream = 0;
  int64_t time_us = 0;
  std::shared_ptr<const Frames> frames;
};

struct Snapshot {
  std::vector<SegmentInfo> segments;  // every device, by address
  std::vector<TraceEntry> trace;      // oldest first, every device
};
Snapshot snapshot();

}  // namespace c10_npu::NPUCachingAllocator
