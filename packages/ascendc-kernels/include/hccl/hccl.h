// HCCL, the toolkit's collective communication library (libhccl.so): communicators, collectives,
// point-to-point transfers and communicator memory. The declarations are CANN's (hccl.h).
//
// The simulator's libhccl forms communicators and runs the collectives and point-to-point
// transfers on streams (see the package README, "Collectives"); the functions it does not
// simulate return HCCL_E_NOT_SUPPORT and name themselves in aclGetRecentErrMsg().
#ifndef ASCENDC_SIM_HCCL_H
#define ASCENDC_SIM_HCCL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HCCL_FUNC_VISIBILITY __attribute__((visibility("default")))

// ---- communicators: rank 0's root info (or a cluster file) tells every rank how to meet
HCCL_FUNC_VISIBILITY HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo);
HCCL_FUNC_VISIBILITY HcclResult HcclGetRootInfoScalable(HcclRootInfo* rootInfo);
HCCL_FUNC_VISIBILITY HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                                     HcclComm* comm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo,
                                                           uint32_t rank, const HcclCommConfig* config,
                                                           HcclComm* comm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommInitRootInfoScalable(uint32_t nRanks, uint32_t nRoot,
                                                             const HcclRootInfo* rootInfoList, uint32_t rank,
                                                             uint32_t nExtRoot, const HcclCommConfig* config,
                                                             HcclComm* comm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank,
                                                              HcclCommConfig* config, HcclComm* comm);
// One communicator per device of `devices`, all in this process.
HCCL_FUNC_VISIBILITY HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms);
HCCL_FUNC_VISIBILITY HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum, uint32_t* rankIds,
                                                        uint64_t subCommId, uint32_t subCommRankId,
                                                        HcclCommConfig* config, HcclComm* subComm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommDestroy(HcclComm comm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommSuspend(HcclComm comm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommResume(HcclComm comm);
HCCL_FUNC_VISIBILITY HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t* ranks, bool* useBackup,
                                                         uint32_t nRanks);

// ---- what a communicator is
HCCL_FUNC_VISIBILITY HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize);
HCCL_FUNC_VISIBILITY HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank);
// `commName` holds COMM_NAME_MAX_LENGTH bytes.
HCCL_FUNC_VISIBILITY HcclResult HcclGetCommName(HcclComm comm, char* commName);
HCCL_FUNC_VISIBILITY HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError);
HCCL_FUNC_VISIBILITY const char* HcclGetErrorString(HcclResult code);

// ---- configuration: process-wide, per communicator, and which HcclCommConfig fields are understood
HCCL_FUNC_VISIBILITY HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue);
HCCL_FUNC_VISIBILITY HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue* configValue);
HCCL_FUNC_VISIBILITY HcclResult HcclSetCommConfig(HcclComm comm, HcclConfig config, HcclConfigValue configValue);
HCCL_FUNC_VISIBILITY HcclResult HcclGetCommConfig(HcclComm comm, HcclConfig config, HcclConfigValue* configValue);
HCCL_FUNC_VISIBILITY uint32_t HcclGetCommConfigCapability(void);

// Every field "not set" (HCCL's defaults apply); the header in `reserved` records this layout.
inline void HcclCommConfigInit(HcclCommConfig* config) {
  if (config == nullptr) return;
  struct LayoutHeader {
    size_t size;
    uint32_t magicWord;
    uint32_t version;
    uint64_t reserved;
  };
  static_assert(sizeof(LayoutHeader) == HCCL_COMM_CONFIG_INFO_BYTES, "the header fills HcclCommConfig::reserved");
  const LayoutHeader header = {sizeof(HcclCommConfig), HCCL_COMM_CONFIG_MAGIC_WORD, HCCL_COMM_CONFIG_VERSION, 0};
  memcpy(config->reserved, &header, sizeof(header));
  config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
  config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
  config->hcclCommName[0] = '\0';
  config->hcclUdi[0] = '\0';
  config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
  config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
  config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
  config->hcclWorldRankID = 0;
  config->hcclJobID = 0;
  config->aclGraphZeroCopyEnable = 0;
  config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
  config->hcclAlgo[0] = '\0';
  config->hcclRetryEnable[0] = '\0';
  config->hcclRetryParams[0] = '\0';
  config->hcclBufferName[0] = '\0';
  config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
  config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
}

// ---- collectives, queued on `stream`; counts are elements of `dataType`
HCCL_FUNC_VISIBILITY HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                              HcclReduceOp op, HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root,
                                              HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                           HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                                                  HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                                  aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls,
                                                   void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                                   HcclReduceOp op, HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                            uint32_t root, HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType,
                                              HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf,
                                               const void* recvCounts, const void* recvDispls, HcclDataType dataType,
                                               HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType,
                                             const void* recvBuf, uint64_t recvCount, HcclDataType recvType,
                                             HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                                              HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                                              const void* rdispls, HcclDataType recvType, HcclComm comm,
                                              aclrtStream stream);
// `sendCountMatrix`: row i holds what rank i sends to each rank.
HCCL_FUNC_VISIBILITY HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix,
                                               HcclDataType sendType, const void* recvBuf, HcclDataType recvType,
                                               HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);

// ---- point to point
HCCL_FUNC_VISIBILITY HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                                         HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                                         HcclComm comm, aclrtStream stream);
HCCL_FUNC_VISIBILITY HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                                  aclrtStream stream);
// Calls between HcclGroupStart and HcclGroupEnd are issued together.
HCCL_FUNC_VISIBILITY HcclResult HcclGroupStart(void);
HCCL_FUNC_VISIBILITY HcclResult HcclGroupEnd(void);

// ---- communicator memory: a virtual range backed by physical memory, and registered windows
HCCL_FUNC_VISIBILITY HcclResult HcclCommSetMemoryRange(HcclComm comm, void* baseVirPtr, size_t size, size_t alignment,
                                                       uint64_t flags);
HCCL_FUNC_VISIBILITY HcclResult HcclCommUnsetMemoryRange(HcclComm comm, void* baseVirPtr);
HCCL_FUNC_VISIBILITY HcclResult HcclCommActivateCommMemory(HcclComm comm, void* virPtr, size_t size, size_t offset,
                                                           aclrtDrvMemHandle handle, uint64_t flags);
HCCL_FUNC_VISIBILITY HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void* virPtr);
HCCL_FUNC_VISIBILITY HcclResult HcclCommRegister(HcclComm comm, void* addr, uint64_t size, void** handle,
                                                 uint32_t flag);
HCCL_FUNC_VISIBILITY HcclResult HcclCommDeregister(HcclComm comm, void* handle);
HCCL_FUNC_VISIBILITY HcclResult HcclCommExchangeMem(HcclComm comm, void* windowHandle, uint32_t* peerRanks,
                                                    uint32_t peerRankNum);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // ASCENDC_SIM_HCCL_H
