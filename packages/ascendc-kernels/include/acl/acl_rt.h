// Simulated CANN runtime: devices, device memory, streams and events.
//
// Semantics of the simulator:
// - Device memory is separate from host memory: aclrtMalloc returns pointers
//   owned by one device; host code moves data with aclrtMemcpy*.
// - A stream is an ordered queue. Work enqueued on it (kernel launches,
//   aclrtMemcpyAsync, aclrtMemsetAsync, callbacks, event records/waits) runs
//   later, off the calling thread, in enqueue order; the enqueuing call returns
//   at once. A null stream means the current device's default stream.
// - Errors raised by queued work are reported by the next synchronising call
//   on that stream (aclrtSynchronizeStream/Device/Event), with the failing
//   kernel's name in aclGetRecentErrMsg().
// - ASCEND_LAUNCH_BLOCKING=1 makes every enqueue run synchronously.
// - ASCEND_SIM_DEVICE_COUNT (default 2) sets the number of simulated devices;
//   ASCEND_SIM_MEMORY_MB (default 16384) the memory size of each.
#ifndef ASCENDC_SIM_ACL_RT_H
#define ASCENDC_SIM_ACL_RT_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
} aclrtMemcpyKind;

typedef enum {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
} aclrtMemMallocPolicy;

typedef enum {
  ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
  ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

typedef enum {
  ACL_CALLBACK_NO_BLOCK = 0,
  ACL_CALLBACK_BLOCK = 1,
} aclrtCallbackBlockType;

typedef enum aclrtStreamStatus {
  ACL_STREAM_STATUS_COMPLETE = 0,
  ACL_STREAM_STATUS_NOT_READY = 1,
  ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

// The kinds of memory aclrtGetMemInfo reports on. The simulated device has one memory, its
// HBM: the ACL_HBM_MEM kinds (and the kind-neutral ACL_MEM_*) report it, the host-side DDR
// kinds are ACL_ERROR_FEATURE_UNSUPPORTED.
typedef enum aclrtMemAttr {
  ACL_DDR_MEM,
  ACL_HBM_MEM,
  ACL_DDR_MEM_HUGE,
  ACL_DDR_MEM_NORMAL,
  ACL_HBM_MEM_HUGE,
  ACL_HBM_MEM_NORMAL,
  ACL_DDR_MEM_P2P_HUGE,
  ACL_DDR_MEM_P2P_NORMAL,
  ACL_HBM_MEM_P2P_HUGE,
  ACL_HBM_MEM_P2P_NORMAL,
  ACL_HBM_MEM_HUGE1G,
  ACL_HBM_MEM_P2P_HUGE1G,
  ACL_MEM_NORMAL,
  ACL_MEM_HUGE,
  ACL_MEM_HUGE1G,
} aclrtMemAttr;

#define ACL_EVENT_SYNC 0x00000001u
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002u
#define ACL_EVENT_TIME_LINE 0x00000008u

// Stream flags of aclrtCreateStreamWithConfig. Every stream of the simulator is a host-side
// queue: the launch and synchronisation hints are accepted and change nothing.
#define ACL_STREAM_FAST_LAUNCH 0x00000001u
#define ACL_STREAM_FAST_SYNC 0x00000002u
#define ACL_STREAM_PERSISTENT 0x00000004u
#define ACL_STREAM_HUGE 0x00000008u
#define ACL_STREAM_CPU_SCHEDULE 0x00000010u
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020u

// ---- virtual memory (below), shareable handles and kernel binaries (not simulated yet) ----
typedef enum aclrtMemLocationType {
  ACL_MEM_LOCATION_TYPE_HOST = 0,
  ACL_MEM_LOCATION_TYPE_DEVICE,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

typedef struct aclrtMemLocation {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

typedef enum aclrtMemAllocationType {
  ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
  ACL_MEM_HANDLE_TYPE_NONE = 0,
  ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

typedef struct aclrtPhysicalMemProp {
  aclrtMemHandleType handleType;
  aclrtMemAllocationType allocationType;
  aclrtMemAttr memAttr;
  aclrtMemLocation location;
  uint64_t reserve;
} aclrtPhysicalMemProp;

typedef void* aclrtDrvMemHandle;
typedef void* aclrtBinHandle;
typedef void* aclrtFuncHandle;
typedef struct aclrtBinaryLoadOptions aclrtBinaryLoadOptions;

// How the device's vector and cube units treat a floating overflow: IEEE inf/NaN, as the
// simulator computes (host floating point), or saturation to the largest finite value, which it
// does not (ACL_ERROR_FEATURE_UNSUPPORTED).
typedef enum aclrtFloatOverflowMode {
  ACL_RT_OVERFLOW_MODE_SATURATION = 0,
  ACL_RT_OVERFLOW_MODE_INFNAN,
  ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

typedef enum {
  ACL_OPT_DETERMINISTIC = 0,
  ACL_OPT_ENABLE_DEBUG_KERNEL = 1,
  ACL_OPT_STRONG_CONSISTENCY = 2
} aclSysParamOpt;

typedef enum aclrtLastErrLevel {
  ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

typedef void (*aclrtCallback)(void* userData);

typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

typedef struct aclrtUtilizationInfo {
  int32_t cubeUtilization;
  int32_t vectorUtilization;
  int32_t aicpuUtilization;
  int32_t memoryUtilization;
  aclrtUtilizationExtendInfo* utilizationExtend;  // reserved: must be null
} aclrtUtilizationInfo;

#ifndef ACL_DEPRECATED_MESSAGE
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#endif

#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

typedef enum aclCANNPackageName {
  ACL_PKG_NAME_CANN,
  ACL_PKG_NAME_RUNTIME,
  ACL_PKG_NAME_COMPILER,
  ACL_PKG_NAME_HCCL,
  ACL_PKG_NAME_TOOLKIT,
  ACL_PKG_NAME_OPP,
  ACL_PKG_NAME_OPP_KERNEL,
  ACL_PKG_NAME_DRIVER
} aclCANNPackageName;

typedef struct aclCANNPackageVersion {
  char version[ACL_PKG_VERSION_MAX_SIZE];
  char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

// ---- devices ----
ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count);
// Sets the calling thread's current device (per thread, like CANN).
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t* deviceId);
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);
// The SoC part the devices report: ASCEND_SIM_SOC_NAME (Ascend910B1 .. Ascend910B4), default Ascend910B1.
ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void);
// Free and total memory of the current device, in bytes (see aclrtMemAttr for the kinds).
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total);
// Whether deviceId can read and write peerDeviceId's memory: 1 for two distinct
// simulated devices (one address space), 0 for a device and itself.
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
// Lets the current device access peerDeviceId's memory (flags must be 0): nothing to switch on
// between simulated devices, which share one address space; a device and itself is invalid.
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
// The process id the device sees (the simulator's: this process).
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t* pid);
// Contexts: each simulated device has one (its primary context); setting a context makes its
// device the calling thread's current device.
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext* context);
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);
// Whether the device's primary context is active: from an aclrtSetDevice of the device until as
// many aclrtResetDevice calls (flags, reserved, receives 0 when given).
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active);
// Cube and vector: percent of the last second in which a kernel ran on the device (the
// simulator's AI cores run both kinds of instruction); AI CPU: 0 (none is simulated);
// memory: percent of the device memory allocated. utilizationExtend must be null.
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo);

