// HCCL's types: status codes, the communicator handle, element types, reductions, the root info
// ranks exchange to form a communicator, and the communicator configuration. Names, values and
// layouts are CANN's (hccl_types.h), so a client built for CANN's HCCL builds against these.
//
// C++ only, like CANN's header: typed constants size the structures.
#ifndef ASCENDC_SIM_HCCL_TYPES_H
#define ASCENDC_SIM_HCCL_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  HCCL_SUCCESS = 0,
  HCCL_E_PARA = 1,
  HCCL_E_PTR = 2,
  HCCL_E_MEMORY = 3,
  HCCL_E_INTERNAL = 4,
  HCCL_E_NOT_SUPPORT = 5,  // what the functions the simulator's libhccl does not simulate return
  HCCL_E_NOT_FOUND = 6,
  HCCL_E_UNAVAIL = 7,
  HCCL_E_SYSCALL = 8,
  HCCL_E_TIMEOUT = 9,
  HCCL_E_OPEN_FILE_FAILURE = 10,
  HCCL_E_TCP_CONNECT = 11,
  HCCL_E_ROCE_CONNECT = 12,
  HCCL_E_TCP_TRANSFER = 13,
  HCCL_E_ROCE_TRANSFER = 14,
  HCCL_E_RUNTIME = 15,
  HCCL_E_DRV = 16,
  HCCL_E_PROFILING = 17,
  HCCL_E_CCE = 18,
  HCCL_E_NETWORK = 19,
  HCCL_E_AGAIN = 20,
  HCCL_E_REMOTE = 21,
  HCCL_E_SUSPENDING = 22,
  HCCL_E_OPRETRY_FAIL = 23,
  HCCL_E_OOM = 24,
  HCCL_E_RESERVED = 25,
} HcclResult;

typedef void* HcclComm;

typedef enum {
  HCCL_REDUCE_SUM = 0,
  HCCL_REDUCE_PROD = 1,
  HCCL_REDUCE_MAX = 2,
  HCCL_REDUCE_MIN = 3,
  HCCL_REDUCE_RESERVED = 255,
} HcclReduceOp;

// Not aclDataType's numbering: HCCL has its own.
typedef enum {
  HCCL_DATA_TYPE_INT8 = 0,
  HCCL_DATA_TYPE_INT16 = 1,
  HCCL_DATA_TYPE_INT32 = 2,
  HCCL_DATA_TYPE_FP16 = 3,
  HCCL_DATA_TYPE_FP32 = 4,
  HCCL_DATA_TYPE_INT64 = 5,
  HCCL_DATA_TYPE_UINT64 = 6,
  HCCL_DATA_TYPE_UINT8 = 7,
  HCCL_DATA_TYPE_UINT16 = 8,
  HCCL_DATA_TYPE_UINT32 = 9,
  HCCL_DATA_TYPE_FP64 = 10,
  HCCL_DATA_TYPE_BFP16 = 11,
  HCCL_DATA_TYPE_INT128 = 12,
  HCCL_DATA_TYPE_HIF8 = 14,
  HCCL_DATA_TYPE_FP8E4M3 = 15,
  HCCL_DATA_TYPE_FP8E5M2 = 16,
  HCCL_DATA_TYPE_FP8E8M0 = 17,
  HCCL_DATA_TYPE_RESERVED = 255,
} HcclDataType;

// Process-wide settings (HcclSetConfig) and per-communicator ones (HcclSetCommConfig).
typedef enum {
  HCCL_DETERMINISTIC = 0,
  HCCL_ACCELERATOR = 1,
  HCCL_CONFIG_RESERVED = 2,
} HcclConfig;

typedef union HcclConfigValue {
  int32_t value;
} HcclConfigValue;

const uint32_t HCCL_ROOT_INFO_BYTES = 4108;
const uint32_t BUFFER_NAME_MAX_LENGTH = 128;
const uint32_t COMM_NAME_MAX_LENGTH = 128;  // HcclGetCommName writes at most this many bytes
const uint32_t UDI_MAX_LENGTH = 128;
const uint32_t HCCL_COMM_ALGO_MAX_LENGTH = 1600;
const uint32_t HCCL_COMM_RETRY_ENABLE_MAX_LENGTH = 50;
const uint32_t HCCL_COMM_RETRY_PARAMS_MAX_LENGTH = 128;

