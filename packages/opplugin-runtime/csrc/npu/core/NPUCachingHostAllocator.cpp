#include "npu/core/NPUCachingHostAllocator.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_set>
#include <vector>

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/TorchCompat.h"

namespace c10_npu::NPUCachingHostAllocator {

void DurationStat::add(int64_t us) {
  min = count == 0 ? us : std::min(min, us);
  max = std::max(max, us);
  total += us;
  ++count;
}

namespace {

constexpr size_t kMinBlockBytes = 512;

size_t RoundSize(size_t nbytes) {
  size_t size = kMinBlockBytes;
  while (size < nbytes) {
    size <<= 1;
  }
  return size;
}

struct Block {
  void* ptr = nullptr;
  size_t size = 0;
  bool held = false;                // handed out, its DataPtr alive
  std::vector<aclrtEvent> events;   // recorded after the queued copies that use the block
};

int64_t MicrosecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
}

bool EventCompleted(aclrtEvent event) {
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  // A failed query counts as not completed: the block stays out of reuse rather than risk a race.
  return aclrtQueryEventStatus(event, &status) == ACL_SUCCESS && status == ACL_EVENT_RECORDED_STATUS_COMPLETE;
}

// Destroys the completed events of `block`; true when none is left.
bool PruneEvents(Block* block) {
  auto still_queued = std::remove_if(block->events.begin(), block->events.end(), [](aclrtEvent event) {
    if (!EventCompleted(event)) {
      return false;
    }
    NPU_CHECK_ACL_WARN(aclrtDestroyEvent(event));
    return true;
  });
  block->events.erase(still_queued, block->events.end());
  return block->events.empty();
}

void RawDelete(void* ctx);

class HostAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t nbytes) NPU_ALLOCATOR_CONST override {
    if (nbytes == 0) {
      return {nullptr, nullptr, &RawDelete, c10::Device(c10::kCPU)};
    }
    c10_npu::EnsureAclInitialized();
    Block* block = Take(RoundSize(nbytes));
    return {block->ptr, block, &RawDelete, c10::Device(c10::kCPU)};
  }

  c10::DeleterFnPtr raw_deleter() const override { return &RawDelete; }

#if NPU_ALLOCATOR_HAS_COPY_DATA
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    std::memcpy(dest, src, count);
  }
