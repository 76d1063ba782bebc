// Virtual device memory, as torch_npu's expandable segments use it: an address range reserved
// without memory (aclrtReserveMemAddress), physical memory of a device (aclrtMallocPhysical, counted
// against the device's memory) and the mapping of the one into the other (aclrtMapMem). On the
// simulator a reservation is an inaccessible host mapping, physical memory a memory file, and a
// mapping that file mapped over the reservation; mapped runs are device memory to every other API
// (kernels, copies, aclrtPointerGetDevice), and a run of adjacent mappings is one range.
#include "runtime/virtual_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"

using ascendc_sim::RaiseError;

namespace ascendc_sim {
namespace {

struct PhysicalMemory {
  int fd = -1;
  size_t size = 0;
  int32_t device = -1;
  int mappings = 0;
};

struct Mapping {
  size_t size = 0;
  PhysicalMemory* physical = nullptr;
};

struct Reservation {
  size_t size = 0;
  int32_t device = -1;
  std::map<uintptr_t, Mapping> mappings;  // by start address
};

class VirtualMemory {
 public:
  std::mutex mu;
  std::map<uintptr_t, Reservation> reservations;  // by start address
  std::set<PhysicalMemory*> physical;

  // The reservation containing [p, p + bytes), or null.
  Reservation* Containing(uintptr_t p, size_t bytes, uintptr_t* base) {
    auto it = reservations.upper_bound(p);
    if (it == reservations.begin()) return nullptr;
    --it;
    if (p < it->first || bytes > it->second.size || p - it->first > it->second.size - bytes) return nullptr;
    *base = it->first;
    return &it->second;
  }
};

VirtualMemory& Memory() {
  static VirtualMemory* memory = new VirtualMemory();  // lives as long as the process
  return *memory;
}

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

bool FindMappedRange(const void* ptr, Allocation* out) {
  const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  VirtualMemory& memory = Memory();
  std::lock_guard<std::mutex> lock(memory.mu);
  uintptr_t base = 0;
  Reservation* reservation = memory.Containing(p, 1, &base);
  if (reservation == nullptr) return false;
  auto& maps = reservation->mappings;
  auto it = maps.upper_bound(p);
  if (it == maps.begin()) return false;
  --it;
  if (p >= it->first + it->second.size) return false;
  // Widen to the run of adjacent mappings around it.
  auto first = it;
  while (first != maps.begin()) {
    auto before = std::prev(first);
    if (before->first + before->second.size != first->first) break;
    first = before;
  }
  auto last = it;
  for (auto next = std::next(last); next != maps.end() && last->first + last->second.size == next->first; ++next) {
    last = next;
  }
  if (out != nullptr) {
    out->base = first->first;
    out->size = last->first + last->second.size - first->first;
    out->device = reservation->device;
  }
  return true;
}

}  // namespace ascendc_sim

extern "C" {

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) {
  if (virPtr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: virPtr is null");
  if (size == 0) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: size must be greater than 0");
  if (expectPtr != nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: expectPtr must be null, got %p", expectPtr);
  }
  if (flags > 1) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: unknown flags %llu",
                                   static_cast<unsigned long long>(flags));
  const size_t page = ascendc_sim::PageSize();
  const size_t align = alignment > page ? alignment : page;
  if ((align & (align - 1)) != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: alignment %zu is not a power of two", alignment);
  }
  const size_t rounded = (size + page - 1) / page * page;
  // Reserve extra to align the start, then give the extra back.
  void* raw = mmap(nullptr, rounded + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) {
    return RaiseError(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtReserveMemAddress: cannot reserve %zu bytes of addresses",
                      size);
  }
  const uintptr_t start = (reinterpret_cast<uintptr_t>(raw) + align - 1) / align * align;
  const size_t head = start - reinterpret_cast<uintptr_t>(raw);
  if (head != 0) munmap(raw, head);
  if (align - head != 0) munmap(reinterpret_cast<void*>(start + rounded), align - head);
  ascendc_sim::VirtualMemory& memory = ascendc_sim::Memory();
  std::lock_guard<std::mutex> lock(memory.mu);
  ascendc_sim::Reservation& reservation = memory.reservations[start];
  reservation.size = rounded;
  reservation.device = ascendc_sim::CurrentDeviceId();
  *virPtr = reinterpret_cast<void*>(start);
  return ACL_SUCCESS;
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  ascendc_sim::VirtualMemory& memory = ascendc_sim::Memory();
  std::lock_guard<std::mutex> lock(memory.mu);
  auto it = memory.reservations.find(reinterpret_cast<uintptr_t>(virPtr));
  if (it == memory.reservations.end()) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress: %p is not the start of a reservation", virPtr);
  }
  if (!it->second.mappings.empty()) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress: %zu mappings of the reservation at %p remain",
                      it->second.mappings.size(), virPtr);
  }
  munmap(virPtr, it->second.size);
  memory.reservations.erase(it);
  return ACL_SUCCESS;
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop,
                             uint64_t flags) {
  if (handle == nullptr || prop == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: %s is null", handle == nullptr ? "handle" : "prop");
  }
  if (size == 0 || flags != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: size must be greater than 0 and flags 0");
  }
  if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE || prop->handleType != ACL_MEM_HANDLE_TYPE_NONE) {
    return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED,
                      "aclrtMallocPhysical: the simulator allocates device memory with no shareable handle only");
  }
  const int32_t deviceId = static_cast<int32_t>(prop->location.id);
  ascendc_sim::Device* device = ascendc_sim::FindDevice(deviceId);
  if (device == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_DEVICE, "aclrtMallocPhysical: device %d does not exist", deviceId);
  }
  const size_t page = ascendc_sim::PageSize();
  const size_t rounded = (size + page - 1) / page * page;
  if (!device->ReserveMemory(rounded)) {
    return RaiseError(ACL_ERROR_RT_MEMORY_ALLOCATION,
                      "aclrtMallocPhysical: out of memory on device %d: requested %zu bytes, %llu of %llu bytes free",
                      deviceId, size, static_cast<unsigned long long>(device->TotalMemory() - device->UsedMemory()),
                      static_cast<unsigned long long>(device->TotalMemory()));
  }
  const int fd = memfd_create("ascendc-sim-physical", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(rounded)) != 0) {
    if (fd >= 0) close(fd);
    device->ReleaseMemory(rounded);
    return RaiseError(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocPhysical: no host memory for %zu bytes", size);
  }
  auto physical = std::make_unique<ascendc_sim::PhysicalMemory>();
  physical->fd = fd;
  physical->size = rounded;
  physical->device = deviceId;
  ascendc_sim::VirtualMemory& memory = ascendc_sim::Memory();
  std::lock_guard<std::mutex> lock(memory.mu);
  *handle = physical.get();
  memory.physical.insert(physical.release());
  return ACL_SUCCESS;
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  auto* physical = static_cast<ascendc_sim::PhysicalMemory*>(handle);
  ascendc_sim::VirtualMemory& memory = ascendc_sim::Memory();
  std::lock_guard<std::mutex> lock(memory.mu);
  if (memory.physical.count(physical) == 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical: %p is not a live physical memory handle", handle);
  }
  if (physical->mappings != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical: %p is still mapped (%d mappings)", handle,
                      physical->mappings);
  }
  memory.physical.erase(physical);
  close(physical->fd);
  ascendc_sim::FindDevice(physical->device)->ReleaseMemory(physical->size);
  delete physical;
  return ACL_SUCCESS;
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  auto* physical = static_cast<ascendc_sim::PhysicalMemory*>(handle);
  const uintptr_t p = reinterpret_cast<uintptr_t>(virPtr);
  const size_t page = ascendc_sim::PageSize();
  ascendc_sim::VirtualMemory& memory = ascendc_sim::Memory();
  std::lock_guard<std::mutex> lock(memory.mu);
  if (memory.physical.count(physical) == 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMapMem: %p is not a live physical memory handle", handle);
  }
  if (flags != 0 || size == 0 || p % page != 0 || size % page != 0 || offset % page != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM,
                      "aclrtMapMem: address %p, size %zu and offset %zu must be page multiples, size nonzero, flags 0",
                      virPtr, size, offset);
  }
  if (offset > physical->size || size > physical->size - offset) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMapMem: offset %zu + size %zu is beyond the %zu bytes of %p",
                      offset, size, physical->size, handle);
  }
  uintptr_t base = 0;
  ascendc_sim::Reservation* reservation = memory.Containing(p, size, &base);
  if (reservation == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMapMem: [%p, +%zu) is not inside one reservation", virPtr, size);
  }
  auto& maps = reservation->mappings;
  auto next = maps.lower_bound(p);
  const bool overlapsNext = next != maps.end() && next->first < p + size;
  const bool overlapsPrevious = next != maps.begin() && std::prev(next)->first + std::prev(next)->second.size > p;
  if (overlapsNext || overlapsPrevious) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMapMem: [%p, +%zu) overlaps a mapping", virPtr, size);
  }
  if (mmap(virPtr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, physical->fd, static_cast<off_t>(offset)) ==
      MAP_FAILED) {
    return RaiseError(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMapMem: mapping %zu bytes at %p failed", size, virPtr);
  }
  maps[p] = ascendc_sim::Mapping{size, physical};
  ++physical->mappings;
  return ACL_SUCCESS;
}

