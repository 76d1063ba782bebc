// libhccl.so: HCCL's entry points (hccl/hccl.h) over the simulator's communicators (src/hccl/).
// Communicators form from a root info (ranks in processes of one or several hosts) or from the
// devices of one process; each collective is queued on its stream like a kernel and moves the
// data when the stream reaches it. What is not simulated returns HCCL_E_NOT_SUPPORT and names
// itself in aclGetRecentErrMsg(): a client such as torch_npu finds every function it looks up and
// learns why a call cannot run, instead of a missing symbol or a call that silently does nothing.
#include "hccl/hccl.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/error.h"
#include "hccl/collectives.h"
#include "hccl/comm.h"
#include "runtime/host_work.h"

namespace {

using ascendc_sim::SetRecentError;
using ascendc_sim::StrFormat;
using ascendc_sim::hccl::Comm;
using ascendc_sim::hccl::StepFailure;

// What a stream reports when a collective on it failed: CANN's ACL_ERROR_RT_LINK_ERROR (the link
// between two devices broke).
constexpr aclError kLinkError = 507056;

// Sets the message only: HCCL's codes are not ACL's, so the thread's last ACL error
// (aclrtGetLastError) stays what the runtime left.
HcclResult Unsupported(const char* api) {
  SetRecentError(StrFormat("%s is not supported by the simulator", api));
  return HCCL_E_NOT_SUPPORT;
}

HcclResult Raise(HcclResult code, const std::string& message) {
  SetRecentError(message);
  return code;
}

// The live communicators; a queued collective holds its own reference, so destroying a
// communicator never pulls it from under work still on a stream.
std::mutex gCommsMu;
std::map<HcclComm, std::shared_ptr<Comm>> gComms;

HcclComm Register(std::shared_ptr<Comm> comm) {
  HcclComm handle = comm.get();
  std::lock_guard<std::mutex> lock(gCommsMu);
  gComms[handle] = std::move(comm);
  return handle;
}

HcclResult Find(HcclComm handle, const char* api, std::shared_ptr<Comm>* out) {
  std::lock_guard<std::mutex> lock(gCommsMu);
  auto it = gComms.find(handle);
  if (it == gComms.end()) return Raise(HCCL_E_PARA, StrFormat("%s: comm %p is not a live communicator", api, handle));
  *out = it->second;
  return HCCL_SUCCESS;
}

HcclResult CheckType(const char* api, const char* arg, HcclDataType dt) {
  if (ascendc_sim::hccl::DataTypeBytes(dt) == 0) {
    return Raise(HCCL_E_PARA, StrFormat("%s: %s %d is not an HcclDataType", api, arg, static_cast<int>(dt)));
  }
  return HCCL_SUCCESS;
}

HcclResult CheckReduction(const char* api, HcclDataType dt, HcclReduceOp op) {
  if (HcclResult rc = CheckType(api, "dataType", dt); rc != HCCL_SUCCESS) return rc;
  if (op != HCCL_REDUCE_SUM && op != HCCL_REDUCE_PROD && op != HCCL_REDUCE_MAX && op != HCCL_REDUCE_MIN) {
    return Raise(HCCL_E_PARA, StrFormat("%s: op %d is not an HcclReduceOp (HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, "
                                        "HCCL_REDUCE_MAX, HCCL_REDUCE_MIN)", api, static_cast<int>(op)));
  }
  if (!ascendc_sim::hccl::Reducible(dt)) {
    return Raise(HCCL_E_NOT_SUPPORT, StrFormat("%s: dataType %s cannot be reduced (op %s)", api,
                                               ascendc_sim::hccl::DataTypeName(dt),
                                               ascendc_sim::hccl::ReduceOpName(op)));
  }
  return HCCL_SUCCESS;
}

HcclResult CheckBuffer(const char* api, const char* arg, const void* buf, uint64_t count) {
  if (buf == nullptr && count > 0) return Raise(HCCL_E_PTR, StrFormat("%s: %s is null", api, arg));
  return HCCL_SUCCESS;
}

HcclResult CheckRoot(const char* api, const Comm& comm, uint32_t root, const char* arg = "root") {
  if (root >= comm.nRanks) {
    return Raise(HCCL_E_PARA, StrFormat("%s: %s %u is not a rank of the communicator (%u ranks)", api, arg, root,
                                        comm.nRanks));
  }
  return HCCL_SUCCESS;
}

// One uint64 per rank of the caller's array, copied now: the step reads it when the stream runs it.
std::vector<uint64_t> RankArray(const Comm& comm, const void* values) {
  const auto* v = static_cast<const uint64_t*>(values);
  return std::vector<uint64_t>(v, v + comm.nRanks);
}

uint64_t Total(const std::vector<uint64_t>& counts) {
  uint64_t sum = 0;
  for (uint64_t c : counts) sum += c;
  return sum;
}

// Queues `step` on `stream`: it runs when the stream reaches it. A failure fails the stream (as a
// failed kernel does) and becomes the communicator's asynchronous error; later steps then fail
// at once.
HcclResult Enqueue(const char* api, const std::shared_ptr<Comm>& comm, aclrtStream stream,
                   std::function<bool(Comm&, StepFailure*)> step) {
  std::string earlier;
  if (HcclResult failed = comm->Failure(&earlier); failed != HCCL_SUCCESS) {
    return Raise(failed, StrFormat("%s: the communicator failed earlier: %s", api, earlier.c_str()));
  }
  ++comm->queued;
  const aclError rc = ascendc_sim::SubmitHostWork(stream, api, [comm, api, step](std::string* message) -> aclError {
    struct Done {
      Comm& c;
      ~Done() { --c.queued; }
    } done{*comm};
    std::lock_guard<std::mutex> lock(comm->runMu);
    std::string earlier;
    if (comm->Failure(&earlier) != HCCL_SUCCESS) {
      *message = StrFormat("%s on rank %u of %s: the communicator failed earlier: %s", api, comm->rank,
                           comm->name.c_str(), earlier.c_str());
      return kLinkError;
    }
    StepFailure f;
    if (step(*comm, &f)) return ACL_SUCCESS;
    *message = StrFormat("%s on rank %u of %s failed: %s", api, comm->rank, comm->name.c_str(), f.message.c_str());
    comm->Fail(f.code, *message);
    return kLinkError;
  });
  if (rc == ACL_SUCCESS) return HCCL_SUCCESS;
  // Under ASCEND_LAUNCH_BLOCKING the step ran and its failure is the communicator's.
  if (HcclResult failed = comm->Failure(nullptr); failed != HCCL_SUCCESS) return failed;
  --comm->queued;
  return HCCL_E_RUNTIME;
}

// The communicator, or the status of a bad handle.
#define FIND_COMM(api, handle, comm)                                   \
  std::shared_ptr<Comm> comm;                                          \
  if (HcclResult found = Find(handle, api, &comm); found != HCCL_SUCCESS) \
  return found

#define CHECK(expr)                                          \
  if (HcclResult checked = (expr); checked != HCCL_SUCCESS) \
  return checked

// The point-to-point calls between HcclGroupStart and HcclGroupEnd of this thread, by communicator
// and stream: each set becomes one step, as HcclBatchSendRecv's items (so a rank may send and
// receive in any order within the group without a deadlock).
struct GroupedTransfers {
  HcclComm comm;
  aclrtStream stream;
  std::vector<HcclSendRecvItem> items;
};
thread_local int gGroupDepth = 0;
thread_local std::vector<GroupedTransfers> gGrouped;

HcclResult QueueTransfers(const char* api, HcclComm handle, HcclCMDType cmd, std::vector<HcclSendRecvItem> items,
                          aclrtStream stream) {
  FIND_COMM(api, handle, comm);
  for (size_t i = 0; i < items.size(); ++i) {
    const HcclSendRecvItem& it = items[i];
    if (it.sendRecvType != HCCL_SEND && it.sendRecvType != HCCL_RECV) {
      return Raise(HCCL_E_PARA, StrFormat("%s: item %zu: sendRecvType %d is neither HCCL_SEND nor HCCL_RECV", api, i,
                                          static_cast<int>(it.sendRecvType)));
    }
    CHECK(CheckType(api, "dataType", it.dataType));
    CHECK(CheckBuffer(api, it.sendRecvType == HCCL_SEND ? "sendBuf" : "recvBuf", it.buf, it.count));
    CHECK(CheckRoot(api, *comm, it.remoteRank, it.sendRecvType == HCCL_SEND ? "destRank" : "srcRank"));
    if (it.remoteRank == comm->rank) {
      return Raise(HCCL_E_PARA, StrFormat("%s: rank %u cannot exchange with itself", api, comm->rank));
    }
  }
  if (gGroupDepth > 0) {  // HcclGroupEnd queues them, with the group's other transfers on this comm and stream
    for (GroupedTransfers& g : gGrouped) {
      if (g.comm == handle && g.stream == stream) {
        g.items.insert(g.items.end(), items.begin(), items.end());
        return HCCL_SUCCESS;
      }
    }
    gGrouped.push_back({handle, stream, std::move(items)});
    return HCCL_SUCCESS;
  }
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunSendRecv(c, cmd, items.data(), static_cast<uint32_t>(items.size()), f);
  });
}

}  // namespace

