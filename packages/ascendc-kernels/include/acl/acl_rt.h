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

#define ACL_EVENT_SYNC 0x00000001u
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002u
#define ACL_EVENT_TIME_LINE 0x00000008u

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
ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void);
// Free and total memory of the current device, in bytes.
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(int attr, size_t* free, size_t* total);
// Whether deviceId can read and write peerDeviceId's memory: 1 for two distinct
// simulated devices (one address space), 0 for a device and itself.
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
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
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
// ACL_SUCCESS when all queued work has finished, ACL_ERROR_RT_EVENT_NOT_COMPLETE otherwise.
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
// Enqueues a host function on the stream; it runs in stream order.
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void* userData,
                                                 aclrtCallbackBlockType blockType, aclrtStream stream);
// The device a stream belongs to (null: the current device's default stream).
ACL_FUNC_VISIBILITY int32_t aclrtStreamGetDevice(aclrtStream stream);

// ---- events ----
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent* event);
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status);
// Milliseconds between two completed events (both created with ACL_EVENT_TIME_LINE).
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float* ms, aclrtEvent start, aclrtEvent end);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_ACL_RT_H