// ---- toolkit version ----
// The simulator ships one package, "CANN" (ACL_PKG_NAME_CANN), whose version is
// NPU_SIM_CANN_VERSION when set (e.g. "8.1.RC1", to simulate an older toolkit), else
// "8.5.0". Any other package is ACL_ERROR_INVALID_FILE (CANN: no version.info for it).
ACL_DEPRECATED_MESSAGE("aclsysGetCANNVersion is deprecated, use aclsysGetVersionStr and aclsysGetVersionNum instead")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version);
// Copies the version string (at most ACL_PKG_VERSION_MAX_SIZE bytes with the NUL) to versionStr.
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);
// major * 10000000 + minor * 100000 + patch * 1000, less 300/200/100 for an alpha/beta/rc
// suffix plus its number; ACL_ERROR_INTERNAL_ERROR for a version without a numeric patch
// ("8.3.RC1"), as CANN does.
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

// ---- memory ----
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
// As aclrtMalloc: CANN's variant without its 32-byte tail padding; every simulator allocation is
// 512-byte aligned and exactly as large as asked.
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr);
// Device that owns `ptr` (which may point inside an allocation), or -1.
ACL_FUNC_VISIBILITY int32_t aclrtPointerGetDevice(const void* ptr);
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr);
// Synchronous copy: waits for all queued work of every stream of the involved
// devices, then copies.
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

