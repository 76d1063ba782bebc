// Simulated CANN base types: data types, formats, error codes and opaque handles.
// Names and numeric values follow CANN's public acl_base.h so that code written
// against this header reads like code written for the real toolkit.
#ifndef ASCENDC_SIM_ACL_BASE_H
#define ASCENDC_SIM_ACL_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtEvent;
typedef void* aclrtContext;

// Runtime and memory errors (aclrt*, aclop*).
#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_INVALID_FILE 100003
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_WRITE_FILE 100004
#define ACL_ERROR_INVALID_PROFILING_CONFIG 100010
#define ACL_ERROR_PROF_ALREADY_RUN 100042
#define ACL_ERROR_PROF_NOT_RUN 100043
#define ACL_ERROR_PROF_API_CONFLICT 148047
#define ACL_ERROR_PROF_MODULES_UNSUPPORTED 200007
#define ACL_ERROR_INVALID_DEVICE 200002
#define ACL_ERROR_INVALID_RESOURCE_HANDLE 200005
#define ACL_ERROR_OP_TYPE_NOT_MATCH 100020
#define ACL_ERROR_OP_NOT_FOUND 100024
#define ACL_ERROR_UNSUPPORTED_DATA_TYPE 100026
#define ACL_ERROR_FEATURE_UNSUPPORTED 200006
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_AICORE_TIMEOUT 507014
#define ACL_ERROR_RT_AICORE_EXCEPTION 507015
#define ACL_ERROR_RT_EVENT_NOT_COMPLETE 507006
#define ACL_ERROR_INTERNAL_ERROR 500000

typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
  ACL_INT4 = 29,
  ACL_UINT1 = 30,
  ACL_COMPLEX32 = 33,
  ACL_HIFLOAT8 = 34,
  ACL_FLOAT8_E5M2 = 35,
  ACL_FLOAT8_E4M3FN = 36,
  ACL_FLOAT8_E8M0 = 37,
  ACL_FLOAT6_E3M2 = 38,
  ACL_FLOAT6_E2M3 = 39,
  ACL_FLOAT4_E2M1 = 40,
  ACL_FLOAT4_E1M2 = 41,
} aclDataType;

typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCL = 47,
} aclFormat;

typedef enum {
  ACL_DEBUG = 0,
  ACL_INFO = 1,
  ACL_WARNING = 2,
  ACL_ERROR = 3,
} aclLogLevel;

typedef enum {
  ACL_MEMTYPE_DEVICE = 0,
  ACL_MEMTYPE_HOST = 1,
  ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2,
} aclMemType;

typedef enum {
  ACL_DEVICE_INFO_UNDEFINED = -1,
  ACL_DEVICE_INFO_AI_CORE_NUM = 0,
  ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
  ACL_DEVICE_INFO_L2_SIZE = 2,
} aclDeviceInfo;

// Writes "[LEVEL] file:line func: message" to stderr when `logLevel` is at least the level of
// ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 none; default 3, as CANN's application log).
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
                                   const char* fmt, ...) __attribute__((format(printf, 5, 6)));

// Core counts of the SoC part the device reports (ACL_DEVICE_INFO_AI_CORE_NUM: cube cores,
// ACL_DEVICE_INFO_VECTOR_CORE_NUM: vector cores; ASCEND_SIM_SOC_NAME picks the part). A kernel
// launched with that many blocks runs them on the simulator's cores. ACL_DEVICE_INFO_L2_SIZE is
// ACL_ERROR_FEATURE_UNSUPPORTED (the simulator has no L2 model).
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value);

typedef enum {
  ACL_CANN_ATTR_UNDEFINED = -1,
  ACL_CANN_ATTR_INF_NAN = 0,
  ACL_CANN_ATTR_BF16 = 1,
  ACL_CANN_ATTR_JIT_COMPILE = 2
} aclCannAttr;

// What the toolkit supports: IEEE inf/NaN arithmetic, bfloat16 and online (JIT) compilation of
// acl ops, each 1 on the simulator (its acl_op path runs with either ACL_OP_JIT_COMPILE setting).
ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num);
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value);

// Size in bytes of one element of `dataType`, 0 for ACL_DT_UNDEFINED.
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

// The message of the most recent error raised on the calling thread by any
// acl*/aclnn* call or reported by a kernel at a synchronising call; "" if none.
// The pointer stays valid until the next acl call on this thread.
ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_ACL_BASE_H
