// The profiler's reporting interface (CANN's toolchain/prof_api.h; torch_npu ships the same
// declarations as profiling/aprof_pub.h): how a module that launches work itself (torch_npu's
// compiled-kernel launcher) reports its host API calls and node information to the profiler.
//
// The simulator keeps every report made while recording is on (a session of acl/acl_prof.h or
// ascendc_sim/prof.h) in its profiler, with the hashed name resolved (aclsimProfTakeReports);
// reports made while nothing records are dropped and succeed, as a module cannot know when a
// session runs. A module registered with MsprofRegisterCallback is told of session init, start,
// stop and finalize through its handler (PROF_CTRL_SWITCH with a MsprofCommandHandle).
#ifndef ASCENDC_SIM_TOOLCHAIN_PROF_API_H
#define ASCENDC_SIM_TOOLCHAIN_PROF_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSVP_PROF_API __attribute__((visibility("default")))

typedef void* VOID_PTR;

#define MSPROF_REPORT_DATA_MAGIC_NUM 0x5A5AU
#define MSPROF_COMPACT_INFO_DATA_LENGTH 40
#define MSPROF_ADDTIONAL_INFO_DATA_LENGTH 232
#define PATH_LEN_MAX 1023
#define PARAM_LEN_MAX 4095
#define MSPROF_MAX_DEV_NUM 64

#define MSPROF_REPORT_NODE_LEVEL 10000U
#define MSPROF_REPORT_NODE_BASIC_INFO_TYPE 0U
#define MSPROF_REPORT_NODE_LAUNCH_TYPE 5U

// profSwitch bits a handler reads: task time at level 0 and at level 1.
#define PROF_TASK_TIME_MASK 0x00000800ULL
#define PROF_TASK_TIME_L1_MASK 0x00000002ULL

enum MsprofErrorCode {
  MSPROF_ERROR_NONE = 0,
  MSPROF_ERROR_MEM_NOT_ENOUGH,
  MSPROF_ERROR_GET_ENV,
  MSPROF_ERROR_CONFIG_INVALID,
  MSPROF_ERROR_ACL_JSON_OFF,
  MSPROF_ERROR,
  MSPROF_ERROR_UNINITIALIZE,
};

enum MsprofCommandHandleType {
  PROF_COMMANDHANDLE_TYPE_INIT = 0,
  PROF_COMMANDHANDLE_TYPE_START,
  PROF_COMMANDHANDLE_TYPE_STOP,
  PROF_COMMANDHANDLE_TYPE_FINALIZE,
  PROF_COMMANDHANDLE_TYPE_MODEL_SUBSCRIBE,
  PROF_COMMANDHANDLE_TYPE_MODEL_UNSUBSCRIBE,
  PROF_COMMANDHANDLE_TYPE_MAX
};

enum ProfCtrlType {
  PROF_CTRL_INVALID = 0,
  PROF_CTRL_SWITCH,
};

struct MsprofCommandHandleParams {
  uint32_t pathLen;
  uint32_t storageLimit;
  uint32_t profDataLen;
  char path[PATH_LEN_MAX + 1];
  char profData[PARAM_LEN_MAX + 1];
};

// What a registered handler receives: the session's data types (profSwitch), its devices and
// the command (type: MsprofCommandHandleType).
struct MsprofCommandHandle {
  uint64_t profSwitch;
  uint64_t profSwitchHi;
  uint32_t devNums;
  uint32_t devIdList[MSPROF_MAX_DEV_NUM];
  uint32_t modelId;
  uint32_t type;
  uint32_t cacheFlag;
  struct MsprofCommandHandleParams params;
};

#pragma pack(1)
struct MsprofNodeBasicInfo {
  uint64_t opName;  // MsprofGetHashId of the node's name
  uint32_t taskType;
  uint64_t opType;  // MsprofGetHashId of its type
  uint32_t blockDim;
  uint32_t opFlag;
};
#pragma pack()

// A host API call: [beginTime, endTime] on MsprofSysCycleTime's clock, named by itemId.
struct MsprofApi {
#ifdef __cplusplus
  uint16_t magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
#else
  uint16_t magicNumber;
#endif
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t reserve;
  uint64_t beginTime;
  uint64_t endTime;
  uint64_t itemId;
};

// Fixed-size node information at an instant (type MSPROF_REPORT_NODE_BASIC_INFO_TYPE: nodeBasicInfo).
struct MsprofCompactInfo {
#ifdef __cplusplus
  uint16_t magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
#else
  uint16_t magicNumber;
#endif
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t dataLen;
  uint64_t timeStamp;
  union {
    uint8_t info[MSPROF_COMPACT_INFO_DATA_LENGTH];
    struct MsprofNodeBasicInfo nodeBasicInfo;
  } data;
};

// Variable information at an instant: dataLen bytes of data.
struct MsprofAdditionalInfo {
#ifdef __cplusplus
  uint16_t magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
#else
  uint16_t magicNumber;
#endif
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t dataLen;
  uint64_t timeStamp;
  uint8_t data[MSPROF_ADDTIONAL_INFO_DATA_LENGTH];
};

typedef int32_t (*ProfCommandHandle)(uint32_t type, void* data, uint32_t len);

// A module's handler for session commands; registering again replaces it. A module registering
// while a session runs is told at once that it started.
MSVP_PROF_API int32_t MsprofRegisterCallback(uint32_t moduleId, ProfCommandHandle handle);
// The reports: MSPROF_ERROR_CONFIG_INVALID for a null report, a wrong magic number or length.
MSVP_PROF_API int32_t MsprofReportApi(uint32_t nonPersistantFlag, const struct MsprofApi* api);
MSVP_PROF_API int32_t MsprofReportCompactInfo(uint32_t nonPersistantFlag, const VOID_PTR data, uint32_t length);
MSVP_PROF_API int32_t MsprofReportAdditionalInfo(uint32_t nonPersistantFlag, const VOID_PTR data, uint32_t length);
// A stable 64-bit id of the string (FNV-1a of its bytes); the profiler keeps the string to name
// reports by.
MSVP_PROF_API uint64_t MsprofGetHashId(const char* hashInfo, size_t length);
// The profiler's clock: steady-clock nanoseconds (CANN: the system cycle counter).
MSVP_PROF_API uint64_t MsprofSysCycleTime(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_TOOLCHAIN_PROF_API_H
