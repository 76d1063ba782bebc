#include "npu/core/NPUCachingAllocator.h"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <vector>

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/TorchCompat.h"

namespace c10_npu::NPUCachingAllocator {
namespace {

constexpr size_t kSmallRounding = 512;                 // granularity below kLargeThreshold
constexpr size_t kLargeThreshold = size_t(1) << 20;    // 1 MiB
constexpr size_t kLargeRounding = size_t(128) << 10;   // 128 KiB

size_t RoundSize(size_t n) {
  const size_t unit = n < kLargeThreshold ? kSmallRounding : kLargeRounding;
  return (n + unit - 1) / unit * unit;
}

// A cached block is reused for a request only if it wastes at most this much.
size_t MaxReusableSize(size_t rounded) {
  return rounded < kLargeThreshold ? std::max(rounded * 2, kLargeThreshold) : rounded + rounded / 4;
}

struct Block {
  void* ptr = nullptr;
  size_t size = 0;
  c10::DeviceIndex device = 0;
  c10::StreamId stream = 0;
  bool allocated = false;
  std::vector<c10::StreamId> other_streams;  // recordStream: also used there
};

struct PendingBlock {
  Block* block;
  std::vector<aclrtEvent> events;  // one per stream in block->other_streams
};

struct DevicePool {
  std::vector<std::multimap<size_t, Block*>> free_by_stream;  // indexed by stream id
  std::vector<PendingBlock> pending;
  DeviceStats stats;

  std::multimap<size_t, Block*>& FreeList(c10::StreamId stream) {
    if (static_cast<size_t>(stream) >= free_by_stream.size()) {
      free_by_stream.resize(static_cast<size_t>(stream) + 1);
    }
    return free_by_stream[static_cast<size_t>(stream)];
  }
};

void FreeBlockDeleter(void* ctx);

// Runs `fn` with `device` current, restoring the previous device.
template <typename Fn>
auto OnDevice(c10::DeviceIndex device, Fn&& fn) {
  NPUGuard guard(device);
  return fn();
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
    std::lock_guard<std::mutex> lock(mutex_);
    DevicePool& pool = pools_[device];
    ProcessPending(pool, /*wait=*/false);
    Block* block = TakeCached(pool, stream, size);
    if (block == nullptr) {
      block = NewBlock(pool, device, stream, size);
    } else {
      ++pool.stats.num_cache_hits;
    }
    block->allocated = true;
    ++pool.stats.num_allocs;
    pool.stats.allocated_bytes += static_cast<int64_t>(block->size);
    pool.stats.peak_allocated_bytes = std::max(pool.stats.peak_allocated_bytes, pool.stats.allocated_bytes);
    return c10::DataPtr(block->ptr, block, &FreeBlockDeleter, torch_device);
  }