extern "C" {

// ---- communicators
HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
  if (rootInfo == nullptr) return Raise(HCCL_E_PTR, "HcclGetRootInfo: rootInfo is null");
  return ascendc_sim::hccl::MakeRootInfo(rootInfo);
}
HcclResult HcclGetRootInfoScalable(HcclRootInfo*) { return Unsupported(__func__); }

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank, HcclComm* comm) {
  if (rootInfo == nullptr) return Raise(HCCL_E_PTR, "HcclCommInitRootInfo: rootInfo is null");
  if (comm == nullptr) return Raise(HCCL_E_PTR, "HcclCommInitRootInfo: comm is null");
  if (nRanks == 0 || rank >= nRanks) {
    return Raise(HCCL_E_PARA, StrFormat("HcclCommInitRootInfo: rank %u is not below nRanks %u", rank, nRanks));
  }
  std::shared_ptr<Comm> made;
  HcclResult rc = ascendc_sim::hccl::JoinRootInfo(nRanks, *rootInfo, rank, &made);
  if (rc != HCCL_SUCCESS) return rc;
  *comm = Register(std::move(made));
  return HCCL_SUCCESS;
}

// The configuration's fields are not read (HcclGetCommConfigCapability says none is understood).
HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                      const HcclCommConfig*, HcclComm* comm) {
  return HcclCommInitRootInfo(nRanks, rootInfo, rank, comm);
}
HcclResult HcclCommInitRootInfoScalable(uint32_t, uint32_t, const HcclRootInfo*, uint32_t, uint32_t,
                                        const HcclCommConfig*, HcclComm*) {
  return Unsupported(__func__);
}
HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) {
  if (clusterInfo == nullptr) return Raise(HCCL_E_PTR, "HcclCommInitClusterInfo: clusterInfo is null");
  if (comm == nullptr) return Raise(HCCL_E_PTR, "HcclCommInitClusterInfo: comm is null");
  std::shared_ptr<Comm> made;
  HcclResult rc = ascendc_sim::hccl::JoinClusterInfo(clusterInfo, rank, &made);
  if (rc != HCCL_SUCCESS) return rc;
  *comm = Register(std::move(made));
  return HCCL_SUCCESS;
}
// As for HcclCommInitRootInfoConfig, the configuration's fields are not read.
HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank, HcclCommConfig*, HcclComm* comm) {
  return HcclCommInitClusterInfo(clusterInfo, rank, comm);
}

HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
  if (devices == nullptr || comms == nullptr) {
    return Raise(HCCL_E_PTR, StrFormat("HcclCommInitAll: %s is null", devices == nullptr ? "devices" : "comms"));
  }
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS) count = 0;
  if (ndev == 0 || ndev > count) {
    return Raise(HCCL_E_PARA, StrFormat("HcclCommInitAll: ndev %u is not between 1 and the device count %u", ndev,
                                        count));
  }
  std::set<int32_t> seen;
  for (uint32_t i = 0; i < ndev; ++i) {
    if (devices[i] < 0 || static_cast<uint32_t>(devices[i]) >= count || !seen.insert(devices[i]).second) {
      return Raise(HCCL_E_PARA, StrFormat("HcclCommInitAll: devices[%u] = %d is not a device, or repeats one", i,
                                          devices[i]));
    }
  }
  std::vector<std::shared_ptr<Comm>> made;
  HcclResult rc = ascendc_sim::hccl::MakeLocalComms(ndev, devices, &made);
  if (rc != HCCL_SUCCESS) return rc;
  for (uint32_t i = 0; i < ndev; ++i) comms[i] = Register(std::move(made[i]));
  return HCCL_SUCCESS;
}

HcclResult HcclCreateSubCommConfig(HcclComm*, uint32_t, uint32_t*, uint64_t, uint32_t, HcclCommConfig*, HcclComm*) {
  return Unsupported(__func__);
}

