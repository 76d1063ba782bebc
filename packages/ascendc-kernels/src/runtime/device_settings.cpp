// Settings a client makes on the toolkit at start-up: the overflow mode, stream overflow
// detection, kernel execution time limits, context system parameters and what the toolkit
// supports (aclGetCannAttribute). Each either holds on the simulator or is refused with CANN's
// "not supported" status.
#include <atomic>
#include <mutex>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/device_settings.h"

using ascendc_sim::RaiseError;

namespace ascendc_sim {
namespace {

// 0: no limit. CANN's default limit is longer than any kernel of the simulator runs.
std::atomic<uint64_t> g_op_execute_timeout_us{0};

// The context system parameters that were set (indexed by aclSysParamOpt); 0 before.
std::mutex g_sys_params_mu;
int64_t g_sys_params[3] = {0, 0, 0};

}  // namespace

uint64_t OpExecuteTimeoutUs() { return g_op_execute_timeout_us.load(std::memory_order_relaxed); }

}  // namespace ascendc_sim

extern "C" {

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  if (mode == ACL_RT_OVERFLOW_MODE_INFNAN) return ACL_SUCCESS;  // IEEE arithmetic: what the simulator does
  if (mode == ACL_RT_OVERFLOW_MODE_SATURATION) {
    return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED,
                      "aclrtSetDeviceSatMode: the simulator computes with IEEE inf/NaN; saturation mode is not "
                      "supported");
  }
  return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtSetDeviceSatMode: unknown mode %d", static_cast<int>(mode));
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  if (mode == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceSatMode: mode is null");
  *mode = ACL_RT_OVERFLOW_MODE_INFNAN;
  return ACL_SUCCESS;
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  ascendc_sim::Stream* s = nullptr;
  if (aclError rc = ascendc_sim::ResolveStream(stream, "aclrtSetStreamOverflowSwitch", &s); rc != ACL_SUCCESS) {
    return rc;
  }
  if (flag == 0) return ACL_SUCCESS;
  return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "aclrtSetStreamOverflowSwitch: the simulator does not check kernel results for overflow");
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
  if (flag == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetStreamOverflowSwitch: flag is null");
  ascendc_sim::Stream* s = nullptr;
  if (aclError rc = ascendc_sim::ResolveStream(stream, "aclrtGetStreamOverflowSwitch", &s); rc != ACL_SUCCESS) {
    return rc;
  }
  *flag = 0;
  return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  ascendc_sim::g_op_execute_timeout_us.store(static_cast<uint64_t>(timeout) * 1000000u, std::memory_order_relaxed);
  return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {
  if (actualTimeout == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtSetOpExecuteTimeOutV2: actualTimeout is null");
  }
  ascendc_sim::g_op_execute_timeout_us.store(timeout, std::memory_order_relaxed);
  *actualTimeout = timeout;  // the simulator keeps the limit to the microsecond
  return ACL_SUCCESS;
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  if (opt != ACL_OPT_DETERMINISTIC && opt != ACL_OPT_ENABLE_DEBUG_KERNEL && opt != ACL_OPT_STRONG_CONSISTENCY) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtSetSysParamOpt: unknown option %d", static_cast<int>(opt));
  }
  if (value != 0 && value != 1) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtSetSysParamOpt: option %d takes 0 or 1, got %lld",
                      static_cast<int>(opt), static_cast<long long>(value));
  }
  if (opt != ACL_OPT_DETERMINISTIC && value != 0) {  // deterministic either way; the others are off
    return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtSetSysParamOpt: %s is not supported by the simulator",
                      opt == ACL_OPT_ENABLE_DEBUG_KERNEL ? "ACL_OPT_ENABLE_DEBUG_KERNEL" : "ACL_OPT_STRONG_CONSISTENCY");
  }
  std::lock_guard<std::mutex> lock(ascendc_sim::g_sys_params_mu);
  ascendc_sim::g_sys_params[opt] = value;
  return ACL_SUCCESS;
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) { return aclrtSetSysParamOpt(opt, value); }

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  if (value == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetSysParamOpt: value is null");
  if (opt != ACL_OPT_DETERMINISTIC && opt != ACL_OPT_ENABLE_DEBUG_KERNEL && opt != ACL_OPT_STRONG_CONSISTENCY) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtGetSysParamOpt: unknown option %d", static_cast<int>(opt));
  }
  std::lock_guard<std::mutex> lock(ascendc_sim::g_sys_params_mu);
  *value = ascendc_sim::g_sys_params[opt];
  return ACL_SUCCESS;
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  static const aclCannAttr kSupported[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};
  if (cannAttrList == nullptr || num == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetCannAttributeList: %s is null",
                      cannAttrList == nullptr ? "cannAttrList" : "num");
  }
  *cannAttrList = kSupported;
  *num = sizeof(kSupported) / sizeof(kSupported[0]);
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
  if (value == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute: value is null");
  switch (cannAttr) {
    case ACL_CANN_ATTR_INF_NAN:
    case ACL_CANN_ATTR_BF16:
    case ACL_CANN_ATTR_JIT_COMPILE:
      *value = 1;
      return ACL_SUCCESS;
    default:
      return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute: unknown attribute %d", static_cast<int>(cannAttr));
  }
}

}  // extern "C"