// Opaque to clients: rank 0 gets it (HcclGetRootInfo) and hands it to every rank.
typedef struct HcclRootInfoDef {
  char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

// HcclCommConfig's header (layout size, magic word, version) and its "not set" values.
const uint32_t HCCL_COMM_CONFIG_INFO_BYTES = 24;
const uint32_t HCCL_COMM_CONFIG_MAGIC_WORD = 0xf0f0f0f0;
const uint32_t HCCL_COMM_CONFIG_VERSION = 10;
const uint32_t HCCL_COMM_DEFAULT_BUFFSIZE = 200;  // MB
const uint32_t HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_DEFAULT_DETERMINISTIC = 0;
const uint32_t HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_DEFAULT_OP_EXPANSION_MODE = 0;
const uint32_t HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET = 0xffffffff;
const int32_t HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET = -1;
const uint32_t HCCL_COMM_QOS_CONFIG_NOT_SET = 0xffffffff;
const uint64_t HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE = 16;  // GB

// Filled by HcclCommConfigInit (hccl/hccl.h), then changed field by field; `reserved` holds the
// header that tells HCCL which version of this layout the client was built with.
typedef struct HcclCommConfigDef {
  char reserved[HCCL_COMM_CONFIG_INFO_BYTES];
  uint32_t hcclBufferSize;
  uint32_t hcclDeterministic;
  char hcclCommName[COMM_NAME_MAX_LENGTH];
  char hcclUdi[UDI_MAX_LENGTH];
  uint32_t hcclOpExpansionMode;
  uint32_t hcclRdmaTrafficClass;
  uint32_t hcclRdmaServiceLevel;
  uint32_t hcclWorldRankID;
  uint64_t hcclJobID;
  uint8_t aclGraphZeroCopyEnable;
  int32_t hcclExecTimeOut;
  char hcclAlgo[HCCL_COMM_ALGO_MAX_LENGTH];
  char hcclRetryEnable[HCCL_COMM_RETRY_ENABLE_MAX_LENGTH];
  char hcclRetryParams[HCCL_COMM_RETRY_PARAMS_MAX_LENGTH];
  char hcclBufferName[BUFFER_NAME_MAX_LENGTH];
  uint32_t hcclQos;
  uint64_t hcclSymWinMaxMemSizePerRank;
} HcclCommConfig;

// The HcclCommConfig fields a library understands: HcclGetCommConfigCapability returns the
// first one it does not.
typedef enum {
  HCCL_COMM_CONFIG_BUFFER_SIZE = 0,
  HCCL_COMM_CONFIG_DETERMINISTIC = 1,
  HCCL_COMM_CONFIG_COMM_NAME = 2,
  HCCL_COMM_CONFIG_OP_EXPANSION_MODE = 3,
  HCCL_COMM_CONFIG_SUPPORT_INIT_BY_ENV = 4,
  HCCL_COMM_CONFIG_WORLD_RANKID = 5,
  HCCL_COMM_CONFIG_JOBID = 6,
  HCCL_COMM_CONFIG_ACLGRAPH_ZEROCOPY_ENABLE = 7,
  HCCL_COMM_CONFIG_EXEC_TIMEOUT = 8,
  HCCL_COMM_CONFIG_ALGO = 9,
  HCCL_COMM_CONFIG_RETRY = 10,
  HCCL_COMM_CONFIG_BUFFER_NAME = 11,
  HCCL_COMM_CONFIG_RESERVED = 12,
} HcclCommConfigCapability;

typedef enum {
  HCCL_SEND = 0,
  HCCL_RECV = 1,
  HCCL_SEND_RECV_RESERVED = 2,
} HcclSendRecvType;

// One transfer of HcclBatchSendRecv.
typedef struct HcclSendRecvItemDef {
  HcclSendRecvType sendRecvType;
  void* buf;
  uint64_t count;
  HcclDataType dataType;
  uint32_t remoteRank;
} HcclSendRecvItem;

// The kinds of collective operation.
typedef enum {
  HCCL_CMD_INVALID = 0,
  HCCL_CMD_BROADCAST = 1,
  HCCL_CMD_ALLREDUCE = 2,
  HCCL_CMD_REDUCE = 3,
  HCCL_CMD_SEND = 4,
  HCCL_CMD_RECEIVE = 5,
  HCCL_CMD_ALLGATHER = 6,
  HCCL_CMD_REDUCE_SCATTER = 7,
  HCCL_CMD_ALLTOALLV = 8,
  HCCL_CMD_ALLTOALLVC = 9,
  HCCL_CMD_ALLTOALL = 10,
  HCCL_CMD_GATHER = 11,
  HCCL_CMD_SCATTER = 12,
  HCCL_CMD_BATCH_SEND_RECV = 13,
  HCCL_CMD_BATCH_PUT = 14,
  HCCL_CMD_BATCH_GET = 15,
  HCCL_CMD_ALLGATHER_V = 16,
  HCCL_CMD_REDUCE_SCATTER_V = 17,
  HCCL_CMD_BATCH_WRITE = 18,
  HCCL_CMD_HALF_ALLTOALLV = 20,
  HCCL_CMD_ALL = 21,
  HCCL_CMD_FINALIZE = 100,
  HCCL_CMD_INTER_GROUP_SYNC = 101,
  HCCL_CMD_INIT = 102,
  HCCL_CMD_BARRIER = 103,
  HCCL_CMD_MAX = 104,
} HcclCMDType;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // ASCENDC_SIM_HCCL_TYPES_H
