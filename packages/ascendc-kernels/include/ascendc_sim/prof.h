// Kernel execution records of the simulated device, for host profilers.
//
// An ascendc_sim extension (not a CANN API): CANN's aclprofInit/aclprofStart
// write their task-time data to files that msprof parses later; the simulator
// instead hands each kernel execution to the host profiler directly, which
// turns it into device activity (torch.profiler's PrivateUse1 kernels).
//
// While recording is on, every kernel launch (aclsimLaunchKernel, so every
// aclnn and acl_op execution) yields one record when it has executed: its name,
// the API that launched it, device, stream, block count, the executing thread
// and its start/end time. Off, a launch pays one relaxed atomic load. Reports
// of the profiler's Msprof* interface are kept beside them (aclsimProfTakeReports).
// A CANN profiling session (acl/acl_prof.h) turns recording on as well, and its
// aclprofStop takes both kinds of record into its result file.
#ifndef ASCENDC_SIM_PROF_H
#define ASCENDC_SIM_PROF_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACLSIM_PROF_NAME_LEN 64

typedef struct aclsimKernelRecord {
  char name[ACLSIM_PROF_NAME_LEN];    // kernel name given to aclsimLaunchKernel (truncated, NUL-terminated)
  char origin[ACLSIM_PROF_NAME_LEN];  // API that launched it: "aclnnAdd", "aclopCompileAndExecute(Add)", or ""
  int32_t deviceId;
  uint32_t blockDim;
  uint64_t stream;         // the stream's aclrtStream handle (as an integer)
  uint64_t threadId;       // executing thread (OS thread id)
  uint64_t correlationId;  // the launching thread's aclsimProfSetCorrelationId value at launch (0: none)
  int64_t startNs;         // CLOCK_REALTIME nanoseconds on the executing thread
  int64_t endNs;
} aclsimKernelRecord;

// Starts recording (calls nest: recording stays on until as many Stops).
ACL_FUNC_VISIBILITY aclError aclsimProfStart(void);
// Ends one Start; ACL_ERROR_INVALID_PARAM without a matching Start.
ACL_FUNC_VISIBILITY aclError aclsimProfStop(void);
// Nonzero while recording.
ACL_FUNC_VISIBILITY int aclsimProfIsRecording(void);
// Sets the calling thread's correlation id, stamped on the kernels it launches
// from now on; returns the previous one.
ACL_FUNC_VISIBILITY uint64_t aclsimProfSetCorrelationId(uint64_t id);
// Moves up to `capacity` of the oldest finished records into `records` and
// returns how many; call until it returns less than `capacity`.
ACL_FUNC_VISIBILITY size_t aclsimProfTakeRecords(aclsimKernelRecord* records, size_t capacity);

// What a module reported to the profiler while recording was on (toolchain/prof_api.h's
// MsprofReport* functions), and the marks of aclprofMarkEx.
typedef enum aclsimReportKind {
  ACLSIM_REPORT_API = 0,         // MsprofReportApi: a host API call with begin and end
  ACLSIM_REPORT_COMPACT = 1,     // MsprofReportCompactInfo: fixed-size node information
  ACLSIM_REPORT_ADDITIONAL = 2,  // MsprofReportAdditionalInfo: variable information
  ACLSIM_REPORT_MARK = 3,        // aclprofMarkEx: a message, when its stream reached it
} aclsimReportKind;

#define ACLSIM_REPORT_DATA_LEN 232

typedef struct aclsimReportRecord {
  char name[ACLSIM_PROF_NAME_LEN];  // the string behind itemId (MsprofGetHashId), or the mark's
                                    // message; "" when no string was hashed to it
  uint32_t kind;                    // aclsimReportKind
  uint32_t level;                   // the report's level (MSPROF_REPORT_NODE_LEVEL ...)
  uint32_t type;                    // the report's type within its level
  uint32_t threadId;                // the reporting thread, as reported
  uint64_t itemId;                  // API: itemId; compact node basic info: opName; else 0
  int32_t deviceId;                 // a mark's device; -1 for reports
  uint32_t dataLength;              // bytes of data used
  int64_t startNs;                  // CLOCK_REALTIME nanoseconds (converted from MsprofSysCycleTime)
  int64_t endNs;                    // equals startNs for an instant
  uint8_t data[ACLSIM_REPORT_DATA_LEN];  // compact: its 40 info bytes; additional: its data
} aclsimReportRecord;

// Moves up to `capacity` of the oldest reports into `records` and returns how many.
ACL_FUNC_VISIBILITY size_t aclsimProfTakeReports(aclsimReportRecord* records, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_PROF_H
