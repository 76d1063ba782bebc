// A communicator of the simulator's HCCL: this rank's place in the group, a link to every peer,
// the mappings and sockets it owns, and the first failure of its queued work (the asynchronous
// error HcclGetCommAsyncError reports).
#ifndef ASCENDC_SIM_HCCL_COMM_H
#define ASCENDC_SIM_HCCL_COMM_H

#include <stdint.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"
#include "hccl/transport.h"

namespace ascendc_sim {
namespace hccl {

// A mapping of a shared memory segment (a peer's or this rank's), unmapped with the communicator.
struct Mapping {
  void* base = nullptr;
  size_t bytes = 0;
};

struct Comm {
  uint32_t rank = 0;
  uint32_t nRanks = 1;
  int32_t device = 0;
  std::string name;
  double execTimeoutSeconds = 1800;
  std::vector<std::unique_ptr<Link>> links;  // by peer rank; null for this rank
  // Whether every rank reads every peer's buffers directly (Link::ReadPeer), decided together at
  // init so that all ranks run the same algorithm.
  bool peerReads = false;
  std::vector<Mapping> mappings;
  std::shared_ptr<void> localRings;  // the rings of communicators made together by HcclCommInitAll
  std::atomic<uint32_t>* closed = nullptr;  // what peers linked by rings watch; set on destruction

  std::mutex runMu;  // one step of this communicator at a time
  // Scratch of the steps that reduce peers' buffers piece by piece, kept between steps (a step holds
  // runMu) so that a call neither maps nor faults in fresh pages.
  std::vector<uint8_t> staging;
  std::atomic<int> queued{0};

  std::mutex errorMu;
  HcclResult asyncError = HCCL_SUCCESS;
  std::string asyncMessage;

  ~Comm();
  void Fail(HcclResult code, const std::string& message);
  HcclResult Failure(std::string* message);
};

// Seconds from HCCL_EXEC_TIMEOUT (default 1800, as torch_npu documents it) and HCCL_CONNECT_TIMEOUT (default 120).
double ExecTimeoutSeconds();
double ConnectTimeoutSeconds();

// Rank 0's part of forming a communicator: a listening socket and the job's identity.
HcclResult MakeRootInfo(HcclRootInfo* info);
// Joins the communicator `info` describes; blocks until all ranks joined or the connect timeout.
HcclResult JoinRootInfo(uint32_t nRanks, const HcclRootInfo& info, uint32_t rank, std::shared_ptr<Comm>* out);
// Joins the job a rank table (CANN's cluster information file) describes, as `rank`: rank 0
// listens at its server's address on HCCL_IF_BASE_PORT, the others connect to it there.
HcclResult JoinClusterInfo(const char* rankTable, uint32_t rank, std::shared_ptr<Comm>* out);
// Communicators of `devices` of this process, linked through plain memory.
HcclResult MakeLocalComms(uint32_t n, const int32_t* devices, std::vector<std::shared_ptr<Comm>>* out);

}  // namespace hccl
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_HCCL_COMM_H