// Waits (at most HCCL_EXEC_TIMEOUT) for the communicator's queued work, then closes its links and
// unmaps its memory.
HcclResult HcclCommDestroy(HcclComm handle) {
  std::shared_ptr<Comm> comm;
  {
    std::lock_guard<std::mutex> lock(gCommsMu);
    auto it = gComms.find(handle);
    if (it == gComms.end()) {
      return Raise(HCCL_E_PARA, StrFormat("HcclCommDestroy: comm %p is not a live communicator", handle));
    }
    comm = std::move(it->second);
    gComms.erase(it);
  }
  using Clock = std::chrono::steady_clock;
  const std::chrono::duration<double> timeout(comm->execTimeoutSeconds);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout);
  while (comm->queued.load() > 0 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return HCCL_SUCCESS;
}
HcclResult HcclCommSuspend(HcclComm) { return Unsupported(__func__); }
HcclResult HcclCommResume(HcclComm) { return Unsupported(__func__); }
HcclResult HcclCommWorkingDevNicSet(HcclComm, uint32_t*, bool*, uint32_t) { return Unsupported(__func__); }

// ---- what a communicator is
HcclResult HcclGetRankSize(HcclComm handle, uint32_t* rankSize) {
  FIND_COMM("HcclGetRankSize", handle, comm);
  if (rankSize == nullptr) return Raise(HCCL_E_PTR, "HcclGetRankSize: rankSize is null");
  *rankSize = comm->nRanks;
  return HCCL_SUCCESS;
}
HcclResult HcclGetRankId(HcclComm handle, uint32_t* rank) {
  FIND_COMM("HcclGetRankId", handle, comm);
  if (rank == nullptr) return Raise(HCCL_E_PTR, "HcclGetRankId: rank is null");
  *rank = comm->rank;
  return HCCL_SUCCESS;
}
HcclResult HcclGetCommName(HcclComm handle, char* commName) {
  FIND_COMM("HcclGetCommName", handle, comm);
  if (commName == nullptr) return Raise(HCCL_E_PTR, "HcclGetCommName: commName is null");
  snprintf(commName, COMM_NAME_MAX_LENGTH, "%s", comm->name.c_str());
  return HCCL_SUCCESS;
}
HcclResult HcclGetCommAsyncError(HcclComm handle, HcclResult* asyncError) {
  FIND_COMM("HcclGetCommAsyncError", handle, comm);
  if (asyncError == nullptr) return Raise(HCCL_E_PTR, "HcclGetCommAsyncError: asyncError is null");
  std::string message;
  *asyncError = comm->Failure(&message);
  if (*asyncError != HCCL_SUCCESS) SetRecentError(message);
  return HCCL_SUCCESS;
}

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
HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm handle, aclrtStream stream) {
  const char* api = "HcclAllReduce";
  FIND_COMM(api, handle, comm);
  CHECK(CheckReduction(api, dataType, op));
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, count));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, count));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunAllReduce(c, sendBuf, recvBuf, count, dataType, op, f);
  });
}

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm handle,
                         aclrtStream stream) {
  const char* api = "HcclBroadcast";
  FIND_COMM(api, handle, comm);
  CHECK(CheckType(api, "dataType", dataType));
  CHECK(CheckBuffer(api, "buf", buf, count));
  CHECK(CheckRoot(api, *comm, root));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunBroadcast(c, buf, count, dataType, root, f);
  });
}

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                      uint32_t root, HcclComm handle, aclrtStream stream) {
  const char* api = "HcclReduce";
  FIND_COMM(api, handle, comm);
  CHECK(CheckReduction(api, dataType, op));
  CHECK(CheckRoot(api, *comm, root));
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, count));
  if (comm->rank == root) CHECK(CheckBuffer(api, "recvBuf", recvBuf, count));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunReduce(c, sendBuf, recvBuf, count, dataType, op, root, f);
  });
}

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                             HcclReduceOp op, HcclComm handle, aclrtStream stream) {
  const char* api = "HcclReduceScatter";
  FIND_COMM(api, handle, comm);
  CHECK(CheckReduction(api, dataType, op));
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, recvCount));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, recvCount));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunReduceScatter(c, sendBuf, recvBuf, recvCount, dataType, op, f);
  });
}
HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls, void* recvBuf,
                              uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm handle,
                              aclrtStream stream) {
  const char* api = "HcclReduceScatterV";
  FIND_COMM(api, handle, comm);
  CHECK(CheckReduction(api, dataType, op));
  if (sendCounts == nullptr || sendDispls == nullptr) {
    return Raise(HCCL_E_PTR, StrFormat("%s: %s is null", api, sendCounts == nullptr ? "sendCounts" : "sendDispls"));
  }
  std::vector<uint64_t> counts = RankArray(*comm, sendCounts), displs = RankArray(*comm, sendDispls);
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, Total(counts)));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, recvCount));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunReduceScatterV(c, sendBuf, counts.data(), displs.data(), recvBuf, recvCount,
                                                dataType, op, f);
  });
}

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root,
                       HcclComm handle, aclrtStream stream) {
  const char* api = "HcclScatter";
  FIND_COMM(api, handle, comm);
  CHECK(CheckType(api, "dataType", dataType));
  CHECK(CheckRoot(api, *comm, root));
  if (comm->rank == root) CHECK(CheckBuffer(api, "sendBuf", sendBuf, recvCount));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, recvCount));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunScatter(c, sendBuf, recvBuf, recvCount, dataType, root, f);
  });
}

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm handle,
                         aclrtStream stream) {
  const char* api = "HcclAllGather";
  FIND_COMM(api, handle, comm);
  CHECK(CheckType(api, "dataType", dataType));
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, sendCount));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, sendCount));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunAllGather(c, sendBuf, recvBuf, sendCount, dataType, f);
  });
}
HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts,
                          const void* recvDispls, HcclDataType dataType, HcclComm handle, aclrtStream stream) {
  const char* api = "HcclAllGatherV";
  FIND_COMM(api, handle, comm);
  CHECK(CheckType(api, "dataType", dataType));
  if (recvCounts == nullptr || recvDispls == nullptr) {
    return Raise(HCCL_E_PTR, StrFormat("%s: %s is null", api, recvCounts == nullptr ? "recvCounts" : "recvDispls"));
  }
  std::vector<uint64_t> counts = RankArray(*comm, recvCounts), displs = RankArray(*comm, recvDispls);
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, sendCount));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, Total(counts)));
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunAllGatherV(c, sendBuf, sendCount, recvBuf, counts.data(), displs.data(), dataType,
                                            f);
  });
}

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf,
                        uint64_t recvCount, HcclDataType recvType, HcclComm handle, aclrtStream stream) {
  const char* api = "HcclAlltoAll";
  FIND_COMM(api, handle, comm);
  CHECK(CheckType(api, "sendType", sendType));
  CHECK(CheckType(api, "recvType", recvType));
  if (sendType != recvType || sendCount != recvCount) {
    return Raise(HCCL_E_PARA, StrFormat("%s: sendCount %llu of %s and recvCount %llu of %s differ", api,
                                        static_cast<unsigned long long>(sendCount),
                                        ascendc_sim::hccl::DataTypeName(sendType),
                                        static_cast<unsigned long long>(recvCount),
                                        ascendc_sim::hccl::DataTypeName(recvType)));
  }
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, sendCount));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, recvCount));
  const uint32_t n = comm->nRanks;
  std::vector<uint64_t> counts(n, sendCount), displs(n);
  for (uint32_t p = 0; p < n; ++p) displs[p] = p * sendCount;
  void* recv = const_cast<void*>(recvBuf);
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunAlltoAllV(c, HCCL_CMD_ALLTOALL, sendBuf, counts.data(), displs.data(), recv,
                                           counts.data(), displs.data(), sendType, f);
  });
}

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls, HcclDataType sendType,
                         const void* recvBuf, const void* recvCounts, const void* rdispls, HcclDataType recvType,
                         HcclComm handle, aclrtStream stream) {
  const char* api = "HcclAlltoAllV";
  FIND_COMM(api, handle, comm);
  CHECK(CheckType(api, "sendType", sendType));
  CHECK(CheckType(api, "recvType", recvType));
  if (sendType != recvType) {
    return Raise(HCCL_E_PARA, StrFormat("%s: sendType %s and recvType %s differ", api,
                                        ascendc_sim::hccl::DataTypeName(sendType),
                                        ascendc_sim::hccl::DataTypeName(recvType)));
  }
  if (sendCounts == nullptr || sdispls == nullptr || recvCounts == nullptr || rdispls == nullptr) {
    return Raise(HCCL_E_PTR, StrFormat("%s: a count or displacement array is null", api));
  }
  std::vector<uint64_t> sc = RankArray(*comm, sendCounts), sd = RankArray(*comm, sdispls);
  std::vector<uint64_t> rc = RankArray(*comm, recvCounts), rd = RankArray(*comm, rdispls);
  const uint64_t sent = Total(sc), received = Total(rc);
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, sent));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, received));
  void* recv = const_cast<void*>(recvBuf);
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunAlltoAllV(c, HCCL_CMD_ALLTOALLV, sendBuf, sc.data(), sd.data(), recv, rc.data(),
                                           rd.data(), sendType, f);
  });
}
// sendCountMatrix[i * nRanks + j]: what rank i sends rank j; each block follows the previous one.
HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix, HcclDataType sendType,
                          const void* recvBuf, HcclDataType recvType, HcclComm handle, aclrtStream stream) {
  const char* api = "HcclAlltoAllVC";
  FIND_COMM(api, handle, comm);
  CHECK(CheckType(api, "sendType", sendType));
  CHECK(CheckType(api, "recvType", recvType));
  if (sendType != recvType) {
    return Raise(HCCL_E_PARA, StrFormat("%s: sendType %s and recvType %s differ", api,
                                        ascendc_sim::hccl::DataTypeName(sendType),
                                        ascendc_sim::hccl::DataTypeName(recvType)));
  }
  if (sendCountMatrix == nullptr) return Raise(HCCL_E_PTR, StrFormat("%s: sendCountMatrix is null", api));
  const uint32_t n = comm->nRanks, r = comm->rank;
  const auto* matrix = static_cast<const uint64_t*>(sendCountMatrix);
  std::vector<uint64_t> sc(n), sd(n), rc(n), rd(n);
  for (uint32_t p = 0; p < n; ++p) {
    sc[p] = matrix[r * n + p];
    rc[p] = matrix[p * n + r];
    if (p > 0) {
      sd[p] = sd[p - 1] + sc[p - 1];
      rd[p] = rd[p - 1] + rc[p - 1];
    }
  }
  CHECK(CheckBuffer(api, "sendBuf", sendBuf, Total(sc)));
  CHECK(CheckBuffer(api, "recvBuf", recvBuf, Total(rc)));
  void* recv = const_cast<void*>(recvBuf);
  return Enqueue(api, comm, stream, [=](Comm& c, StepFailure* f) {
    return ascendc_sim::hccl::RunAlltoAllV(c, HCCL_CMD_ALLTOALLVC, sendBuf, sc.data(), sd.data(), recv, rc.data(),
                                           rd.data(), sendType, f);
  });
}

