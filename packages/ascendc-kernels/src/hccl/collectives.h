// The collectives and point-to-point transfers of one communicator, as run when the stream
// reaches them. Each step starts with a small header to every peer it involves (the call, counts,
// data type, reduction, root): ranks that disagree fail with both values instead of exchanging
// garbage. Algorithms by size, as collective libraries choose them: below kDirectBytes every rank
// exchanges with every other directly (reductions then run in rank order, so every rank gets the
// same bits); above it, when the ranks read each other's memory (Comm::peerReads), each rank reads
// from its peers' buffers what it reduces or gathers; else a ring (reduce-scatter, all-gather) or a
// chain for broadcast.
#ifndef ASCENDC_SIM_HCCL_COLLECTIVES_H
#define ASCENDC_SIM_HCCL_COLLECTIVES_H

#include <stddef.h>
#include <stdint.h>

#include "hccl/comm.h"
#include "hccl/hccl_types.h"
#include "hccl/transport.h"

namespace ascendc_sim {
namespace hccl {

constexpr size_t kDirectBytes = 256 * 1024;

// Bytes of one element, 0 for a value that is not an HcclDataType.
size_t DataTypeBytes(HcclDataType dt);
const char* DataTypeName(HcclDataType dt);
const char* ReduceOpName(HcclReduceOp op);
// Whether the reductions handle `dt` (the 8-bit floating formats and int128 they do not).
bool Reducible(HcclDataType dt);

bool RunAllReduce(Comm& c, const void* send, void* recv, uint64_t count, HcclDataType dt, HcclReduceOp op,
                  StepFailure* f);
bool RunBroadcast(Comm& c, void* buf, uint64_t count, HcclDataType dt, uint32_t root, StepFailure* f);
bool RunReduce(Comm& c, const void* send, void* recv, uint64_t count, HcclDataType dt, HcclReduceOp op, uint32_t root,
               StepFailure* f);
bool RunAllGather(Comm& c, const void* send, void* recv, uint64_t sendCount, HcclDataType dt, StepFailure* f);
bool RunReduceScatter(Comm& c, const void* send, void* recv, uint64_t recvCount, HcclDataType dt, HcclReduceOp op,
                      StepFailure* f);
// Counts and displacements in elements, one per rank.
bool RunAlltoAllV(Comm& c, HcclCMDType cmd, const void* send, const uint64_t* sendCounts, const uint64_t* sdispls,
                  void* recv, const uint64_t* recvCounts, const uint64_t* rdispls, HcclDataType dt, StepFailure* f);
// Uneven variants, direct: rank p's block of the gather at recvDispls[p]; rank p reduces the
// blocks at sendDispls[p] of every rank.
bool RunAllGatherV(Comm& c, const void* send, uint64_t sendCount, void* recv, const uint64_t* recvCounts,
                   const uint64_t* recvDispls, HcclDataType dt, StepFailure* f);
bool RunReduceScatterV(Comm& c, const void* send, const uint64_t* sendCounts, const uint64_t* sendDispls, void* recv,
                       uint64_t recvCount, HcclDataType dt, HcclReduceOp op, StepFailure* f);
// The root's block p (recvCount elements at p * recvCount) to rank p.
bool RunScatter(Comm& c, const void* send, void* recv, uint64_t recvCount, HcclDataType dt, uint32_t root,
                StepFailure* f);
bool RunBarrier(Comm& c, StepFailure* f);
// Point to point: each item a send or a receive of `count` elements with `remoteRank`.
bool RunSendRecv(Comm& c, HcclCMDType cmd, const HcclSendRecvItem* items, uint32_t n, StepFailure* f);

}  // namespace hccl
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_HCCL_COLLECTIVES_H
