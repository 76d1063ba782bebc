// Device management: count, current device per thread, process-wide ACL init.
#pragma once

#include <c10/core/Device.h>

namespace c10_npu {

// Upper bound on simulated devices this runtime manages (arrays are sized by it).
constexpr c10::DeviceIndex kMaxDevices = 16;

// Calls aclInit once per process; every entry point that talks to the device
// first goes through here (cheap after the first call).
void EnsureAclInitialized();
// True once aclInit has run in this process (the device was used, from Python or C++).
bool AclInitialized() noexcept;

// Number of devices (aclrtGetDeviceCount), cached after the first call; 0 if the
// runtime cannot be initialised. Never throws.
c10::DeviceIndex device_count() noexcept;

// The calling thread's current device. A thread that never chose one gets
// device 0 (set on first use), as in torch_npu.
c10::DeviceIndex current_device();

// Makes `device` current for the calling thread (aclrtSetDevice when it changes).
void set_device(c10::DeviceIndex device);

// set_device that reports instead of throwing (guard destructors).
void set_device_nothrow(c10::DeviceIndex device) noexcept;

// Raises a TORCH_CHECK naming `what` when `device` is not a valid index.
void check_device_index(c10::DeviceIndex device, const char* what);

// Waits for all work queued on every stream of `device` (-1: current device).
void synchronize_device(c10::DeviceIndex device = -1);

}  // namespace c10_npu