#endif

  void Release(void* ctx) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.find(static_cast<Block*>(ctx));
    TORCH_INTERNAL_ASSERT(it != blocks_.end() && (*it)->held, "pinned memory: freeing a block twice");
    Block* block = *it;
    block->held = false;
    if (PruneEvents(block)) {
      MakeReusable(block);
    } else {
      pending_.push_back(block);
    }
  }

  bool IsPinned(const void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_address_.upper_bound(static_cast<const char*>(ptr));
    if (it == by_address_.begin()) {
      return false;
    }
    --it;
    return static_cast<const char*>(ptr) < it->first + it->second->size;
  }

  bool RecordEvent(void* ctx, c10_npu::NPUStream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.find(static_cast<Block*>(ctx));
    if (it == blocks_.end()) {
      return false;
    }
    Block* block = *it;
    PruneEvents(block);  // a buffer copied again and again keeps one event per copy in flight, not per copy ever
    c10_npu::NPUGuard guard(stream.device_index());
    aclrtEvent event = nullptr;
    NPU_CHECK_ACL(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
    aclError rc = aclrtRecordEvent(event, stream.stream());
    if (rc != ACL_SUCCESS) {
      NPU_CHECK_ACL_WARN(aclrtDestroyEvent(event));
      NPU_CHECK_ACL(rc);
    }
    block->events.push_back(event);
    return true;
  }

  void EmptyCache() {
    std::lock_guard<std::mutex> lock(mutex_);
    ProcessPending();
    for (auto& [size, free_blocks] : free_) {
      for (Block* block : free_blocks) {
        FreeBlock(block);
      }
      free_blocks.clear();
    }
  }

  HostStats Stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

  void ResetPeak() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (NPUCachingAllocator::Stat* stat : StatList()) {
      stat->peak = stat->current;
    }
  }

  void ResetAccumulated() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (NPUCachingAllocator::Stat* stat : StatList()) {
      stat->allocated = 0;
      stat->freed = 0;
    }
    stats_.num_host_alloc = 0;
    stats_.num_host_free = 0;
    stats_.host_alloc_time = {};
    stats_.host_free_time = {};
  }

 private:
  std::vector<NPUCachingAllocator::Stat*> StatList() {
    return {&stats_.allocations, &stats_.allocated_bytes, &stats_.active_requests, &stats_.active_bytes};
  }

  Block* Take(size_t size) NPU_ALLOCATOR_CONST {
    std::lock_guard<std::mutex> lock(mutex_);
    ProcessPending();
    auto& cached = free_[size];
    Block* block = nullptr;
    if (!cached.empty()) {
      block = cached.back();
      cached.pop_back();
    } else {
      block = NewBlock(size);
    }
    block->held = true;
    stats_.active_requests.increase(1);
    stats_.active_bytes.increase(static_cast<int64_t>(block->size));
    return block;
  }

  Block* NewBlock(size_t size) NPU_ALLOCATOR_CONST {
    void* ptr = nullptr;
    auto start = std::chrono::steady_clock::now();
    aclError rc = aclrtMallocHost(&ptr, size);
    if (rc != ACL_SUCCESS) {
      // What the cache holds may be what stands in the way: return it and try once more.
      for (auto& [cached_size, free_blocks] : free_) {
        for (Block* cached : free_blocks) {
          FreeBlock(cached);
        }
        free_blocks.clear();
      }
      start = std::chrono::steady_clock::now();
      rc = aclrtMallocHost(&ptr, size);
    }
    TORCH_CHECK_WITH(OutOfMemoryError, rc == ACL_SUCCESS, "pin_memory: aclrtMallocHost could not allocate ", size,
                     " bytes of pinned host memory: ", c10_npu::AclRecentErrorMessage());
    stats_.host_alloc_time.add(MicrosecondsSince(start));
    ++stats_.num_host_alloc;
    auto* block = new Block{ptr, size, false, {}};
    blocks_.insert(block);
    by_address_.emplace(static_cast<const char*>(ptr), block);
    stats_.allocations.increase(1);
    stats_.allocated_bytes.increase(static_cast<int64_t>(size));
    return block;
  }

  void FreeBlock(Block* block) NPU_ALLOCATOR_CONST {
    auto start = std::chrono::steady_clock::now();
    NPU_CHECK_ACL_WARN(aclrtFreeHost(block->ptr));
    stats_.host_free_time.add(MicrosecondsSince(start));
    ++stats_.num_host_free;
    stats_.allocations.decrease(1);
    stats_.allocated_bytes.decrease(static_cast<int64_t>(block->size));
    by_address_.erase(static_cast<const char*>(block->ptr));
    blocks_.erase(block);
    delete block;
  }

  // Pending blocks whose copies have all completed become reusable.
  void ProcessPending() NPU_ALLOCATOR_CONST {
    auto still_pending = std::remove_if(pending_.begin(), pending_.end(), [this](Block* block) {
      if (!PruneEvents(block)) {
        return false;
      }
      MakeReusable(block);
      return true;
    });
    pending_.erase(still_pending, pending_.end());
  }

  void MakeReusable(Block* block) NPU_ALLOCATOR_CONST {
    stats_.active_requests.decrease(1);
    stats_.active_bytes.decrease(static_cast<int64_t>(block->size));
    free_[block->size].push_back(block);
  }

  // Mutable: c10::Allocator::allocate is const in the older torch releases.
  mutable std::mutex mutex_;
  mutable std::unordered_set<Block*> blocks_;                // every live block
  mutable std::map<const char*, Block*> by_address_;         // the same, by base address
  mutable std::map<size_t, std::vector<Block*>> free_;       // reusable blocks by size
  mutable std::vector<Block*> pending_;                      // freed, with copies still queued
  mutable HostStats stats_;
};

HostAllocator& Instance() {
  // Never destroyed: tensors freed during interpreter shutdown still return their blocks.
  static auto* allocator = new HostAllocator();
  return *allocator;
}

void RawDelete(void* ctx) {
  if (ctx != nullptr) {
    Instance().Release(ctx);
  }
}

}  // namespace

c10::Allocator* get() { return &Instance(); }

bool isPinned(const void* ptr) { return ptr != nullptr && Instance().IsPinned(ptr); }

bool recordEvent(void* ctx, c10_npu::NPUStream stream) { return ctx != nullptr && Instance().RecordEvent(ctx, stream); }

void emptyCache() { Instance().EmptyCache(); }

HostStats getStats() { return Instance().Stats(); }

void resetPeakStats() { Instance().ResetPeak(); }

void resetAccumulatedStats() { Instance().ResetAccumulated(); }

}  // namespace c10_npu::NPUCachingHostAllocator
