// aclrtMalloc/aclrtFree and friends: device memory with ownership tracking.
#include "runtime/memory.h"

#include <stdlib.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/stream.h"
#include "runtime/virtual_memory.h"

namespace ascendc_sim {
namespace {

// Device allocations are aligned like CANN's (512 bytes).
constexpr size_t kDeviceAlignment = 512;

class AllocationTable {
 public:
  void Insert(const Allocation& a) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    byBase_[a.base] = a;
  }

  bool Find(const void* ptr, Allocation* out) const {
    const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    std::shared_lock<std::shared_mutex> lock(mu_);
    auto it = byBase_.upper_bound(p);
    if (it == byBase_.begin()) return false;
    --it;
    if (p >= it->second.base + it->second.size && !(it->second.size == 0 && p == it->second.base)) return false;
    if (out != nullptr) *out = it->second;
    return true;
  }

  // Removes the allocation starting exactly at `ptr`.
  bool Erase(const void* ptr, Allocation* out) {
    const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    std::unique_lock<std::shared_mutex> lock(mu_);
    auto it = byBase_.find(p);
    if (it == byBase_.end()) return false;
    *out = it->second;
    byBase_.erase(it);
    return true;
  }

 private:
  mutable std::shared_mutex mu_;
  std::map<uintptr_t, Allocation> byBase_;
};

AllocationTable& Table() {
  static AllocationTable* table = new AllocationTable();  // outlives static destruction
  return *table;
}

std::mutex& HostMu() {
  static std::mutex* mu = new std::mutex();
  return *mu;
}

std::set<void*>& HostAllocations() {
  static std::set<void*>* set = new std::set<void*>();
  return *set;
}

// Memory given back with aclrtFree while streams of its device still had queued work.
// It leaves the allocation table at once (the pointer is dead for every later call), but
// its bytes are released only when each of those streams has run everything queued before
// the free, because that work may still read or write them. The host does not wait.
struct DeferredFree {
  void* ptr;
  std::vector<std::pair<std::shared_ptr<Stream>, uint64_t>> pending;  // stream, last task before the free
};

std::mutex& DeferredMu() {
  static std::mutex* mu = new std::mutex();
  return *mu;
}

std::vector<DeferredFree>& Deferred() {
  static std::vector<DeferredFree>* deferred = new std::vector<DeferredFree>();
  return *deferred;
}

bool Reached(const DeferredFree& d) {
  for (const auto& [stream, seq] : d.pending) {
    if (!stream->IsComplete(seq)) return false;
  }
  return true;
}

// Releases the deferred frees whose streams have passed them.
void ReapDeferredFrees() {
  std::lock_guard<std::mutex> lock(DeferredMu());
  auto& deferred = Deferred();
  for (auto it = deferred.begin(); it != deferred.end();) {
    if (Reached(*it)) {
      free(it->ptr);
      it = deferred.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace

bool FindAllocation(const void* ptr, Allocation* out) { return Table().Find(ptr, out) || FindMappedRange(ptr, out); }

aclError CheckDeviceRange(const void* ptr, size_t bytes, const char* api, const char* what, int32_t* device) {
  Allocation a;
  if (ptr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: %s is a null pointer", api, what);
  if (!FindAllocation(ptr, &a)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: %s (%p) is not device memory (not allocated by aclrtMalloc)", api,
                      what, ptr);
  }
  const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  if (bytes > a.size - (p - a.base)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM,
                      "%s: %s (%p) + %zu bytes runs past the end of its device allocation (%p, %zu bytes)", api, what,
                      ptr, bytes, reinterpret_cast<void*>(a.base), a.size);
  }
  if (device != nullptr) *device = a.device;
  return ACL_SUCCESS;
}

aclError AllocateDeviceMemory(int32_t deviceId, size_t size, const char* api, void** out) {
  ReapDeferredFrees();
  Device* device = FindDevice(deviceId);
  if (device == nullptr) return RaiseError(ACL_ERROR_INVALID_DEVICE, "%s: device %d does not exist", api, deviceId);
  const size_t rounded = (size + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment;
  if (!device->ReserveMemory(rounded)) {
    return RaiseError(ACL_ERROR_RT_MEMORY_ALLOCATION,
                      "%s: out of memory on device %d: requested %zu bytes, %llu of %llu bytes free "
                      "(ASCEND_SIM_MEMORY_MB sets the size)",
                      api, deviceId, size,
                      static_cast<unsigned long long>(device->TotalMemory() - device->UsedMemory()),
                      static_cast<unsigned long long>(device->TotalMemory()));
  }
  void* p = aligned_alloc(kDeviceAlignment, rounded);
  if (p == nullptr) {
    device->ReleaseMemory(rounded);
    return RaiseError(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: host allocation of %zu bytes for device %d failed", api,
                      size, deviceId);
  }
  Allocation a;
  a.base = reinterpret_cast<uintptr_t>(p);
  a.size = rounded;
  a.device = deviceId;
  Table().Insert(a);
  *out = p;
  return ACL_SUCCESS;
}

aclError FreeDeviceMemory(void* ptr, bool keepForQueuedWork, const char* api) {
  if (ptr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", api);
  Allocation a;
  if (!Table().Find(ptr, &a)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM,
                      "%s: %p is not a live device allocation (double free, or memory not from aclrtMalloc)", api, ptr);
  }
  if (a.base != reinterpret_cast<uintptr_t>(ptr)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: %p points inside the allocation at %p, not at its start", api, ptr,
                      reinterpret_cast<void*>(a.base));
  }
  // Queued work that may still use the memory keeps its bytes alive (see DeferredFree).
  DeferredFree deferred{ptr, {}};
  if (keepForQueuedWork) {
    for (const auto& stream : FindDevice(a.device)->Streams()) {
      const uint64_t last = stream->LastSequence();
      if (!stream->IsComplete(last)) deferred.pending.emplace_back(stream, last);
    }
  }
  if (!Table().Erase(ptr, &a)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: %p was freed concurrently (double free)", api, ptr);
  }
  FindDevice(a.device)->ReleaseMemory(a.size);
  if (deferred.pending.empty()) {
    free(ptr);
  } else {
    std::lock_guard<std::mutex> lock(DeferredMu());
    Deferred().push_back(std::move(deferred));
  }
  ReapDeferredFrees();
  return ACL_SUCCESS;
}

namespace {

class FreeTask final : public Task {
 public:
  explicit FreeTask(void* ptr) : ptr_(ptr) {}
  aclError Run(Stream&, std::string* message) override {
    const aclError rc = FreeDeviceMemory(ptr_, false, "stream-ordered free");
    if (rc != ACL_SUCCESS) *message = aclGetRecentErrMsg();
    return rc;
  }

 private:
  void* ptr_;
};

}  // namespace

aclError FreeDeviceMemoryAsync(void* ptr, aclrtStream stream) {
  Stream* target = nullptr;
  const aclError rc = ResolveStream(stream, "FreeDeviceMemoryAsync", &target);
  if (rc != ACL_SUCCESS) return rc;
  return target->Submit(std::make_unique<FreeTask>(ptr));
}

}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;  // one page size on the simulator
  if (devPtr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
  if (size == 0) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be greater than 0");
  return ascendc_sim::AllocateDeviceMemory(ascendc_sim::CurrentDeviceId(), size, "aclrtMalloc", devPtr);
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;
  if (devPtr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMallocAlign32: devPtr is null");
  if (size == 0) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMallocAlign32: size must be greater than 0");
  return ascendc_sim::AllocateDeviceMemory(ascendc_sim::CurrentDeviceId(), size, "aclrtMallocAlign32", devPtr);
}

aclError aclrtFree(void* devPtr) { return ascendc_sim::FreeDeviceMemory(devPtr, true, "aclrtFree"); }

int32_t aclrtPointerGetDevice(const void* ptr) {
  ascendc_sim::Allocation a;
  return ascendc_sim::FindAllocation(ptr, &a) ? a.device : -1;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  if (hostPtr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is null");
  if (size == 0) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size must be greater than 0");
  void* p = aligned_alloc(64, (size + 63) / 64 * 64);
  if (p == nullptr) {
    return RaiseError(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: allocation of %zu bytes failed", size);
  }
  std::lock_guard<std::mutex> lock(ascendc_sim::HostMu());
  ascendc_sim::HostAllocations().insert(p);
  *hostPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  {
    std::lock_guard<std::mutex> lock(ascendc_sim::HostMu());
    if (ascendc_sim::HostAllocations().erase(hostPtr) == 0) {
      return RaiseError(ACL_ERROR_INVALID_PARAM,
                        "aclrtFreeHost: %p was not allocated by aclrtMallocHost (or was already freed)", hostPtr);
    }
  }
  free(hostPtr);
  return ACL_SUCCESS;
}

}  // extern "C"
