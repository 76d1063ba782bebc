// libascend_hal.so: the part of the NPU driver's interface (CANN's ascend_hal.h) that clients ask
// about the device directly. torch_npu asks it whether the device's system counter can time host
// events: the simulator has no such counter, so the counter's frequency is "not supported", and
// clients time with the host's monotonic clock instead.
#include <stdint.h>

#include "acl/acl_rt.h"
#include "common/error.h"

namespace {

// drvError_t values of CANN's driver.
constexpr int32_t kDrvErrorNone = 0;
constexpr int32_t kDrvErrorInvalidDevice = 2;
constexpr int32_t kDrvErrorInvalidValue = 3;
constexpr int32_t kDrvErrorNotSupport = 0xfffe;

// The driver interface version the simulator implements (halGetAPIVersion's encoding).
constexpr int32_t kDriverApiVersion = 0x071905;

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY int32_t halGetAPIVersion(int32_t* version) {
  if (version == nullptr) return kDrvErrorInvalidValue;
  *version = kDriverApiVersion;
  return kDrvErrorNone;
}

// Every module and information type (the system counter's frequency among them) is "not
// supported": the simulator's devices are described through aclGetDeviceCapability instead.
ACL_FUNC_VISIBILITY int32_t halGetDeviceInfo(uint32_t devId, int32_t moduleType, int32_t infoType, int64_t* value) {
  if (value == nullptr) return kDrvErrorInvalidValue;
  uint32_t devices = 0;
  if (aclrtGetDeviceCount(&devices) != ACL_SUCCESS || devId >= devices) return kDrvErrorInvalidDevice;
  ascendc_sim::RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED,
                          "halGetDeviceInfo(module %d, info %d) is not supported by the simulator", moduleType,
                          infoType);
  return kDrvErrorNotSupport;
}

}  // extern "C"
