// CANN entry points the simulator links but has no behaviour for yet: each returns CANN's
// "not supported" status and names itself in aclGetRecentErrMsg(), never a silent success.
// The profiler's clock and name hashing are real; its report functions are not connected to
// the simulator's profiler (include/ascendc_sim/prof.h) yet.
#include <chrono>

#include "acl/acl_mdl.h"
#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/toolkit_internal.h"

using ascendc_sim::RaiseError;

namespace {

aclError Unsupported(const char* api) {
  return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED, "%s is not supported by the simulator", api);
}

rtError_t RuntimeUnsupported(const char* api) {
  return RaiseError(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s is not supported by the simulator", api);
}

}  // namespace

extern "C" {

// ---- callbacks through report threads (the simulator runs aclrtLaunchCallback on the stream)
aclError aclrtProcessReport(int32_t) { return Unsupported("aclrtProcessReport"); }

// ---- memory shared between processes
aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle, aclrtMemHandleType, uint64_t, uint64_t*) {
  return Unsupported("aclrtMemExportToShareableHandle");
}
aclError aclrtMemImportFromShareableHandle(uint64_t, int32_t, aclrtDrvMemHandle*) {
  return Unsupported("aclrtMemImportFromShareableHandle");
}
aclError aclrtMemSetPidToShareableHandle(uint64_t, int32_t*, size_t) {
  return Unsupported("aclrtMemSetPidToShareableHandle");
}

// ---- device kernel binaries (the simulator runs host-compiled kernels)
aclError aclrtBinaryLoadFromData(const void*, size_t, const aclrtBinaryLoadOptions*, aclrtBinHandle*) {
  return Unsupported("aclrtBinaryLoadFromData");
}
aclError aclrtBinaryGetFunction(const aclrtBinHandle, const char*, aclrtFuncHandle*) {
  return Unsupported("aclrtBinaryGetFunction");
}
aclError aclrtGetFunctionAddr(aclrtFuncHandle, void**, void**) { return Unsupported("aclrtGetFunctionAddr"); }
rtError_t rtDevBinaryRegister(const rtDevBinary_t*, void**) { return RuntimeUnsupported("rtDevBinaryRegister"); }
rtError_t rtFunctionRegister(void*, const void*, const char*, const void*, uint32_t) {
  return RuntimeUnsupported("rtFunctionRegister");
}
rtError_t rtKernelLaunch(const void*, uint32_t, void*, uint32_t, rtSmDesc_t*, rtStream_t) {
  return RuntimeUnsupported("rtKernelLaunch");
}
rtError_t rtGetC2cCtrlAddr(uint64_t*, uint32_t*) { return RuntimeUnsupported("rtGetC2cCtrlAddr"); }

// ---- model dumps
aclError aclmdlInitDump(void) { return Unsupported("aclmdlInitDump"); }
aclError aclmdlSetDump(const char*) { return Unsupported("aclmdlSetDump"); }
aclError aclmdlFinalizeDump(void) { return Unsupported("aclmdlFinalizeDump"); }

// ---- the profiler's reporting interface
uint64_t MsprofSysCycleTime(void) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

uint64_t MsprofGetHashId(const char* hashInfo, size_t length) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (size_t i = 0; hashInfo != nullptr && i < length; ++i) {
    hash ^= static_cast<unsigned char>(hashInfo[i]);
    hash *= 1099511628211ull;
  }
  return hash;
}

int32_t MsprofRegisterCallback(uint32_t, ProfCommandHandle) { return Unsupported("MsprofRegisterCallback"); }
int32_t MsprofReportApi(uint32_t, const struct MsprofApi*) { return Unsupported("MsprofReportApi"); }
int32_t MsprofReportCompactInfo(uint32_t, const void*, uint32_t) { return Unsupported("MsprofReportCompactInfo"); }
int32_t MsprofReportAdditionalInfo(uint32_t, const void*, uint32_t) {
  return Unsupported("MsprofReportAdditionalInfo");
}

}  // extern "C"