// ---- streams ----
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream);
// A stream with CANN's priority and ACL_STREAM_* flags (hints to the device's scheduler, which the
// simulator's queues do not need; unknown flag bits are ACL_ERROR_INVALID_PARAM).
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
// Destroys a stream that may still hold queued work: the simulator runs that work to its end
// first, as aclrtDestroyStream does.
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
// *status: ACL_STREAM_STATUS_COMPLETE when all queued work has finished, else ACL_STREAM_STATUS_NOT_READY.
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status);
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
// Enqueues a host function on the stream; it runs in stream order.
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void* userData,
                                                 aclrtCallbackBlockType blockType, aclrtStream stream);
// The device a stream belongs to (null: the current device's default stream).
ACL_FUNC_VISIBILITY int32_t aclrtStreamGetDevice(aclrtStream stream);

// ---- events ----
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent* event);
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag);
// As aclrtCreateEventWithFlag (CANN's Ex events are not limited in number; neither are the simulator's).
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status);
// Milliseconds between two completed events (both created with ACL_EVENT_TIME_LINE).
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float* ms, aclrtEvent start, aclrtEvent end);

// ---- device settings ----
// Overflow mode of the current device: ACL_RT_OVERFLOW_MODE_INFNAN (the simulator's arithmetic);
// saturation is ACL_ERROR_FEATURE_UNSUPPORTED.
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode);
// Per-stream overflow detection, the saturation mode's companion: 0 (off) is what the simulator
// does; 1 is ACL_ERROR_FEATURE_UNSUPPORTED (it does not check results for overflow).
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag);
// Kernel execution time limits (seconds; V2: microseconds, 0 = the longest). A kernel that ran
// longer than the limit fails its stream with ACL_ERROR_RT_AICORE_TIMEOUT when it finishes (the
// simulator's kernels are host functions and are not interrupted).
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout);
// System parameters of the current context: ACL_OPT_DETERMINISTIC (0 or 1; the simulator's kernels
// give the same bits on every run, so both hold), ACL_OPT_ENABLE_DEBUG_KERNEL and
// ACL_OPT_STRONG_CONSISTENCY (0 only: the simulator has no debug kernels, and its streams see
// memory in order). aclrtGetSysParamOpt reads back what was set (0 before).
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value);
// The calling thread's last error code (ACL_SUCCESS when none): Peek leaves it, Get clears it.
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

// ---- virtual memory (expandable segments) ----
// A range of addresses without memory (expectPtr null; flags 0 or 1, the page kind; aligned to
// `alignment` when it is larger than a host page). Accessing it unmapped faults, as on the device.
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                                    uint64_t flags);
// Gives a reservation back; none of it may still be mapped.
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void* virPtr);
// Device memory of prop->location.id (ACL_MEM_LOCATION_TYPE_DEVICE, no shareable handle), counted
// against the device's memory like aclrtMalloc; flags must be 0.
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                                                 const aclrtPhysicalMemProp* prop, uint64_t flags);
// Frees physical memory that is no longer mapped.
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
// Maps [offset, offset + size) of the physical memory at virPtr, inside one reservation and over no
// other mapping (page multiples; flags 0). Mapped addresses are device memory to every other API,
// and adjacent mappings form one range.
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags);
// Unmaps the mapping that starts at virPtr, once the work queued on its device has run.
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void* virPtr);

// ---- not simulated yet: ACL_ERROR_FEATURE_UNSUPPORTED, naming the function ----
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags, uint64_t* shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle* handle);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                                     const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                                    aclrtFuncHandle* funcHandle);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_ACL_RT_H
