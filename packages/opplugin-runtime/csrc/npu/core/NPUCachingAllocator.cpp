#include "npu/core/NPUCachingAllocator.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/TorchCompat.h"

namespace c10_npu::NPUCachingAllocator {

void Stat::increase(int64_t amount) {
  current += amount;
  peak = std::max(peak, current);
  allocated += amount;
}

void Stat::decrease(int64_t amount) {
  current -= amount;
  freed += amount;
}

namespace {

constexpr size_t kRoundBytes = 512;                  // the device's allocation granularity
constexpr size_t kSmallSize = size_t(256) << 10;     // requests up to 256 KiB use the small pool
constexpr size_t kSmallSegment = size_t(1) << 20;    // the small pool's segment size
constexpr size_t kMinLargeRemainder = size_t(1) << 20;  // a large block is split only above this remainder
// A whole free large segment is not carved up for a request that would leave
// more than this unused: a small block would pin the big segment in place
// (measured in bench/npu_allocator_overhead.py).
constexpr size_t kMaxWholeSegmentSlack = size_t(2) << 20;

size_t RoundSize(size_t n) {
  return (n + kRoundBytes - 1) / kRoundBytes * kRoundBytes;
}

struct Block {
  void* ptr = nullptr;
  size_t size = 0;
  size_t requested = 0;  // bytes asked for by the current holder
  c10::DeviceIndex device = 0;
  c10::StreamId stream = 0;
  PoolId pool = 0;
  bool small = false;
  bool in_use = false;    // held, or freed but awaiting stream-safe reuse
  Block* prev = nullptr;  // neighbours in the same segment
  Block* next = nullptr;
  std::vector<c10::StreamId> other_streams;  // recordStream: also used there
  std::shared_ptr<const Frames> frames;      // of the allocation, while memory history is on
  // Segment heads only (prev == nullptr; the head object lives as long as its
  // segment): recorded on `stream` each time the whole segment becomes free,
  // so that its completion proves the last use of the segment has finished.
  aclrtEvent free_event = nullptr;
  bool free_event_recorded = false;

  bool WholeSegment() const { return prev == nullptr && next == nullptr; }
};

// Free blocks ordered by (pool, stream, size, address): best fit on one stream of a pool.
struct BlockOrder {
  bool operator()(const Block* a, const Block* b) const {
    if (a->pool != b->pool) {
      return a->pool < b->pool;
    }
    if (a->stream != b->stream) {
      return a->stream < b->stream;
    }
    if (a->size != b->size) {
      return a->size < b->size;
    }
    return reinterpret_cast<uintptr_t>(a->ptr) < reinterpret_cast<uintptr_t>(b->ptr);
  }
};
using FreeBlocks = std::set<Block*, BlockOrder>;

struct PendingBlock {
  Block* block;
  std::vector<aclrtEvent> events;  // one per stream the block was recorded on
  bool ordered = false;            // all events recorded; else only a device synchronization frees it
};

struct DevicePool {
  FreeBlocks small_free;
  FreeBlocks large_free;
  std::vector<PendingBlock> pending;
  std::set<Block*> segments;  // the head block of every segment
  DeviceStats stats;
  double memory_fraction = 1.0;
  size_t allowed_bytes = std::numeric_limits<size_t>::max();  // reserved bytes the fraction allows

