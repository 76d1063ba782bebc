#include "npu/core/NPUFunctions.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUException.h"

namespace c10_npu {
namespace {

// CANN's "repeated initialisation" code; another library may have called aclInit.
constexpr aclError kAclErrorRepeatInitialize = 100002;

thread_local c10::DeviceIndex tls_current_device = -1;
std::atomic<bool> g_acl_initialized{false};

}  // namespace

void EnsureAclInitialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    const aclError err = aclInit(nullptr);
    TORCH_CHECK(err == ACL_SUCCESS || err == kAclErrorRepeatInitialize,
                "aclInit(nullptr) failed with error code ", err, ": ", AclRecentErrorMessage());
    g_acl_initialized.store(true, std::memory_order_release);
  });
}

bool AclInitialized() noexcept {
  return g_acl_initialized.load(std::memory_order_acquire);
}

c10::DeviceIndex device_count() noexcept {
  static const c10::DeviceIndex count = []() -> c10::DeviceIndex {
    try {
      EnsureAclInitialized();
      uint32_t n = 0;
      if (aclrtGetDeviceCount(&n) != ACL_SUCCESS) {
        return 0;
      }
      return static_cast<c10::DeviceIndex>(std::min<uint32_t>(n, kMaxDevices));
    } catch (...) {
      return 0;
    }
  }();
  return count;
}

void check_device_index(c10::DeviceIndex device, const char* what) {
  TORCH_CHECK(device >= 0 && device < device_count(), what, ": invalid npu device index ", static_cast<int>(device),
              " (", static_cast<int>(device_count()), " npu devices available)");
}

c10::DeviceIndex current_device() {
  if (C10_LIKELY(tls_current_device >= 0)) {
    return tls_current_device;
  }
  EnsureAclInitialized();
  int32_t device = -1;
  if (aclrtGetDevice(&device) != ACL_SUCCESS || device < 0) {
    device = 0;
    NPU_CHECK_ACL(aclrtSetDevice(device));
  }
  tls_current_device = static_cast<c10::DeviceIndex>(device);
  return tls_current_device;
}

void set_device(c10::DeviceIndex device) {
  if (device == tls_current_device) {
    return;
  }
  check_device_index(device, "set_device");
  NPU_CHECK_ACL(aclrtSetDevice(device));
  tls_current_device = device;
}

void set_device_nothrow(c10::DeviceIndex device) noexcept {
  if (device == tls_current_device) {
    return;
  }
  const aclError err = aclrtSetDevice(device);
  if (err == ACL_SUCCESS) {
    tls_current_device = device;
  } else {
    TORCH_WARN("aclrtSetDevice(", static_cast<int>(device), ") failed with error code ", err, ": ",
               AclRecentErrorMessage());
  }
}

void synchronize_device(c10::DeviceIndex device) {
  const c10::DeviceIndex previous = current_device();
  if (device < 0) {
    device = previous;
  }
  set_device(device);
  const aclError err = aclrtSynchronizeDevice();
  set_device(previous);
  TORCH_CHECK(err == ACL_SUCCESS, "aclrtSynchronizeDevice() on npu:", static_cast<int>(device),
              " failed with error code ", err, ": ", AclRecentErrorMessage());
}

}  // namespace c10_npu
