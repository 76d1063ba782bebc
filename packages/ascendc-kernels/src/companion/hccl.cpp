// libhccl.so: HCCL's entry points (hccl/hccl.h). Collectives are not simulated yet, so each
// returns HCCL_E_NOT_SUPPORT and names itself in aclGetRecentErrMsg(): a client such as torch_npu
// finds every function it looks up and learns why its distributed work cannot run, instead of
// a missing symbol or a communicator that silently does nothing.
#include "hccl/hccl.h"

#include "common/error.h"

namespace {

// Sets the message only: HCCL's codes are not ACL's, so the thread's last ACL error
// (aclrtGetLastError) stays what the runtime left.
HcclResult Unsupported(const char* api) {
  ascendc_sim::SetRecentError(
      ascendc_sim::StrFormat("%s is not supported by the simulator (collectives are not simulated yet)", api));
  return HCCL_E_NOT_SUPPORT;
}

}  // namespace

extern "C" {

// ---- communicators
HcclResult HcclGetRootInfo(HcclRootInfo*) { return Unsupported(__func__); }
HcclResult HcclGetRootInfoScalable(HcclRootInfo*) { return Unsupported(__func__); }
HcclResult HcclCommInitRootInfo(uint32_t, const HcclRootInfo*, uint32_t, HcclComm*) { return Unsupported(__func__); }
HcclResult HcclCommInitRootInfoConfig(uint32_t, const HcclRootInfo*, uint32_t, const HcclCommConfig*, HcclComm*) {
  return Unsupported(__func__);
}
HcclResult HcclCommInitRootInfoScalable(uint32_t, uint32_t, const HcclRootInfo*, uint32_t, uint32_t,
                                        const HcclCommConfig*, HcclComm*) {
  return Unsupported(__func__);
}
HcclResult HcclCommInitClusterInfo(const char*, uint32_t, HcclComm*) { return Unsupported(__func__); }
HcclResult HcclCommInitClusterInfoConfig(const char*, uint32_t, HcclCommConfig*, HcclComm*) {
  return Unsupported(__func__);
}
HcclResult HcclCommInitAll(uint32_t, int32_t*, HcclComm*) { return Unsupported(__func__); }
HcclResult HcclCreateSubCommConfig(HcclComm*, uint32_t, uint32_t*, uint64_t, uint32_t, HcclCommConfig*, HcclComm*) {
  return Unsupported(__func__);
}
HcclResult HcclCommDestroy(HcclComm) { return Unsupported(__func__); }
HcclResult HcclCommSuspend(HcclComm) { return Unsupported(__func__); }
HcclResult HcclCommResume(HcclComm) { return Unsupported(__func__); }
HcclResult HcclCommWorkingDevNicSet(HcclComm, uint32_t*, bool*, uint32_t) { return Unsupported(__func__); }

// ---- what a communicator is
HcclResult HcclGetRankSize(HcclComm, uint32_t*) { return Unsupported(__func__); }
HcclResult HcclGetRankId(HcclComm, uint32_t*) { return Unsupported(__func__); }
HcclResult HcclGetCommName(HcclComm, char*) { return Unsupported(__func__); }
HcclResult HcclGetCommAsyncError(HcclComm, HcclResult*) { return Unsupported(__func__); }

// Real, and leaves the recent error alone: clients format the status of a failed call with it,
// and the failed call's message must survive that.
const char* HcclGetErrorString(HcclResult code) {
  switch (code) {
    case HCCL_SUCCESS: return "HCCL_SUCCESS";
    case HCCL_E_PARA: return "HCCL_E_PARA";
    case HCCL_E_PTR: return "HCCL_E_PTR";
    case HCCL_E_MEMORY: return "HCCL_E_MEMORY";
    case HCCL_E_INTERNAL: return "HCCL_E_INTERNAL";
    case HCCL_E_NOT_SUPPORT: return "HCCL_E_NOT_SUPPORT";
    case HCCL_E_NOT_FOUND: return "HCCL_E_NOT_FOUND";
    case HCCL_E_UNAVAIL: return "HCCL_E_UNAVAIL";
    case HCCL_E_SYSCALL: return "HCCL_E_SYSCALL";
    case HCCL_E_TIMEOUT: return "HCCL_E_TIMEOUT";
    case HCCL_E_OPEN_FILE_FAILURE: return "HCCL_E_OPEN_FILE_FAILURE";
    case HCCL_E_TCP_CONNECT: return "HCCL_E_TCP_CONNECT";
    case HCCL_E_ROCE_CONNECT: return "HCCL_E_ROCE_CONNECT";
    case HCCL_E_TCP_TRANSFER: return "HCCL_E_TCP_TRANSFER";
    case HCCL_E_ROCE_TRANSFER: return "HCCL_E_ROCE_TRANSFER";
    case HCCL_E_RUNTIME: return "HCCL_E_RUNTIME";
    case HCCL_E_DRV: return "HCCL_E_DRV";
    case HCCL_E_PROFILING: return "HCCL_E_PROFILING";
    case HCCL_E_CCE: return "HCCL_E_CCE";
    case HCCL_E_NETWORK: return "HCCL_E_NETWORK";
    case HCCL_E_AGAIN: return "HCCL_E_AGAIN";
    case HCCL_E_REMOTE: return "HCCL_E_REMOTE";
    case HCCL_E_SUSPENDING: return "HCCL_E_SUSPENDING";
    case HCCL_E_OPRETRY_FAIL: return "HCCL_E_OPRETRY_FAIL";
    case HCCL_E_OOM: return "HCCL_E_OOM";
    case HCCL_E_RESERVED: break;
  }
  return "unknown HcclResult";
}

// ---- configuration
HcclResult HcclSetConfig(HcclConfig, HcclConfigValue) { return Unsupported(__func__); }
HcclResult HcclGetConfig(HcclConfig, HcclConfigValue*) { return Unsupported(__func__); }
HcclResult HcclSetCommConfig(HcclComm, HcclConfig, HcclConfigValue) { return Unsupported(__func__); }
HcclResult HcclGetCommConfig(HcclComm, HcclConfig, HcclConfigValue*) { return Unsupported(__func__); }
// No HcclCommConfig field is understood (HCCL_COMM_CONFIG_BUFFER_SIZE is the first one).
uint32_t HcclGetCommConfigCapability(void) {
  Unsupported(__func__);
  return HCCL_COMM_CONFIG_BUFFER_SIZE;
}

// ---- collectives
HcclResult HcclAllReduce(void*, void*, uint64_t, HcclDataType, HcclReduceOp, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclBroadcast(void*, uint64_t, HcclDataType, uint32_t, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclReduce(void*, void*, uint64_t, HcclDataType, HcclReduceOp, uint32_t, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclReduceScatter(void*, void*, uint64_t, HcclDataType, HcclReduceOp, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclReduceScatterV(void*, const void*, const void*, void*, uint64_t, HcclDataType, HcclReduceOp, HcclComm,
                              aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclScatter(void*, void*, uint64_t, HcclDataType, uint32_t, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclAllGather(void*, void*, uint64_t, HcclDataType, HcclComm, aclrtStream) { return Unsupported(__func__); }
HcclResult HcclAllGatherV(void*, uint64_t, void*, const void*, const void*, HcclDataType, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclAlltoAll(const void*, uint64_t, HcclDataType, const void*, uint64_t, HcclDataType, HcclComm,
                        aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclAlltoAllV(const void*, const void*, const void*, HcclDataType, const void*, const void*, const void*,
                         HcclDataType, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclAlltoAllVC(const void*, const void*, HcclDataType, const void*, HcclDataType, HcclComm, aclrtStream) {
  return Unsupported(__func__);
}
HcclResult HcclBarrier(HcclComm, aclrtStream) { return Unsupported(__func__); }

// ---- point to point
HcclResult HcclSend(void*, uint64_t, HcclDataType, uint32_t, HcclComm, aclrtStream) { return Unsupported(__func__); }
HcclResult HcclRecv(void*, uint64_t, HcclDataType, uint32_t, HcclComm, aclrtStream) { return Unsupported(__func__); }
HcclResult HcclBatchSendRecv(HcclSendRecvItem*, uint32_t, HcclComm, aclrtStream) { return Unsupported(__func__); }
HcclResult HcclGroupStart(void) { return Unsupported(__func__); }
HcclResult HcclGroupEnd(void) { return Unsupported(__func__); }

// ---- communicator memory
HcclResult HcclCommSetMemoryRange(HcclComm, void*, size_t, size_t, uint64_t) { return Unsupported(__func__); }
HcclResult HcclCommUnsetMemoryRange(HcclComm, void*) { return Unsupported(__func__); }
HcclResult HcclCommActivateCommMemory(HcclComm, void*, size_t, size_t, aclrtDrvMemHandle, uint64_t) {
  return Unsupported(__func__);
}
HcclResult HcclCommDeactivateCommMemory(HcclComm, void*) { return Unsupported(__func__); }
HcclResult HcclCommRegister(HcclComm, void*, uint64_t, void**, uint32_t) { return Unsupported(__func__); }
HcclResult HcclCommDeregister(HcclComm, void*) { return Unsupported(__func__); }
HcclResult HcclCommExchangeMem(HcclComm, void*, uint32_t*, uint32_t) { return Unsupported(__func__); }

}  // extern "C"