  FreeBlocks& Free(bool small) { return small ? small_free : large_free; }
};

void FreeBlockDeleter(void* ctx);

// Runs `fn` with `device` current, restoring the previous device.
template <typename Fn>
auto OnDevice(c10::DeviceIndex device, Fn&& fn) {
  NPUGuard guard(device);
  return fn();
}

// Adds `amount` to the aggregate and to the block's pool.
void Update(StatArray& stats, bool small, int64_t amount) {
  Stat& pool = stats[static_cast<size_t>(small ? StatType::SMALL_POOL : StatType::LARGE_POOL)];
  Stat& all = stats[static_cast<size_t>(StatType::AGGREGATE)];
  if (amount >= 0) {
    all.increase(amount);
    pool.increase(amount);
  } else {
    all.decrease(-amount);
    pool.decrease(-amount);
  }
}

int64_t NowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// This thread's use_mem_pool contexts, innermost last.
thread_local std::vector<std::pair<c10::DeviceIndex, PoolId>> tls_pools;

PoolId ThreadPool(c10::DeviceIndex device) {
  for (auto it = tls_pools.rbegin(); it != tls_pools.rend(); ++it) {
    if (it->first == device) {
      return it->second;
    }
  }
  return 0;
}

std::string FormatBytes(uint64_t bytes) {
  char text[64];
  if (bytes >= (uint64_t(1) << 30)) {
    std::snprintf(text, sizeof(text), "%.2f GiB", static_cast<double>(bytes) / double(1 << 30));
  } else if (bytes >= (uint64_t(1) << 20)) {
    std::snprintf(text, sizeof(text), "%.2f MiB", static_cast<double>(bytes) / double(1 << 20));
  } else if (bytes >= 1024) {
    std::snprintf(text, sizeof(text), "%.2f KiB", static_cast<double>(bytes) / 1024.0);
  } else {
    std::snprintf(text, sizeof(text), "%llu bytes", static_cast<unsigned long long>(bytes));
  }
  return text;
}

class CachingAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t nbytes) NPU_ALLOCATOR_CONST override {
    const c10::DeviceIndex device = current_device();
    return const_cast<CachingAllocator*>(this)->Allocate(nbytes, device, getCurrentNPUStream(device).id());
  }

  c10::DeleterFnPtr raw_deleter() const override {
    return nullptr;  // the DataPtr context is the block, not the pointer
  }

#if NPU_ALLOCATOR_HAS_COPY_DATA
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    copyDeviceToDevice(dest, src, count);
  }
