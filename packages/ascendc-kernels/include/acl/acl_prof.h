// Simulated CANN profiling sessions (CANN's acl/acl_prof.h): the part torch_npu's profiler calls.
//
// aclprofInit names a result directory; aclprofStart with a config from aclprofCreateConfig turns
// on the simulator's recording (ascendc_sim/prof.h) and tells every module registered with
// MsprofRegisterCallback (toolchain/prof_api.h) that profiling started; aclprofStop ends it and
// writes what was recorded (the kernels the devices ran and the modules' Msprof* reports) as one
// JSON file, simulator_profile_<pid>_<n>.json, in the result directory. CANN writes msprof's
// binary PROF_* data instead, which the simulator does not produce.
//
// aclprofSetConfig takes the storage limit and the result path; the hardware samplers it configures
// on a real device (memory, interconnect, I/O, host system) have no simulated counterpart and
// return ACL_ERROR_PROF_MODULES_UNSUPPORTED, as CANN does for a module a device lacks.
#ifndef ASCENDC_SIM_ACL_PROF_H
#define ASCENDC_SIM_ACL_PROF_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSVP_PROF_API __attribute__((visibility("default")))

// Data types a session collects (aclprofCreateConfig's dataTypeConfig bits).
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_GE_API_L0 0x0200ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_TASK_TIME_L2 0x2000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL
#define ACL_PROF_TASK_TIME_L3 0x8000ULL
#define ACL_PROF_GE_API_L1 0x01000000ULL

typedef enum {
  ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
  ACL_AICORE_PIPE_UTILIZATION = 1,
  ACL_AICORE_MEMORY_BANDWIDTH = 2,
  ACL_AICORE_L0B_AND_WIDTH = 3,
  ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
  ACL_AICORE_MEMORY_UB = 5,
  ACL_AICORE_L2_CACHE = 6,
  ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
  ACL_AICORE_MEMORY_ACCESS = 8,
  ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

typedef enum {
  ACL_PROF_ARGS_MIN = 0,
  ACL_PROF_STORAGE_LIMIT = 1,
  ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
  ACL_PROF_LLC_MODE = 4,
  ACL_PROF_SYS_IO_FREQ = 5,
  ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
  ACL_PROF_DVPP_FREQ = 7,
  ACL_PROF_HOST_SYS = 8,
  ACL_PROF_HOST_SYS_USAGE = 9,
  ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
  ACL_PROF_LOW_POWER_FREQ = 11,
  ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
  ACL_PROF_SYS_CPU_FREQ = 13,
  ACL_PROF_OPTYPE = 14,
  ACL_PROF_NTS_METRICS = 15,
  ACL_PROF_PATH = 16,
  ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;

// Names the directory results go to (created if missing); once per process until aclprofFinalize.
MSVP_PROF_API aclError aclprofInit(const char* profilerResultPath, size_t length);
// Ends aclprofInit; a running session must be stopped first (ACL_ERROR_PROF_API_CONFLICT).
MSVP_PROF_API aclError aclprofFinalize();
MSVP_PROF_API aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                                 aclprofAicoreMetrics aicoreMetrics,
                                                 const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig);
MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig);
MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength);
MSVP_PROF_API aclError aclprofStart(const aclprofConfig* profilerConfig);
// Stops the session started with this config and writes its results.
MSVP_PROF_API aclError aclprofStop(const aclprofConfig* profilerConfig);
// Records a named instant on the stream's device (a report of the ACL_PROF_MSPROFTX kind).
MSVP_PROF_API aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_ACL_PROF_H