HcclResult HcclBarrier(HcclComm handle, aclrtStream stream) {
  const char* api = "HcclBarrier";
  FIND_COMM(api, handle, comm);
  return Enqueue(api, comm, stream, [](Comm& c, StepFailure* f) { return ascendc_sim::hccl::RunBarrier(c, f); });
}

// ---- point to point
HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream) {
  return QueueTransfers("HcclSend", comm, HCCL_CMD_SEND, {{HCCL_SEND, sendBuf, count, dataType, destRank}}, stream);
}
HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream) {
  return QueueTransfers("HcclRecv", comm, HCCL_CMD_RECEIVE, {{HCCL_RECV, recvBuf, count, dataType, srcRank}},
                        stream);
}
HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm, aclrtStream stream) {
  if (sendRecvInfo == nullptr && itemNum > 0) return Raise(HCCL_E_PTR, "HcclBatchSendRecv: sendRecvInfo is null");
  return QueueTransfers("HcclBatchSendRecv", comm, HCCL_CMD_BATCH_SEND_RECV,
                        std::vector<HcclSendRecvItem>(sendRecvInfo, sendRecvInfo + itemNum), stream);
}
// Groups point-to-point calls (collectives inside a group are queued when called).
HcclResult HcclGroupStart(void) {
  ++gGroupDepth;
  return HCCL_SUCCESS;
}
HcclResult HcclGroupEnd(void) {
  if (gGroupDepth == 0) return Raise(HCCL_E_PARA, "HcclGroupEnd: no HcclGroupStart before it");
  if (--gGroupDepth > 0) return HCCL_SUCCESS;
  std::vector<GroupedTransfers> grouped;
  grouped.swap(gGrouped);
  HcclResult first = HCCL_SUCCESS;
  for (GroupedTransfers& g : grouped) {
    const HcclResult rc =
        QueueTransfers("HcclGroupEnd", g.comm, HCCL_CMD_BATCH_SEND_RECV, std::move(g.items), g.stream);
    if (first == HCCL_SUCCESS) first = rc;
  }
  return first;
}

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