#endif

  c10::DataPtr Allocate(size_t nbytes, c10::DeviceIndex device, c10::StreamId stream) {
    const c10::Device torch_device(c10::DeviceType::PrivateUse1, device);
    if (nbytes == 0) {
      return c10::DataPtr(nullptr, nullptr, nullptr, torch_device);
    }
    TORCH_CHECK(device >= 0 && device < kMaxDevices, "NPU caching allocator: invalid device ", static_cast<int>(device));
    const size_t size = RoundSize(nbytes);
    const bool small = size <= kSmallSize;
    const PoolId mem_pool = ThreadPool(device);
    std::shared_ptr<const Frames> frames = GatherIfRecording(/*for_free=*/false);
    std::lock_guard<std::mutex> lock(mutex_);
    DevicePool& pool = pools_[device];
    ProcessPending(pool, /*wait=*/false);
    Block* block = TakeFree(pool, mem_pool, stream, small, size);
    if (block == nullptr) {
      block = TakeIdleSegment(pool, mem_pool, stream, small, size);
    }
    if (block == nullptr) {
      ReleaseIdleSegments(pool, device);
      block = NewSegment(pool, device, mem_pool, stream, small, size, nbytes, frames);
    } else {
      ++pool.stats.num_cache_hits;
    }
    block = SplitIfLarger(pool, block, size);
    block->in_use = true;
    block->requested = nbytes;
    if (history_mode_ != HistoryMode::kOff) {
      block->frames = frames;
      Trace("alloc", device, block->ptr, block->size, stream, frames);
    }
    Update(pool.stats.allocation, small, 1);
    Update(pool.stats.active, small, 1);
    Update(pool.stats.allocated_bytes, small, static_cast<int64_t>(block->size));
    Update(pool.stats.active_bytes, small, static_cast<int64_t>(block->size));
    Update(pool.stats.requested_bytes, small, static_cast<int64_t>(nbytes));
    return c10::DataPtr(block->ptr, block, &FreeBlockDeleter, torch_device);
  }

  void Free(Block* block) {
    std::shared_ptr<const Frames> frames = GatherIfRecording(/*for_free=*/true);
    std::lock_guard<std::mutex> lock(mutex_);
    DevicePool& pool = pools_[block->device];
    Trace("free_requested", block->device, block->ptr, block->size, block->stream, frames);
    Update(pool.stats.allocation, block->small, -1);
    Update(pool.stats.allocated_bytes, block->small, -static_cast<int64_t>(block->size));
    Update(pool.stats.requested_bytes, block->small, -static_cast<int64_t>(block->requested));
    block->requested = 0;
    if (block->other_streams.empty()) {
      ReturnToPool(pool, block);
      return;
    }
    PendingBlock pending{block, {}};
    try {
      OnDevice(block->device, [&] {
        for (c10::StreamId other : block->other_streams) {
          aclrtEvent event = nullptr;
          NPU_CHECK_ACL(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
          pending.events.push_back(event);
          NPU_CHECK_ACL(aclrtRecordEvent(event, NPUStreamForId(block->device, other).stream()));
        }
        return 0;
      });
      pending.ordered = true;
    } catch (const std::exception& e) {
      // Could not order the reuse after the other streams: keep the block out
      // of circulation until the next emptyCache, which synchronizes.
      TORCH_WARN("NPU caching allocator: ", e.what());
    }
    block->other_streams.clear();
    pool.pending.push_back(std::move(pending));
  }

  void RecordStream(const c10::DataPtr& data_ptr, NPUStream stream) {
    if (data_ptr.get_deleter() != &FreeBlockDeleter) {
      return;  // not ours (or empty)
    }
    auto* block = static_cast<Block*>(data_ptr.get_context());
    std::lock_guard<std::mutex> lock(mutex_);
    if (stream.device_index() != block->device || stream.id() == block->stream) {
      return;
    }
    if (std::find(block->other_streams.begin(), block->other_streams.end(), stream.id()) ==
        block->other_streams.end()) {
      block->other_streams.push_back(stream.id());
    }
  }

  void EmptyCache() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (c10::DeviceIndex device = 0; device < kMaxDevices; ++device) {
      ReleaseCached(pools_[device], device);
    }
  }

  void SetMemoryFraction(double fraction, c10::DeviceIndex device) {
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    NPU_CHECK_ACL(OnDevice(device, [&] { return aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes); }));
    std::lock_guard<std::mutex> lock(mutex_);
    DevicePool& pool = pools_[device];
    pool.memory_fraction = fraction;
    pool.allowed_bytes = fraction >= 1.0 ? std::numeric_limits<size_t>::max()
                                         : static_cast<size_t>(static_cast<double>(total_bytes) * fraction);
  }

  double MemoryFraction(c10::DeviceIndex device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return pools_[device].memory_fraction;
  }

  void* RawAlloc(size_t nbytes, c10::DeviceIndex device, c10::StreamId stream) {
    c10::DataPtr data = Allocate(nbytes, device, stream);
    void* ptr = data.get();
    if (ptr != nullptr) {
      std::lock_guard<std::mutex> lock(raw_mutex_);
      raw_.emplace(ptr, std::move(data));
    }
    return ptr;
  }

  void RawDelete(void* ptr) {
    if (ptr == nullptr) {
      return;  // what a 0-byte raw allocation returned
    }
    c10::DataPtr data;
    {
      std::lock_guard<std::mutex> lock(raw_mutex_);
      auto it = raw_.find(ptr);
      TORCH_CHECK(it != raw_.end(), "caching_allocator_delete: mem_ptr ", ptr,
                  " was not allocated by caching_allocator_alloc (or was already deleted)");
      data = std::move(it->second);
      raw_.erase(it);
    }
    // `data` frees the block here, outside raw_mutex_.
  }

  PoolId CreatePool() {
    std::lock_guard<std::mutex> lock(mutex_);
    const PoolId id = next_pool_++;
    live_pools_.insert(id);
    return id;
  }

  void ReleasePool(PoolId id) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_pools_.erase(id) == 0) {
      return;
    }
    for (c10::DeviceIndex device = 0; device < kMaxDevices; ++device) {
      ReleaseWholeFreeSegments(pools_[device], device, [&](Block* head) { return head->pool == id; });
    }
  }

  void RecordHistory(HistoryMode mode, bool free_frames, size_t max_entries, bool clear, GatherFramesFn gather) {
    std::lock_guard<std::mutex> lock(mutex_);
    alloc_gather_.store(mode != HistoryMode::kOff ? gather : nullptr, std::memory_order_relaxed);
    free_gather_.store(mode != HistoryMode::kOff && free_frames ? gather : nullptr, std::memory_order_relaxed);
    trace_max_ = std::max<size_t>(1, max_entries);
    // Oldest first again, so that a larger bound appends after the newest entry.
    std::rotate(trace_.begin(), trace_.begin() + static_cast<std::ptrdiff_t>(trace_next_), trace_.end());
    trace_next_ = 0;
    if (clear) {
      trace_.clear();
    } else if (trace_.size() > trace_max_) {
      trace_.erase(trace_.begin(), trace_.end() - static_cast<std::ptrdiff_t>(trace_max_));
    }
    history_mode_ = mode;
  }

  Snapshot TakeSnapshot() {
    std::lock_guard<std::mutex> lock(mutex_);
    Snapshot out;
    for (c10::DeviceIndex device = 0; device < kMaxDevices; ++device) {
      for (Block* head : pools_[device].segments) {
        SegmentInfo segment;
        segment.device = device;
        segment.address = reinterpret_cast<uintptr_t>(head->ptr);
        segment.stream = head->stream;
        segment.small = head->small;
        segment.pool = head->pool;
        for (Block* block = head; block != nullptr; block = block->next) {
          BlockInfo info;
          info.address = reinterpret_cast<uintptr_t>(block->ptr);
          info.size = block->size;
          info.requested = block->requested;
          info.frames = block->frames;
          info.state = !block->in_use ? "inactive" : block->requested > 0 ? "active_allocated" : "active_pending_free";
          segment.total_size += block->size;
          if (block->in_use) {
            segment.active_size += block->size;
          }
          if (block->requested > 0) {
            segment.allocated_size += block->size;
            segment.requested_size += block->requested;
          }
          segment.blocks.push_back(std::move(info));
        }
        out.segments.push_back(std::move(segment));
      }
    }
    std::sort(out.segments.begin(), out.segments.end(),
              [](const SegmentInfo& a, const SegmentInfo& b) { return a.address < b.address; });
    out.trace.reserve(trace_.size());
    for (size_t i = 0; i < trace_.size(); ++i) {
      out.trace.push_back(trace_[(trace_next_ + i) % trace_.size()]);
    }
    return out;
  }

  DeviceStats Stats(c10::DeviceIndex device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return pools_[device].stats;
  }

  void ResetPeak(c10::DeviceIndex device) {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceStats& s = pools_[device].stats;
    for (StatArray* array : {&s.allocation, &s.segment, &s.active, &s.allocated_bytes, &s.reserved_bytes,
                             &s.active_bytes, &s.requested_bytes}) {
      for (Stat& stat : *array) {
        stat.peak = stat.current;
      }
    }
  }

  void ResetAccumulated(c10::DeviceIndex device) {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceStats& s = pools_[device].stats;
    for (StatArray* array : {&s.allocation, &s.segment, &s.active, &s.allocated_bytes, &s.reserved_bytes,
                             &s.active_bytes, &s.requested_bytes}) {
      for (Stat& stat : *array) {
        stat.allocated = 0;
        stat.freed = 0;
      }
    }
    s.num_alloc_retries = 0;
    s.num_ooms = 0;
    s.num_device_alloc = 0;
    s.num_device_free = 0;
    s.num_cache_hits = 0;
  }

 private:
  // The smallest cached block of `stream` that holds `size` bytes, removed from the cache.
  static Block* TakeFree(DevicePool& pool, PoolId mem_pool, c10::StreamId stream, bool small, size_t size) {
    FreeBlocks& free_blocks = pool.Free(small);
    Block key;
    key.pool = mem_pool;
    key.stream = stream;
    key.size = size;
    auto it = free_blocks.lower_bound(&key);
    if (it == free_blocks.end() || (*it)->stream != stream || (*it)->pool != mem_pool) {
      return nullptr;
    }
    Block* block = *it;
    if (!small && block->WholeSegment() && block->size - size > kMaxWholeSegmentSlack) {
      return nullptr;  // a miss: released once idle, or left for a better fitting request
    }
    free_blocks.erase(it);
    return block;
  }

  // Cuts `block` down to `size` when the remainder is worth keeping; the
  // remainder goes back to the cache.
  static Block* SplitIfLarger(DevicePool& pool, Block* block, size_t size) {
    const size_t remaining = block->size - size;
    const bool split = block->small ? remaining >= kRoundBytes : remaining > kMinLargeRemainder;
    if (!split) {
      return block;
    }
    auto* rest = new Block();
    rest->ptr = static_cast<char*>(block->ptr) + size;
    rest->size = remaining;
    rest->device = block->device;
    rest->stream = block->stream;
    rest->pool = block->pool;
    rest->small = block->small;
    rest->prev = block;
    rest->next = block->next;
    if (rest->next != nullptr) {
      rest->next->prev = rest;
    }
    block->next = rest;
    block->size = size;
    pool.Free(rest->small).insert(rest);
    return block;
  }

  // Marks `block` free, merges it with free neighbours and caches the result.
  void ReturnToPool(DevicePool& pool, Block* block) {
    Trace("free_completed", block->device, block->ptr, block->size, block->stream, nullptr);
    Update(pool.stats.active, block->small, -1);
    Update(pool.stats.active_bytes, block->small, -static_cast<int64_t>(block->size));
    block->in_use = false;
    block->frames.reset();
    FreeBlocks& free_blocks = pool.Free(block->small);
    if (block->prev != nullptr && !block->prev->in_use) {
      // Keep the lower object: a segment's head object (and its event) stays put.
      Block* prev = block->prev;
      free_blocks.erase(prev);
      prev->size += block->size;
      prev->next = block->next;
      if (prev->next != nullptr) {
        prev->next->prev = prev;
      }
      delete block;
      block = prev;
    }
    if (block->next != nullptr && !block->next->in_use) {
      Block* next = block->next;
      free_blocks.erase(next);
      block->size += next->size;
      block->next = next->next;
      if (block->next != nullptr) {
        block->next->prev = block;
      }
      delete next;
    }
    if (block->WholeSegment() && block->pool != 0 && live_pools_.count(block->pool) == 0) {
      // The last block of a released private pool's segment: back to the device.
      OnDevice(block->device, [&] {
        FreeSegment(pool, block);
        return 0;
      });
      return;
    }
    if (block->WholeSegment()) {
      RecordFreeEvent(block);
    }
    free_blocks.insert(block);
  }

  // Whether a whole free segment may go back to the device to make room: not while
  // its private pool lives (the pool keeps its memory, as CUDA's do).
  bool Releasable(const Block* head) const {
    return head->pool == 0 || live_pools_.count(head->pool) == 0;
  }

  // The caller's frames when memory history wants them. Called without mutex_ held:
  // gathering Python frames takes the time it takes.
  std::shared_ptr<const Frames> GatherIfRecording(bool for_free) {
    const GatherFramesFn gather = (for_free ? free_gather_ : alloc_gather_).load(std::memory_order_relaxed);
    return gather != nullptr ? gather() : nullptr;
  }

  // Appends an event to the trace (the caller holds mutex_).
  void Trace(const char* action, c10::DeviceIndex device, const void* addr, size_t size, c10::StreamId stream,
             std::shared_ptr<const Frames> frames) {
    if (history_mode_ != HistoryMode::kAll) {
      return;
    }
    TraceEntry entry{action, device, reinterpret_cast<uintptr_t>(addr), size, stream, NowUs(), std::move(frames)};
    if (trace_.size() < trace_max_) {
      trace_.push_back(std::move(entry));
    } else {
      trace_[trace_next_] = std::move(entry);
      trace_next_ = (trace_next_ + 1) % trace_max_;
    }
  }

  // Records the head's event on its stream: the segment's uses so far are
  // queued before it. On failure the segment counts as busy until emptyCache.
  static void RecordFreeEvent(Block* head) {
    head->free_event_recorded = false;
    NPUGuard guard(head->device);
    if (head->free_event == nullptr &&
        aclrtCreateEventWithFlag(&head->free_event, ACL_EVENT_SYNC) != ACL_SUCCESS) {
      head->free_event = nullptr;
      TORCH_WARN("NPU caching allocator: aclrtCreateEventWithFlag failed: ", c10_npu::AclRecentErrorMessage());
      return;
    }
    if (aclrtRecordEvent(head->free_event, NPUStreamForId(head->device, head->stream).stream()) != ACL_SUCCESS) {
      TORCH_WARN("NPU caching allocator: aclrtRecordEvent failed: ", c10_npu::AclRecentErrorMessage());
      return;
    }
    head->free_event_recorded = true;
  }

  // True when the whole free segment `head` has no queued or running use left
  // (a query, never a wait).
  static bool SegmentIdle(Block* head) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return head->free_event_recorded && aclrtQueryEventStatus(head->free_event, &status) == ACL_SUCCESS &&
           status == ACL_EVENT_RECORDED_STATUS_COMPLETE;
  }

  // After a miss on `stream`: the smallest whole free segment of another
  // stream's cache that holds `size` bytes and whose last use has completed
  // (a query, never a wait), moved to `stream` and removed from the cache.
  static Block* TakeIdleSegment(DevicePool& pool, PoolId mem_pool, c10::StreamId stream, bool small, size_t size) {
    FreeBlocks& free_blocks = pool.Free(small);
    Block* best = nullptr;
    for (Block* block : free_blocks) {
      if (block->pool != mem_pool || block->stream == stream || !block->WholeSegment() || block->size < size ||
          (best != nullptr && block->size >= best->size) || !SegmentIdle(block)) {
        continue;
      }
      best = block;
    }
    if (best != nullptr) {
      free_blocks.erase(best);
      best->stream = stream;
    }
    return best;
  }

  // After a miss: returns to the device every whole free segment (any stream,
  // both pools) whose last use has completed, so that the new segment replaces
  // them instead of adding to them. Segments with queued work stay cached.
  void ReleaseIdleSegments(DevicePool& pool, c10::DeviceIndex device) {
    ReleaseWholeFreeSegments(pool, device, [&](Block* head) { return Releasable(head) && SegmentIdle(head); });
  }

  // Returns to the device every free block of `pool` that is a whole segment and for
  // which `release(head)` holds; the other free blocks stay cached.
  template <typename Predicate>
  void ReleaseWholeFreeSegments(DevicePool& pool, c10::DeviceIndex device, Predicate&& release) {
    for (FreeBlocks* free_blocks : {&pool.small_free, &pool.large_free}) {
      for (auto it = free_blocks->begin(); it != free_blocks->end();) {
        Block* block = *it;
        if (!block->WholeSegment() || !release(block)) {
          ++it;
          continue;
        }
        it = free_blocks->erase(it);
        OnDevice(device, [&] {
          FreeSegment(pool, block);
          return 0;
        });
      }
    }
  }

  Block* NewSegment(DevicePool& pool, c10::DeviceIndex device, PoolId mem_pool, c10::StreamId stream, bool small,
                    size_t size, size_t requested, const std::shared_ptr<const Frames>& frames) {
    const size_t segment = small ? kSmallSegment : size;
    void* ptr = nullptr;
    bool over_fraction = false;
    auto device_malloc = [&]() -> aclError {
      const auto reserved_now = static_cast<size_t>(pool.stats.reserved_bytes[0].current);
      over_fraction = pool.allowed_bytes != std::numeric_limits<size_t>::max() &&
                      (segment > pool.allowed_bytes || reserved_now > pool.allowed_bytes - segment);
      if (over_fraction) {
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
      }
      return OnDevice(device, [&] { return aclrtMalloc(&ptr, segment, ACL_MEM_MALLOC_HUGE_FIRST); });
    };
    aclError err = device_malloc();
    if (err != ACL_SUCCESS) {
      // Give the cache back to the device and try once more.
      ++pool.stats.num_alloc_retries;
      ReleaseCached(pool, device);
      err = device_malloc();
    }
    if (err != ACL_SUCCESS) {
      const std::string acl_message = over_fraction ? std::string() : c10_npu::AclRecentErrorMessage();
      ++pool.stats.num_ooms;
      size_t free_bytes = 0;
      size_t total_bytes = 0;
      OnDevice(device, [&] { return aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes); });
      const int64_t allocated = pool.stats.allocated_bytes[0].current;
      const int64_t reserved = pool.stats.reserved_bytes[0].current;
      Trace("oom", device, reinterpret_cast<void*>(free_bytes), requested, stream, frames);
      TORCH_CHECK_WITH(OutOfMemoryError, !over_fraction, "NPU out of memory. Tried to allocate ",
                       FormatBytes(requested), " (", requested, " bytes) on npu:", static_cast<int>(device),
                       ". The per-process memory fraction of npu:", static_cast<int>(device), " is ",
                       pool.memory_fraction, " (set_per_process_memory_fraction): the caching allocator may reserve ",
                       FormatBytes(pool.allowed_bytes), " of its ", FormatBytes(total_bytes), ", and ",
                       FormatBytes(reserved), " is reserved, ", FormatBytes(allocated),
                       " of it allocated by tensors; a new segment of ", segment, " bytes would exceed the limit.");
      TORCH_CHECK_WITH(OutOfMemoryError, false, "NPU out of memory. Tried to allocate ", FormatBytes(requested),
                       " (", requested, " bytes) on npu:", static_cast<int>(device), ". npu:",
                       static_cast<int>(device), " has a total capacity of ", FormatBytes(total_bytes), " of which ",
                       FormatBytes(free_bytes), " (", free_bytes, " bytes) is free. ", FormatBytes(allocated),
                       " is allocated by tensors and ", FormatBytes(reserved - allocated),
                       " is reserved by the caching allocator but unallocated. (aclrtMalloc of ", segment,
                       " bytes failed with error code ", err, ": ", acl_message,
                       ") The simulated device size is ASCEND_SIM_MEMORY_MB.");
    }
    auto* block = new Block();
    block->ptr = ptr;
    block->size = segment;
    block->device = device;
    block->stream = stream;
    block->pool = mem_pool;
    block->small = small;
    pool.segments.insert(block);
    ++pool.stats.num_device_alloc;
    Update(pool.stats.segment, small, 1);
    Update(pool.stats.reserved_bytes, small, static_cast<int64_t>(segment));
    Trace("segment_alloc", device, ptr, segment, stream, frames);
    return block;
  }

  void FreeSegment(DevicePool& pool, Block* block) {
    Trace("segment_free", block->device, block->ptr, block->size, block->stream, nullptr);
    pool.segments.erase(block);
    if (block->free_event != nullptr) {
      NPU_CHECK_ACL_WARN(aclrtDestroyEvent(block->free_event));
    }
    NPU_CHECK_ACL_WARN(aclrtFree(block->ptr));
    ++pool.stats.num_device_free;
    Update(pool.stats.segment, block->small, -1);
    Update(pool.stats.reserved_bytes, block->small, -static_cast<int64_t>(block->size));
    delete block;
  }

  // Caches pending blocks whose recorded events have completed. With `wait`,
  // the caller has synchronized the device, so all are complete.
  void ProcessPending(DevicePool& pool, bool wait) {
    if (C10_LIKELY(pool.pending.empty())) {
      return;
    }
    auto done = [wait](PendingBlock& pending) {
      if (!wait && !pending.ordered) {
        return false;
      }
      for (aclrtEvent event : pending.events) {
        aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        if (!wait && (aclrtQueryEventStatus(event, &status) != ACL_SUCCESS ||
                      status != ACL_EVENT_RECORDED_STATUS_COMPLETE)) {
          return false;
        }
      }
      return true;
    };
    std::vector<Block*> ready;
    auto keep = pool.pending.begin();
    for (auto it = pool.pending.begin(); it != pool.pending.end(); ++it) {
      if (done(*it)) {
        for (aclrtEvent event : it->events) {
          NPU_CHECK_ACL_WARN(aclrtDestroyEvent(event));
        }
        ready.push_back(it->block);
      } else {
        *keep++ = std::move(*it);
      }
    }
    pool.pending.erase(keep, pool.pending.end());
    for (Block* block : ready) {
      ReturnToPool(pool, block);
    }
  }

  // Frees every cached block that is a whole segment (after synchronizing the device).
  void ReleaseCached(DevicePool& pool, c10::DeviceIndex device) {
    if (pool.pending.empty() && pool.small_free.empty() && pool.large_free.empty()) {
      return;
    }
    OnDevice(device, [&] {
      // Queued work may still use cached blocks: wait for it before freeing.
      NPU_CHECK_ACL(aclrtSynchronizeDevice());
      ProcessPending(pool, /*wait=*/true);
      // A live private pool keeps its segments.
      ReleaseWholeFreeSegments(pool, device, [&](Block* head) { return Releasable(head); });
      return 0;
    });
  }

  std::mutex mutex_;
  std::array<DevicePool, kMaxDevices> pools_;
  // Private pools (MemPool); ids are never reused.
  PoolId next_pool_ = 1;
  std::set<PoolId> live_pools_;
  // Memory history.
  HistoryMode history_mode_ = HistoryMode::kOff;
  std::atomic<GatherFramesFn> alloc_gather_{nullptr};  // frames of allocations (null: none)
  std::atomic<GatherFramesFn> free_gather_{nullptr};   // frames of frees
  std::vector<TraceEntry> trace_;
  size_t trace_next_ = 0;  // once trace_ is full: the oldest entry, overwritten next
  size_t trace_max_ = 1;
  // caching_allocator_alloc's blocks, by pointer (own lock: freeing takes mutex_).
  std::mutex raw_mutex_;
  std::unordered_map<void*, c10::DataPtr> raw_;
};

