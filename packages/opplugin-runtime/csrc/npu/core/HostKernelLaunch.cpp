#include "npu/core/HostKernelLaunch.h"

#include <exception>
#include <string>

#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUStream.h"

namespace {

thread_local std::string tls_launch_error;

const char* Fail(void* ctx, aclsimCtxDestroyFn destroy, std::string message) {
  if (destroy != nullptr) destroy(ctx);
  tls_launch_error = std::move(message);
  return tls_launch_error.c_str();
}

}  // namespace

extern "C" const char* NpuLaunchHostKernel(const char* kernelName, int device, uint32_t blockDim, aclsimBlockFn fn,
                                           void* ctx, aclsimCtxDestroyFn destroy) {
  const char* name = kernelName != nullptr ? kernelName : "host_kernel";
  if (fn == nullptr || blockDim == 0) {
    return Fail(ctx, destroy,
                std::string("launch of host kernel '") + name + "': " +
                    (fn == nullptr ? "the kernel function is null" : "blockDim must be at least 1"));
  }
  aclrtStream stream = nullptr;
  try {
    c10::DeviceIndex index = static_cast<c10::DeviceIndex>(device);
    if (device < 0) {
      index = c10_npu::current_device();
    } else {
      c10_npu::check_device_index(index, "launch of a host kernel");
    }
    stream = c10_npu::getCurrentNPUStream(index).stream();
  } catch (const std::exception& e) {
    return Fail(ctx, destroy, std::string("launch of host kernel '") + name + "': " + e.what());
  }
  // aclsimLaunchKernel owns ctx from here on, refused or not.
  const aclError rc = aclsimLaunchKernel(name, blockDim, stream, fn, ctx, destroy);
  if (rc != ACL_SUCCESS) {
    tls_launch_error = std::string("launch of host kernel '") + name + "' failed with error code " +
                       std::to_string(rc) + ": " + c10_npu::AclRecentErrorMessage();
    return tls_launch_error.c_str();
  }
  return nullptr;
}
