// aclrtMemcpy*/aclrtMemset*: synchronous and stream-ordered copies.
#include <string.h>

#include <memory>

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/memory.h"
#include "runtime/stream.h"

namespace ascendc_sim {
namespace {

const char* KindName(aclrtMemcpyKind kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
  }
  return "unknown kind";
}

aclError CheckHostSide(const void* ptr, const char* api, const char* what, aclrtMemcpyKind kind) {
  if (ptr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: %s is a null pointer", api, what);
  Allocation a;
  if (FindAllocation(ptr, &a)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: %s (%p) is device memory of device %d but kind is %s", api, what,
                      ptr, a.device, KindName(kind));
  }
  return ACL_SUCCESS;
}

// Validates a copy; the devices that own either side go to dstDevice/srcDevice (-1: host).
aclError CheckCopy(const char* api, void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                   int32_t* dstDevice, int32_t* srcDevice) {
  *dstDevice = -1;
  *srcDevice = -1;
  if (count > destMax) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: count %zu is larger than destMax %zu", api, count, destMax);
  }
  if (count == 0) return ACL_SUCCESS;  // empty tensors may have null pointers
  const bool dstOnDevice = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  const bool srcOnDevice = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEVICE_TO_DEVICE) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: unknown memcpy kind %d", api, static_cast<int>(kind));
  }
  aclError rc = dstOnDevice ? CheckDeviceRange(dst, count, api, "dst", dstDevice) : CheckHostSide(dst, api, "dst", kind);
  if (rc != ACL_SUCCESS) return rc;
  rc = srcOnDevice ? CheckDeviceRange(src, count, api, "src", srcDevice) : CheckHostSide(src, api, "src", kind);
  return rc;
}

class MemcpyTask final : public Task {
 public:
  MemcpyTask(void* dst, const void* src, size_t count) : dst_(dst), src_(src), count_(count) {}
  aclError Run(Stream&, std::string*) override {
    memmove(dst_, src_, count_);
    return ACL_SUCCESS;
  }

 private:
  void* dst_;
  const void* src_;
  size_t count_;
};

class MemsetTask final : public Task {
 public:
  MemsetTask(void* dst, int value, size_t count) : dst_(dst), value_(value), count_(count) {}
  aclError Run(Stream&, std::string*) override {
    memset(dst_, value_, count_);
    return ACL_SUCCESS;
  }

 private:
  void* dst_;
  int value_;
  size_t count_;
};

void WaitDevice(int32_t device) {
  if (device >= 0) FindDevice(device)->WaitIdle();
}

}  // namespace
}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

extern "C" {

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  int32_t dstDevice, srcDevice;
  aclError rc = ascendc_sim::CheckCopy("aclrtMemcpy", dst, destMax, src, count, kind, &dstDevice, &srcDevice);
  if (rc != ACL_SUCCESS) return rc;
  ascendc_sim::WaitDevice(dstDevice);
  if (srcDevice != dstDevice) ascendc_sim::WaitDevice(srcDevice);
  if (count != 0) memmove(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  int32_t dstDevice, srcDevice;
  aclError rc = ascendc_sim::CheckCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind, &dstDevice, &srcDevice);
  if (rc != ACL_SUCCESS) return rc;
  ascendc_sim::Stream* target = nullptr;
  rc = ascendc_sim::ResolveStream(stream, "aclrtMemcpyAsync", &target);
  if (rc != ACL_SUCCESS) return rc;
  if (count == 0) return ACL_SUCCESS;
  return target->Submit(std::make_unique<ascendc_sim::MemcpyTask>(dst, src, count));
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (count > maxCount) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count %zu is larger than maxCount %zu", count, maxCount);
  }
  if (count == 0) return ACL_SUCCESS;
  int32_t device = -1;
  aclError rc = ascendc_sim::CheckDeviceRange(devPtr, count, "aclrtMemset", "devPtr", &device);
  if (rc != ACL_SUCCESS) return rc;
  ascendc_sim::WaitDevice(device);
  memset(devPtr, value, count);
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  if (count > maxCount) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtMemsetAsync: count %zu is larger than maxCount %zu", count,
                      maxCount);
  }
  if (count == 0) return ACL_SUCCESS;
  aclError rc = ascendc_sim::CheckDeviceRange(devPtr, count, "aclrtMemsetAsync", "devPtr", nullptr);
  if (rc != ACL_SUCCESS) return rc;
  ascendc_sim::Stream* target = nullptr;
  rc = ascendc_sim::ResolveStream(stream, "aclrtMemsetAsync", &target);
  if (rc != ACL_SUCCESS) return rc;
  return target->Submit(std::make_unique<ascendc_sim::MemsetTask>(devPtr, value, count));
}

}  // extern "C"