// Never destroyed: tensors may be freed during interpreter shutdown.
CachingAllocator& Instance() {
  static auto* instance = new CachingAllocator();
  return *instance;
}

void FreeBlockDeleter(void* ctx) {
  Instance().Free(static_cast<Block*>(ctx));
}

}  // namespace

REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &Instance())

c10::Allocator* get() {
  return &Instance();
}

c10::DataPtr allocate_on(size_t nbytes, c10::DeviceIndex device, NPUStream stream) {
  return Instance().Allocate(nbytes, device, stream.id());
}

void recordStream(const c10::DataPtr& data_ptr, NPUStream stream) {
  Instance().RecordStream(data_ptr, stream);
}

void emptyCache() {
  Instance().EmptyCache();
}

DeviceStats getDeviceStats(c10::DeviceIndex device) {
  check_device_index(device, "getDeviceStats");
  return Instance().Stats(device);
}

void resetPeakStats(c10::DeviceIndex device) {
  check_device_index(device, "resetPeakStats");
  Instance().ResetPeak(device);
}

void resetAccumulatedStats(c10::DeviceIndex device) {
  check_device_index(device, "resetAccumulatedStats");
  Instance().ResetAccumulated(device);
}

void setMemoryFraction(double fraction, c10::DeviceIndex device) {
  check_device_index(device, "set_per_process_memory_fraction");
  TORCH_CHECK(fraction >= 0.0 && fraction <= 1.0, "set_per_process_memory_fraction: fraction must be in [0, 1], got ",
              fraction);
  Instance().SetMemoryFraction(fraction, device);
}

