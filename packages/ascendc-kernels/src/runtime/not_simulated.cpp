// CANN entry points the simulator links but has no behaviour for yet: each returns CANN's
// "not supported" status and names itself in aclGetRecentErrMsg(), never a silent success.
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

}  // extern "C"