  void Free(Block* block) {
    std::lock_guard<std::mutex> lock(mutex_);
    DevicePool& pool = pools_[block->device];
    block->allocated = false;
    pool.stats.allocated_bytes -= static_cast<int64_t>(block->size);
    if (block->other_streams.empty()) {
      pool.FreeList(block->stream).emplace(block->size, block);
      return;
    }
    PendingBlock pending{block, {}};
    try {
      OnDevice(block->device, [&] {
        for (c10::StreamId other : block->other_streams) {
          aclrtEvent event = nullptr;
          NPU_CHECK_ACL(aclrtCreateEvent(&event));
          pending.events.push_back(event);
          NPU_CHECK_ACL(aclrtRecordEvent(event, NPUStreamForId(block->device, other).stream()));
        }
        return 0;
      });
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

  DeviceStats Stats(c10::DeviceIndex device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return pools_[device].stats;
  }

  void ResetPeak(c10::DeviceIndex device) {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceStats& stats = pools_[device].stats;
    stats.peak_allocated_bytes = stats.allocated_bytes;
    stats.peak_reserved_bytes = stats.reserved_bytes;
  }

 private:
  Block* TakeCached(DevicePool& pool, c10::StreamId stream, size_t size) {
    if (static_cast<size_t>(stream) >= pool.free_by_stream.size()) {
      return nullptr;
    }
    auto& free_list = pool.free_by_stream[static_cast<size_t>(stream)];
    auto it = free_list.lower_bound(size);
    if (it == free_list.end() || it->first > MaxReusableSize(size)) {
      return nullptr;
    }
    Block* block = it->second;
    free_list.erase(it);
    return block;
  }

  Block* NewBlock(DevicePool& pool, c10::DeviceIndex device, c10::StreamId stream, size_t size) {
    void* ptr = nullptr;
    aclError err = OnDevice(device, [&] { return aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_HUGE_FIRST); });
    if (err != ACL_SUCCESS) {
      // Give the cache back to the device and try once more.
      ReleaseCached(pool, device);
      err = OnDevice(device, [&] { return aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_HUGE_FIRST); });
    }
    if (err != ACL_SUCCESS) {
      const std::string message = c10_npu::AclRecentErrorMessage();
      TORCH_CHECK_WITH(OutOfMemoryError, false, "NPU out of memory. Tried to allocate ", size, " bytes on npu:",
                       static_cast<int>(device), " (aclrtMalloc error code ", err, ": ", message, "). ",
                       pool.stats.allocated_bytes, " bytes are allocated by tensors and ",
                       pool.stats.reserved_bytes, " bytes are reserved by the caching allocator.");
    }
    auto* block = new Block();
    block->ptr = ptr;
    block->size = size;
    block->device = device;
    block->stream = stream;
    ++pool.stats.num_device_mallocs;
    pool.stats.reserved_bytes += static_cast<int64_t>(size);
    pool.stats.peak_reserved_bytes = std::max(pool.stats.peak_reserved_bytes, pool.stats.reserved_bytes);
    return block;
  }

  // Moves pending blocks whose recorded events have completed to their free list.
  // With `wait`, the caller has synchronized the device, so all are complete.
  void ProcessPending(DevicePool& pool, bool wait) {
    if (C10_LIKELY(pool.pending.empty())) {
      return;
    }
    auto done = [wait](PendingBlock& pending) {
      for (aclrtEvent event : pending.events) {
        aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        if (!wait && (aclrtQueryEventStatus(event, &status) != ACL_SUCCESS ||
                      status != ACL_EVENT_RECORDED_STATUS_COMPLETE)) {
          return false;
        }
      }
      return true;
    };
    auto keep = pool.pending.begin();
    for (auto it = pool.pending.begin(); it != pool.pending.end(); ++it) {
      if (done(*it)) {
        for (aclrtEvent event : it->events) {
          NPU_CHECK_ACL_WARN(aclrtDestroyEvent(event));
        }
        pool.FreeList(it->block->stream).emplace(it->block->size, it->block);
      } else {
        *keep++ = std::move(*it);
      }
    }
    pool.pending.erase(keep, pool.pending.end());
  }

  void ReleaseCached(DevicePool& pool, c10::DeviceIndex device) {
    bool any = !pool.pending.empty();
    for (const auto& free_list : pool.free_by_stream) {
      any = any || !free_list.empty();
    }
    if (!any) {
      return;
    }
    OnDevice(device, [&] {
      // Queued work may still use cached blocks: wait for it before freeing.
      NPU_CHECK_ACL(aclrtSynchronizeDevice());
      ProcessPending(pool, /*wait=*/true);
      for (auto& free_list : pool.free_by_stream) {
        for (auto& entry : free_list) {
          Block* block = entry.second;
          NPU_CHECK_ACL_WARN(aclrtFree(block->ptr));
          ++pool.stats.num_device_frees;
          pool.stats.reserved_bytes -= static_cast<int64_t>(block->size);
          delete block;
        }
        free_list.clear();
      }
      return 0;
    });
  }

  std::mutex mutex_;
  std::array<DevicePool, kMaxDevices> pools_;
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

void copyDeviceToDevice(void* dst, const void* src, size_t nbytes) {
  if (nbytes == 0) {
    return;
  }
  NPU_CHECK_ACL(aclrtMemcpy(dst, nbytes, src, nbytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
}

}  // namespace c10_npu::NPUCachingAllocator