aclError aclrtUnmapMem(void* virPtr) {
  const uintptr_t p = reinterpret_cast<uintptr_t>(virPtr);
  ascendc_sim::VirtualMemory& memory = ascendc_sim::Memory();
  int32_t device = -1;
  {
    std::lock_guard<std::mutex> lock(memory.mu);
    uintptr_t base = 0;
    ascendc_sim::Reservation* reservation = memory.Containing(p, 1, &base);
    if (reservation != nullptr && reservation->mappings.count(p) != 0) device = reservation->device;
  }
  if (device < 0) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem: %p is not the start of a mapping", virPtr);
  // Work queued on the device may still use the mapping: let it finish first (without the lock,
  // which that work may need).
  ascendc_sim::FindDevice(device)->WaitIdle();
  std::lock_guard<std::mutex> lock(memory.mu);
  uintptr_t base = 0;
  ascendc_sim::Reservation* reservation = memory.Containing(p, 1, &base);
  auto it = reservation != nullptr ? reservation->mappings.find(p) : std::map<uintptr_t, ascendc_sim::Mapping>::iterator();
  if (reservation == nullptr || it == reservation->mappings.end()) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem: %p was unmapped concurrently", virPtr);
  }
  // Back to an inaccessible part of the reservation.
  mmap(virPtr, it->second.size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  --it->second.physical->mappings;
  reservation->mappings.erase(it);
  return ACL_SUCCESS;
}

}  // extern "C"