double getMemoryFraction(c10::DeviceIndex device) {
  check_device_index(device, "get_per_process_memory_fraction");
  return Instance().MemoryFraction(device);
}

void* raw_alloc_with_stream(size_t nbytes, c10::DeviceIndex device, NPUStream stream) {
  check_device_index(device, "caching_allocator_alloc");
  TORCH_CHECK(stream.device_index() == device, "caching_allocator_alloc: stream is on npu:",
              static_cast<int>(stream.device_index()), ", the allocation on npu:", static_cast<int>(device));
  return Instance().RawAlloc(nbytes, device, stream.id());
}

void raw_delete(void* ptr) {
  Instance().RawDelete(ptr);
}

PoolId createPool() {
  return Instance().CreatePool();
}

void releasePool(PoolId pool) {
  Instance().ReleasePool(pool);
}

void beginAllocateToPool(c10::DeviceIndex device, PoolId pool) {
  check_device_index(device, "use_mem_pool");
  tls_pools.emplace_back(device, pool);
}

void endAllocateToPool(c10::DeviceIndex device, PoolId pool) {
  auto it = std::find(tls_pools.rbegin(), tls_pools.rend(), std::make_pair(device, pool));
  TORCH_CHECK(it != tls_pools.rend(), "use_mem_pool: pool ", pool, " is not in use on npu:", static_cast<int>(device),
              " by this thread");
  tls_pools.erase(std::next(it).base());
}

void recordHistory(HistoryMode mode, bool free_frames, size_t max_entries, bool clear, GatherFramesFn gather) {
  Instance().RecordHistory(mode, free_frames, max_entries, clear, gather);
}

Snapshot snapshot() {
  return Instance().TakeSnapshot();
}

void copyDeviceToDevice(void* dst, const void* src, size_t nbytes) {
  if (nbytes == 0) {
    return;
  }
  NPU_CHECK_ACL(aclrtMemcpy(dst, nbytes, src, nbytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
}

}  // namespace c10_npu::NPUCachingAllocator
