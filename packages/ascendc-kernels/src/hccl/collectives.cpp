// The collectives over a communicator's links (see collectives.h).
#include "hccl/collectives.h"

#include <string.h>

#include <algorithm>
#include <vector>

#include "common/error.h"
#include "hccl/reduce.h"

namespace ascendc_sim {
namespace hccl {
namespace {

constexpr uint32_t kHeaderMagic = 0x48535450u;
constexpr size_t kChainChunkBytes = 256 * 1024;
// Peer reads: what a reduction reads from each rank at a time (a piece and its partial result
// stay in the core's L2 cache while they are combined), and what a copy reads at a time (a
// deadline check between pieces).
constexpr size_t kReducePieceBytes = 128 * 1024;
constexpr size_t kCopyPieceBytes = 4 * 1024 * 1024;

// What a rank says to a peer before a step.
struct StepHeader {
  uint32_t magic;
  uint32_t cmd;  // HcclCMDType; for point to point HCCL_CMD_SEND or HCCL_CMD_RECEIVE
  uint64_t sendCount;  // elements this rank sends to the peer (collectives: the call's count)
  uint64_t recvCount;  // elements it expects from the peer
  int32_t dataType;
  int32_t op;
  uint32_t root;
  uint32_t reserved;
  uint64_t sendAddress;  // the rank's buffers, for peers that read them directly (Comm::peerReads)
  uint64_t recvAddress;
};

const char* CommandName(uint32_t cmd) {
  switch (cmd) {
    case HCCL_CMD_BROADCAST: return "HcclBroadcast";
    case HCCL_CMD_ALLREDUCE: return "HcclAllReduce";
    case HCCL_CMD_REDUCE: return "HcclReduce";
    case HCCL_CMD_SEND: return "HcclSend";
    case HCCL_CMD_RECEIVE: return "HcclRecv";
    case HCCL_CMD_ALLGATHER: return "HcclAllGather";
    case HCCL_CMD_REDUCE_SCATTER: return "HcclReduceScatter";
    case HCCL_CMD_ALLTOALLV: return "HcclAlltoAllV";
    case HCCL_CMD_ALLTOALL: return "HcclAlltoAll";
    case HCCL_CMD_ALLTOALLVC: return "HcclAlltoAllVC";
    case HCCL_CMD_BATCH_SEND_RECV: return "HcclBatchSendRecv";
    case HCCL_CMD_BARRIER: return "HcclBarrier";
    case HCCL_CMD_ALLGATHER_V: return "HcclAllGatherV";
    case HCCL_CMD_REDUCE_SCATTER_V: return "HcclReduceScatterV";
    case HCCL_CMD_SCATTER: return "HcclScatter";
    default: return "an unknown call";
  }
}

StepHeader Header(HcclCMDType cmd, uint64_t count, HcclDataType dt, HcclReduceOp op = HCCL_REDUCE_SUM,
                  uint32_t root = 0) {
  return StepHeader{kHeaderMagic, static_cast<uint32_t>(cmd), count, count, dt, op, root, 0, 0, 0};
}

uint64_t Address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

// A step's header with the buffers peers may read.
StepHeader Header(HcclCMDType cmd, uint64_t count, HcclDataType dt, HcclReduceOp op, uint32_t root, const void* send,
                  const void* recv) {
  StepHeader h = Header(cmd, count, dt, op, root);
  h.sendAddress = Address(send);
  h.recvAddress = Address(recv);
  return h;
}

Clock::time_point Deadline(const Comm& c) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(c.execTimeoutSeconds));
}

bool Run(Comm& c, std::vector<Transfer>& sends, std::vector<Transfer>& recvs, Clock::time_point deadline,
         StepFailure* f) {
  return Exchange(c.links, sends, recvs, deadline, c.execTimeoutSeconds, f);
}

bool Mismatch(StepFailure* f, std::string message) {
  f->code = HCCL_E_PARA;
  f->message = std::move(message);
  return false;
}

// Compares what `peer` said with what this rank said to it.
bool Compare(const Comm& c, uint32_t peer, const StepHeader& mine, const StepHeader& theirs, StepFailure* f) {
  const uint32_t r = c.rank;
  if (theirs.magic != kHeaderMagic) {
    return Mismatch(f, StrFormat("rank %u sent something that is not a step header (the ranks lost step)", peer));
  }
  if (theirs.cmd != mine.cmd) {
    return Mismatch(f, StrFormat("rank %u called %s at this step, this rank (%u) %s", peer, CommandName(theirs.cmd), r,
                                 CommandName(mine.cmd)));
  }
  if (theirs.dataType != mine.dataType) {
    return Mismatch(f, StrFormat("data type %s on this rank (%u), %s on rank %u",
                                 DataTypeName(static_cast<HcclDataType>(mine.dataType)), r,
                                 DataTypeName(static_cast<HcclDataType>(theirs.dataType)), peer));
  }
  if (theirs.sendCount != mine.recvCount || theirs.recvCount != mine.sendCount) {
    if (mine.cmd == HCCL_CMD_SEND) {
      return Mismatch(f, StrFormat("this rank (%u) sends %llu elements to rank %u, which receives %llu", r,
                                   static_cast<unsigned long long>(mine.sendCount), peer,
                                   static_cast<unsigned long long>(theirs.recvCount)));
    }
    if (mine.cmd == HCCL_CMD_RECEIVE) {
      return Mismatch(f, StrFormat("rank %u sends %llu elements to this rank (%u), which receives %llu", peer,
                                   static_cast<unsigned long long>(theirs.sendCount), r,
                                   static_cast<unsigned long long>(mine.recvCount)));
    }
    if (mine.cmd == HCCL_CMD_ALLTOALLV || mine.cmd == HCCL_CMD_ALLTOALLVC || mine.cmd == HCCL_CMD_ALLGATHER_V ||
        mine.cmd == HCCL_CMD_REDUCE_SCATTER_V) {
      return Mismatch(f, StrFormat("rank %u sends %llu elements to this rank (%u), which expects %llu; "
                                   "this rank sends it %llu, it expects %llu",
                                   peer, static_cast<unsigned long long>(theirs.sendCount), r,
                                   static_cast<unsigned long long>(mine.recvCount),
                                   static_cast<unsigned long long>(mine.sendCount),
                                   static_cast<unsigned long long>(theirs.recvCount)));
    }
    return Mismatch(f, StrFormat("count %llu on this rank (%u), %llu on rank %u",
                                 static_cast<unsigned long long>(mine.sendCount), r,
                                 static_cast<unsigned long long>(theirs.sendCount), peer));
  }
  if (theirs.op != mine.op) {
    return Mismatch(f, StrFormat("reduction %s on this rank (%u), %s on rank %u",
                                 ReduceOpName(static_cast<HcclReduceOp>(mine.op)), r,
                                 ReduceOpName(static_cast<HcclReduceOp>(theirs.op)), peer));
  }
  if (theirs.root != mine.root) {
    return Mismatch(f, StrFormat("root %u on this rank (%u), %u on rank %u", mine.root, r, theirs.root, peer));
  }
  return true;
}

// Every rank tells every other what it is about to do (mine[p] to peer p) and checks their answers
// (kept in `*heard`, by rank, when given).
bool Agree(Comm& c, const std::vector<StepHeader>& mine, Clock::time_point deadline, StepFailure* f,
           std::vector<StepHeader>* heard = nullptr) {
  std::vector<StepHeader> theirs(c.nRanks);
  std::vector<Transfer> sends, recvs;
  for (uint32_t p = 0; p < c.nRanks; ++p) {
    if (p == c.rank) continue;
    sends.push_back({p, reinterpret_cast<uint8_t*>(const_cast<StepHeader*>(&mine[p])), sizeof(StepHeader)});
    recvs.push_back({p, reinterpret_cast<uint8_t*>(&theirs[p]), sizeof(StepHeader)});
  }
  if (!Run(c, sends, recvs, deadline, f)) return false;
  for (uint32_t p = 0; p < c.nRanks; ++p) {
    if (p != c.rank && !Compare(c, p, mine[p], theirs[p], f)) return false;
  }
  if (heard != nullptr) *heard = std::move(theirs);
  return true;
}

bool Agree(Comm& c, const StepHeader& header, Clock::time_point deadline, StepFailure* f,
           std::vector<StepHeader>* heard = nullptr) {
  return Agree(c, std::vector<StepHeader>(c.nRanks, header), deadline, f, heard);
}

// The peer's header of the transfer that meets this rank's, as this rank's kind (`cmd`) for Compare.
StepHeader Paired(StepHeader theirs, uint32_t cmd) {
  theirs.cmd = cmd;
  return theirs;
}

uint8_t* Bytes(const void* p) { return static_cast<uint8_t*>(const_cast<void*>(p)); }

// Chunk i of the ring holds elements [bounds[i], bounds[i + 1]).
std::vector<uint64_t> EvenBounds(uint64_t count, uint32_t n) {
  std::vector<uint64_t> b(n + 1);
  for (uint32_t i = 0; i <= n; ++i) b[i] = count * i / n;
  return b;
}

// Afterwards rank r holds chunk r reduced over all ranks (in `work`; the other chunks are partial).
bool RingReduceScatter(Comm& c, uint8_t* work, const std::vector<uint64_t>& b, size_t es, HcclDataType dt,
                       HcclReduceOp op, Clock::time_point deadline, StepFailure* f) {
  const uint32_t n = c.nRanks, r = c.rank;
  uint64_t largest = 0;
  for (uint32_t i = 0; i < n; ++i) largest = std::max(largest, b[i + 1] - b[i]);
  std::vector<uint8_t> incoming(largest * es);
  for (uint32_t s = 0; s + 1 < n; ++s) {
    const uint32_t si = (r + 2 * n - s - 1) % n, ri = (r + 2 * n - s - 2) % n;
    std::vector<Transfer> sends{{(r + 1) % n, work + b[si] * es, (b[si + 1] - b[si]) * es}};
    std::vector<Transfer> recvs{{(r + n - 1) % n, incoming.data(), (b[ri + 1] - b[ri]) * es}};
    if (!Run(c, sends, recvs, deadline, f)) return false;
    ReduceInto(work + b[ri] * es, incoming.data(), b[ri + 1] - b[ri], dt, op);
  }
  return true;
}

// From rank r holding chunk r, every rank holds every chunk.
bool RingAllGather(Comm& c, uint8_t* work, const std::vector<uint64_t>& b, size_t es, Clock::time_point deadline,
                   StepFailure* f) {
  const uint32_t n = c.nRanks, r = c.rank;
  for (uint32_t s = 0; s + 1 < n; ++s) {
    const uint32_t si = (r + n - s) % n, ri = (r + 2 * n - s - 1) % n;
    std::vector<Transfer> sends{{(r + 1) % n, work + b[si] * es, (b[si + 1] - b[si]) * es}};
    std::vector<Transfer> recvs{{(r + n - 1) % n, work + b[ri] * es, (b[ri + 1] - b[ri]) * es}};
    if (!Run(c, sends, recvs, deadline, f)) return false;
  }
  return true;
}

// Every rank's `bytes` into slot p of `all` (this rank's from `mine`), exchanged directly.
bool DirectGather(Comm& c, const uint8_t* mine, size_t bytes, uint8_t* all, Clock::time_point deadline,
                  StepFailure* f) {
  std::vector<Transfer> sends, recvs;
  for (uint32_t p = 0; p < c.nRanks; ++p) {
    if (p == c.rank) continue;
    sends.push_back({p, const_cast<uint8_t*>(mine), bytes});
    recvs.push_back({p, all + p * bytes, bytes});
  }
  if (all + c.rank * bytes != mine) memmove(all + c.rank * bytes, mine, bytes);
  return Run(c, sends, recvs, deadline, f);
}

// out = slot 0 (op) slot 1 (op) ... in rank order: the same bits on every rank.
void ReduceSlots(uint8_t* out, const uint8_t* all, uint32_t n, uint64_t count, size_t es, HcclDataType dt,
                 HcclReduceOp op) {
  memcpy(out, all, count * es);
  for (uint32_t p = 1; p < n; ++p) ReduceInto(out, all + p * count * es, count, dt, op);
}

// ---- Peer reads (Comm::peerReads): each rank reads what it needs from its peers' buffers, whose
// addresses came with the step's headers; handshakes say when buffers are ready or free. ----

bool PastDeadline(const Comm& c, Clock::time_point deadline, const char* doing, StepFailure* f) {
  if (Clock::now() < deadline) return false;
  f->code = HCCL_E_TIMEOUT;
  f->message = StrFormat("timed out after %g s (HCCL_EXEC_TIMEOUT) %s", c.execTimeoutSeconds, doing);
  return true;
}

bool ReadFrom(Comm& c, uint32_t peer, uint8_t* dst, uint64_t remote, size_t bytes, StepFailure* f) {
  std::string error;
  if (c.links[peer]->ReadPeer(dst, remote, bytes, &error)) return true;
  f->code = HCCL_E_REMOTE;
  f->message = error;
  return false;
}

// Every rank tells every other that it reached this point of the step (its result is there to be
// read; it no longer reads theirs).
bool Handshake(Comm& c, Clock::time_point deadline, StepFailure* f) {
  std::vector<uint64_t> out(c.nRanks, kHeaderMagic), in(c.nRanks);
  std::vector<Transfer> sends, recvs;
  for (uint32_t p = 0; p < c.nRanks; ++p) {
    if (p == c.rank) continue;
    sends.push_back({p, reinterpret_cast<uint8_t*>(&out[p]), sizeof(uint64_t)});
    recvs.push_back({p, reinterpret_cast<uint8_t*>(&in[p]), sizeof(uint64_t)});
  }
  return Run(c, sends, recvs, deadline, f);
}

// out[0, count) = slot 0 (op) slot 1 (op) ... in rank order, where slot p is the `count` elements at
// byte `offset` of rank p's buffer at `addresses[p]` (this rank's own at `local`): the same bits
// as the direct algorithm's, on every rank.
// Needs at least two ranks.
bool PeerReduce(Comm& c, const std::vector<uint64_t>& addresses, const uint8_t* local, uint64_t offset, uint8_t* out,
                uint64_t count, size_t es, HcclDataType dt, HcclReduceOp op, Clock::time_point deadline,
                StepFailure* f) {
  const uint64_t pieceCount = std::max<uint64_t>(1, kReducePieceBytes / es);
  const size_t pieceBytes = pieceCount * es;
  if (c.staging.size() < 3 * pieceBytes) c.staging.resize(3 * pieceBytes);
  uint8_t* const staged[2] = {c.staging.data(), c.staging.data() + pieceBytes};
  // The result builds up in `out` itself unless `out` overlaps this rank's own slot (in place): that
  // slot is read after the first ranks' slots were combined.
  const uintptr_t outBegin = Address(out), outEnd = outBegin + count * es;
  const uintptr_t mineBegin = Address(local + offset), mineEnd = mineBegin + count * es;
  const bool separate = outEnd <= mineBegin || mineEnd <= outBegin;
  for (uint64_t at = 0; at < count; at += pieceCount) {
    const uint64_t k = std::min(pieceCount, count - at);
    const size_t bytes = k * es, from = offset + at * es;
    // Rank p's piece: this rank's own in place, a peer's read into staging buffer `into`.
    auto slot = [&](uint32_t p, uint8_t* into, const uint8_t** piece) {
      if (p == c.rank) {
        *piece = local + from;
        return true;
      }
      *piece = into;
      return ReadFrom(c, p, into, addresses[p] + from, bytes, f);
    };
    uint8_t* const acc = separate ? out + at * es : c.staging.data() + 2 * pieceBytes;
    const uint8_t *first = nullptr, *next = nullptr;
    if (!slot(0, staged[0], &first) || !slot(1, staged[1], &next)) return false;
    ReduceTo(acc, first, next, k, dt, op);
    for (uint32_t p = 2; p < c.nRanks; ++p) {
      if (!slot(p, staged[1], &next)) return false;
      ReduceInto(acc, next, k, dt, op);
    }
    if (!separate) memcpy(out + at * es, acc, bytes);
    if (PastDeadline(c, deadline, "reducing the peers' buffers", f)) return false;
  }
  return true;
}

// `bytes` at `remote` in `peer`'s buffer into `dst`.
bool PeerCopy(Comm& c, uint32_t peer, uint8_t* dst, uint64_t remote, size_t bytes, Clock::time_point deadline,
              StepFailure* f) {
  for (size_t at = 0; at < bytes; at += kCopyPieceBytes) {
    if (!ReadFrom(c, peer, dst + at, remote + at, std::min(kCopyPieceBytes, bytes - at), f)) return false;
    if (PastDeadline(c, deadline, StrFormat("reading rank %u's buffer", peer).c_str(), f)) return false;
  }
  return true;
}

std::vector<uint64_t> SendAddresses(const std::vector<StepHeader>& heard) {
  std::vector<uint64_t> a(heard.size());
  for (size_t p = 0; p < heard.size(); ++p) a[p] = heard[p].sendAddress;
  return a;
}

}  // namespace

size_t DataTypeBytes(HcclDataType dt) {
  switch (dt) {
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_UINT8:
    case HCCL_DATA_TYPE_HIF8:
    case HCCL_DATA_TYPE_FP8E4M3:
    case HCCL_DATA_TYPE_FP8E5M2:
    case HCCL_DATA_TYPE_FP8E8M0: return 1;
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_UINT16:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_BFP16: return 2;
    case HCCL_DATA_TYPE_INT32:
    case HCCL_DATA_TYPE_UINT32:
    case HCCL_DATA_TYPE_FP32: return 4;
    case HCCL_DATA_TYPE_INT64:
    case HCCL_DATA_TYPE_UINT64:
    case HCCL_DATA_TYPE_FP64: return 8;
    case HCCL_DATA_TYPE_INT128: return 16;
    case HCCL_DATA_TYPE_RESERVED: break;
  }
  return 0;
}

const char* DataTypeName(HcclDataType dt) {
  switch (dt) {
    case HCCL_DATA_TYPE_INT8: return "HCCL_DATA_TYPE_INT8";
    case HCCL_DATA_TYPE_INT16: return "HCCL_DATA_TYPE_INT16";
    case HCCL_DATA_TYPE_INT32: return "HCCL_DATA_TYPE_INT32";
    case HCCL_DATA_TYPE_FP16: return "HCCL_DATA_TYPE_FP16";
    case HCCL_DATA_TYPE_FP32: return "HCCL_DATA_TYPE_FP32";
    case HCCL_DATA_TYPE_INT64: return "HCCL_DATA_TYPE_INT64";
    case HCCL_DATA_TYPE_UINT64: return "HCCL_DATA_TYPE_UINT64";
    case HCCL_DATA_TYPE_UINT8: return "HCCL_DATA_TYPE_UINT8";
    case HCCL_DATA_TYPE_UINT16: return "HCCL_DATA_TYPE_UINT16";
    case HCCL_DATA_TYPE_UINT32: return "HCCL_DATA_TYPE_UINT32";
    case HCCL_DATA_TYPE_FP64: return "HCCL_DATA_TYPE_FP64";
    case HCCL_DATA_TYPE_BFP16: return "HCCL_DATA_TYPE_BFP16";
    case HCCL_DATA_TYPE_INT128: return "HCCL_DATA_TYPE_INT128";
    case HCCL_DATA_TYPE_HIF8: return "HCCL_DATA_TYPE_HIF8";
    case HCCL_DATA_TYPE_FP8E4M3: return "HCCL_DATA_TYPE_FP8E4M3";
    case HCCL_DATA_TYPE_FP8E5M2: return "HCCL_DATA_TYPE_FP8E5M2";
    case HCCL_DATA_TYPE_FP8E8M0: return "HCCL_DATA_TYPE_FP8E8M0";
    case HCCL_DATA_TYPE_RESERVED: break;
  }
  return "an unknown data type";
}

const char* ReduceOpName(HcclReduceOp op) {
  switch (op) {
    case HCCL_REDUCE_SUM: return "HCCL_REDUCE_SUM";
    case HCCL_REDUCE_PROD: return "HCCL_REDUCE_PROD";
    case HCCL_REDUCE_MAX: return "HCCL_REDUCE_MAX";
    case HCCL_REDUCE_MIN: return "HCCL_REDUCE_MIN";
    case HCCL_REDUCE_RESERVED: break;
  }
  return "an unknown reduction";
}

bool Reducible(HcclDataType dt) {
  return DataTypeBytes(dt) != 0 && dt != HCCL_DATA_TYPE_INT128 && dt != HCCL_DATA_TYPE_HIF8 &&
         dt != HCCL_DATA_TYPE_FP8E4M3 && dt != HCCL_DATA_TYPE_FP8E5M2 && dt != HCCL_DATA_TYPE_FP8E8M0;
}

bool RunAllReduce(Comm& c, const void* send, void* recv, uint64_t count, HcclDataType dt, HcclReduceOp op,
                  StepFailure* f) {
  const auto deadline = Deadline(c);
  std::vector<StepHeader> heard;
  if (!Agree(c, Header(HCCL_CMD_ALLREDUCE, count, dt, op, 0, send, recv), deadline, f, &heard)) return false;
  const uint32_t n = c.nRanks, r = c.rank;
  const size_t es = DataTypeBytes(dt), bytes = count * es;
  if (n == 1 || bytes <= kDirectBytes || count < n) {
    std::vector<uint8_t> all(n * bytes);
    if (!DirectGather(c, Bytes(send), bytes, all.data(), deadline, f)) return false;
    ReduceSlots(Bytes(recv), all.data(), n, count, es, dt, op);
    return true;
  }
  const std::vector<uint64_t> b = EvenBounds(count, n);
  if (c.peerReads) {  // rank r reduces chunk r from everyone's input, then reads every other chunk
    uint8_t* out = Bytes(recv);
    if (!PeerReduce(c, SendAddresses(heard), Bytes(send), b[r] * es, out + b[r] * es, b[r + 1] - b[r], es, dt, op,
                    deadline, f) ||
        !Handshake(c, deadline, f)) {
      return false;
    }
    for (uint32_t p = 0; p < n; ++p) {
      if (p != r && !PeerCopy(c, p, out + b[p] * es, heard[p].recvAddress + b[p] * es, (b[p + 1] - b[p]) * es,
                              deadline, f)) {
        return false;
      }
    }
    return Handshake(c, deadline, f);
  }
  if (recv != send) memmove(recv, send, bytes);
  return RingReduceScatter(c, Bytes(recv), b, es, dt, op, deadline, f) &&
         RingAllGather(c, Bytes(recv), b, es, deadline, f);
}

bool RunReduceScatter(Comm& c, const void* send, void* recv, uint64_t recvCount, HcclDataType dt, HcclReduceOp op,
                      StepFailure* f) {
  const auto deadline = Deadline(c);
  std::vector<StepHeader> heard;
  if (!Agree(c, Header(HCCL_CMD_REDUCE_SCATTER, recvCount, dt, op, 0, send, recv), deadline, f, &heard)) return false;
  const uint32_t n = c.nRanks, r = c.rank;
  const size_t es = DataTypeBytes(dt), chunk = recvCount * es;
  const uint8_t* in = Bytes(send);
  if (n > 1 && chunk * n > kDirectBytes && c.peerReads) {
    return PeerReduce(c, SendAddresses(heard), in, r * chunk, Bytes(recv), recvCount, es, dt, op, deadline, f) &&
           Handshake(c, deadline, f);
  }
  if (n == 1 || chunk * n <= kDirectBytes) {
    std::vector<uint8_t> all(n * chunk);
    std::vector<Transfer> sends, recvs;
    for (uint32_t p = 0; p < n; ++p) {
      if (p == r) continue;
      sends.push_back({p, Bytes(in + p * chunk), chunk});
      recvs.push_back({p, all.data() + p * chunk, chunk});
    }
    memcpy(all.data() + r * chunk, in + r * chunk, chunk);
    if (!Run(c, sends, recvs, deadline, f)) return false;
    ReduceSlots(Bytes(recv), all.data(), n, recvCount, es, dt, op);
    return true;
  }
  std::vector<uint8_t> work(in, in + n * chunk);
  std::vector<uint64_t> b(n + 1);
  for (uint32_t i = 0; i <= n; ++i) b[i] = recvCount * i;
  if (!RingReduceScatter(c, work.data(), b, es, dt, op, deadline, f)) return false;
  memcpy(recv, work.data() + r * chunk, chunk);
  return true;
}

bool RunAllGather(Comm& c, const void* send, void* recv, uint64_t sendCount, HcclDataType dt, StepFailure* f) {
  const auto deadline = Deadline(c);
  std::vector<StepHeader> heard;
  if (!Agree(c, Header(HCCL_CMD_ALLGATHER, sendCount, dt, HCCL_REDUCE_SUM, 0, send, recv), deadline, f, &heard)) {
    return false;
  }
  const uint32_t n = c.nRanks, r = c.rank;
  const size_t es = DataTypeBytes(dt), chunk = sendCount * es;
  uint8_t* out = Bytes(recv);
  if (n == 1 || chunk * n <= kDirectBytes) return DirectGather(c, Bytes(send), chunk, out, deadline, f);
  memmove(out + r * chunk, send, chunk);
  if (c.peerReads) {
    for (uint32_t p = 0; p < n; ++p) {
      if (p != r && !PeerCopy(c, p, out + p * chunk, heard[p].sendAddress, chunk, deadline, f)) return false;
    }
    return Handshake(c, deadline, f);
  }
  std::vector<uint64_t> b(n + 1);
  for (uint32_t i = 0; i <= n; ++i) b[i] = sendCount * i;
  return RingAllGather(c, out, b, es, deadline, f);
}

bool RunBroadcast(Comm& c, void* buf, uint64_t count, HcclDataType dt, uint32_t root, StepFailure* f) {
  const auto deadline = Deadline(c);
  std::vector<StepHeader> heard;
  if (!Agree(c, Header(HCCL_CMD_BROADCAST, count, dt, HCCL_REDUCE_SUM, root, buf, buf), deadline, f, &heard)) {
    return false;
  }
  const uint32_t n = c.nRanks, r = c.rank;
  const size_t bytes = count * DataTypeBytes(dt);
  uint8_t* data = Bytes(buf);
  if (n > 1 && bytes > kDirectBytes && c.peerReads) {  // everyone reads the root's buffer
    if (r != root && !PeerCopy(c, root, data, heard[root].sendAddress, bytes, deadline, f)) return false;
    return Handshake(c, deadline, f);
  }
  std::vector<Transfer> sends, recvs;
  if (n <= 2 || bytes <= kDirectBytes) {  // root to everyone
    for (uint32_t p = 0; p < n; ++p) {
      if (r == root && p != r) sends.push_back({p, data, bytes});
    }
    if (r != root) recvs.push_back({root, data, bytes});
    return Run(c, sends, recvs, deadline, f);
  }
  // A chain from the root, chunk by chunk: each rank forwards chunk k - 1 while receiving chunk k.
  const uint32_t position = (r + n - root) % n, next = (r + 1) % n, prev = (r + n - 1) % n;
  if (position == 0) {
    sends.push_back({next, data, bytes});
    return Run(c, sends, recvs, deadline, f);
  }
  if (position == n - 1) {
    recvs.push_back({prev, data, bytes});
    return Run(c, sends, recvs, deadline, f);
  }
  const size_t chunks = (bytes + kChainChunkBytes - 1) / kChainChunkBytes;
  for (size_t k = 0; k <= chunks; ++k) {
    sends.clear();
    recvs.clear();
    if (k > 0) {
      const size_t at = (k - 1) * kChainChunkBytes;
      sends.push_back({next, data + at, std::min(kChainChunkBytes, bytes - at)});
    }
    if (k < chunks) {
      const size_t at = k * kChainChunkBytes;
      recvs.push_back({prev, data + at, std::min(kChainChunkBytes, bytes - at)});
    }
    if (!Run(c, sends, recvs, deadline, f)) return false;
  }
  return true;
}

bool RunReduce(Comm& c, const void* send, void* recv, uint64_t count, HcclDataType dt, HcclReduceOp op, uint32_t root,
               StepFailure* f) {
  const auto deadline = Deadline(c);
  if (!Agree(c, Header(HCCL_CMD_REDUCE, count, dt, op, root), deadline, f)) return false;
  const uint32_t n = c.nRanks, r = c.rank;
  const size_t es = DataTypeBytes(dt), bytes = count * es;
  std::vector<Transfer> sends, recvs;
  if (n == 1 || bytes <= kDirectBytes || count < n) {  // everyone to the root
    if (r != root) {
      sends.push_back({root, Bytes(send), bytes});
      return Run(c, sends, recvs, deadline, f);
    }
    std::vector<uint8_t> all(n * bytes);
    for (uint32_t p = 0; p < n; ++p) {
      if (p != r) recvs.push_back({p, all.data() + p * bytes, bytes});
    }
    memcpy(all.data() + r * bytes, send, bytes);
    if (!Run(c, sends, recvs, deadline, f)) return false;
    ReduceSlots(Bytes(recv), all.data(), n, count, es, dt, op);
    return true;
  }
  // A ring reduce-scatter, then every rank's reduced chunk to the root.
  std::vector<uint8_t> work(Bytes(send), Bytes(send) + bytes);
  const std::vector<uint64_t> b = EvenBounds(count, n);
  if (!RingReduceScatter(c, work.data(), b, es, dt, op, deadline, f)) return false;
  if (r != root) {
    sends.push_back({root, work.data() + b[r] * es, (b[r + 1] - b[r]) * es});
    return Run(c, sends, recvs, deadline, f);
  }
  uint8_t* out = Bytes(recv);
  for (uint32_t p = 0; p < n; ++p) {
    if (p != r) recvs.push_back({p, out + b[p] * es, (b[p + 1] - b[p]) * es});
  }
  memcpy(out + b[r] * es, work.data() + b[r] * es, (b[r + 1] - b[r]) * es);
  return Run(c, sends, recvs, deadline, f);
}

bool RunAlltoAllV(Comm& c, HcclCMDType cmd, const void* send, const uint64_t* sendCounts, const uint64_t* sdispls,
                  void* recv, const uint64_t* recvCounts, const uint64_t* rdispls, HcclDataType dt, StepFailure* f) {
  const auto deadline = Deadline(c);
  const uint32_t n = c.nRanks, r = c.rank;
  std::vector<StepHeader> mine(n);
  for (uint32_t p = 0; p < n; ++p) {
    mine[p] = Header(cmd, 0, dt);
    mine[p].sendCount = sendCounts[p];
    mine[p].recvCount = recvCounts[p];
  }
  if (!Agree(c, mine, deadline, f)) return false;
  if (sendCounts[r] != recvCounts[r]) {
    return Mismatch(f, StrFormat("this rank (%u) sends itself %llu elements but expects %llu", r,
                                 static_cast<unsigned long long>(sendCounts[r]),
                                 static_cast<unsigned long long>(recvCounts[r])));
  }
  const size_t es = DataTypeBytes(dt);
  const uint8_t* in = Bytes(send);
  std::vector<uint8_t> copy;
  if (send == recv) {  // in place: send from a copy
    uint64_t end = 0;
    for (uint32_t p = 0; p < n; ++p) end = std::max(end, sdispls[p] + sendCounts[p]);
    copy.assign(in, in + end * es);
    in = copy.data();
  }
  uint8_t* out = Bytes(recv);
  std::vector<Transfer> sends, recvs;
  for (uint32_t p = 0; p < n; ++p) {
    if (p == r) continue;
    sends.push_back({p, Bytes(in + sdispls[p] * es), sendCounts[p] * es});
    recvs.push_back({p, out + rdispls[p] * es, recvCounts[p] * es});
  }
  memmove(out + rdispls[r] * es, in + sdispls[r] * es, sendCounts[r] * es);
  return Run(c, sends, recvs, deadline, f);
}

bool RunAllGatherV(Comm& c, const void* send, uint64_t sendCount, void* recv, const uint64_t* recvCounts,
                   const uint64_t* recvDispls, HcclDataType dt, StepFailure* f) {
  const auto deadline = Deadline(c);
  const uint32_t n = c.nRanks, r = c.rank;
  std::vector<StepHeader> mine(n);
  for (uint32_t p = 0; p < n; ++p) {
    mine[p] = Header(HCCL_CMD_ALLGATHER_V, sendCount, dt);
    mine[p].recvCount = recvCounts[p];
  }
  if (!Agree(c, mine, deadline, f)) return false;
  if (sendCount != recvCounts[r]) {
    return Mismatch(f, StrFormat("this rank (%u) sends %llu elements but expects %llu of its own", r,
                                 static_cast<unsigned long long>(sendCount),
                                 static_cast<unsigned long long>(recvCounts[r])));
  }
  const size_t es = DataTypeBytes(dt);
  uint8_t* out = Bytes(recv);
  std::vector<Transfer> sends, recvs;
  for (uint32_t p = 0; p < n; ++p) {
    if (p == r) continue;
    sends.push_back({p, Bytes(send), sendCount * es});
    recvs.push_back({p, out + recvDispls[p] * es, recvCounts[p] * es});
  }
  if (!Run(c, sends, recvs, deadline, f)) return false;
  memmove(out + recvDispls[r] * es, send, sendCount * es);
  return true;
}

bool RunReduceScatterV(Comm& c, const void* send, const uint64_t* sendCounts, const uint64_t* sendDispls, void* recv,
                       uint64_t recvCount, HcclDataType dt, HcclReduceOp op, StepFailure* f) {
  const auto deadline = Deadline(c);
  const uint32_t n = c.nRanks, r = c.rank;
  std::vector<StepHeader> mine(n);
  for (uint32_t p = 0; p < n; ++p) {
    mine[p] = Header(HCCL_CMD_REDUCE_SCATTER_V, recvCount, dt, op);
    mine[p].sendCount = sendCounts[p];
  }
  if (!Agree(c, mine, deadline, f)) return false;
  if (sendCounts[r] != recvCount) {
    return Mismatch(f, StrFormat("this rank (%u) sends itself %llu elements but expects %llu", r,
                                 static_cast<unsigned long long>(sendCounts[r]),
                                 static_cast<unsigned long long>(recvCount)));
  }
  const size_t es = DataTypeBytes(dt), chunk = recvCount * es;
  const uint8_t* in = Bytes(send);
  std::vector<uint8_t> all(n * chunk);
  std::vector<Transfer> sends, recvs;
  for (uint32_t p = 0; p < n; ++p) {
    if (p == r) continue;
    sends.push_back({p, Bytes(in + sendDispls[p] * es), sendCounts[p] * es});
    recvs.push_back({p, all.data() + p * chunk, chunk});
  }
  memcpy(all.data() + r * chunk, in + sendDispls[r] * es, chunk);
  if (!Run(c, sends, recvs, deadline, f)) return false;
  ReduceSlots(Bytes(recv), all.data(), n, recvCount, es, dt, op);
  return true;
}

bool RunScatter(Comm& c, const void* send, void* recv, uint64_t recvCount, HcclDataType dt, uint32_t root,
                StepFailure* f) {
  const auto deadline = Deadline(c);
  if (!Agree(c, Header(HCCL_CMD_SCATTER, recvCount, dt, HCCL_REDUCE_SUM, root), deadline, f)) return false;
  const uint32_t n = c.nRanks, r = c.rank;
  const size_t chunk = recvCount * DataTypeBytes(dt);
  std::vector<Transfer> sends, recvs;
  if (r != root) {
    recvs.push_back({root, Bytes(recv), chunk});
    return Run(c, sends, recvs, deadline, f);
  }
  for (uint32_t p = 0; p < n; ++p) {
    if (p != r) sends.push_back({p, Bytes(send) + p * chunk, chunk});
  }
  if (!Run(c, sends, recvs, deadline, f)) return false;
  memmove(recv, Bytes(send) + r * chunk, chunk);
  return true;
}

bool RunBarrier(Comm& c, StepFailure* f) {
  return Agree(c, Header(HCCL_CMD_BARRIER, 0, HCCL_DATA_TYPE_INT8), Deadline(c), f);
}

bool RunSendRecv(Comm& c, HcclCMDType cmd, const HcclSendRecvItem* items, uint32_t n, StepFailure* f) {
  const auto deadline = Deadline(c);
  const uint32_t ranks = c.nRanks;
  // Per peer: how many sends to it and receives from it, then a header for each send, then one for
  // each receive. The k-th send of one rank meets the k-th receive of the other.
  struct Counts {
    uint64_t sends = 0, recvs = 0;
  };
  std::vector<std::vector<StepHeader>> mySends(ranks), myRecvs(ranks), mine(ranks), theirs(ranks);
  for (uint32_t i = 0; i < n; ++i) {
    const HcclSendRecvItem& it = items[i];
    StepHeader h = Header(it.sendRecvType == HCCL_SEND ? HCCL_CMD_SEND : HCCL_CMD_RECEIVE, 0, it.dataType);
    h.reserved = cmd;
    if (it.sendRecvType == HCCL_SEND) {
      h.sendCount = it.count;
      mySends[it.remoteRank].push_back(h);
    } else {
      h.recvCount = it.count;
      myRecvs[it.remoteRank].push_back(h);
    }
  }
  std::vector<Counts> myCounts(ranks), theirCounts(ranks);
  std::vector<Transfer> sends, recvs;
  for (uint32_t p = 0; p < ranks; ++p) {
    myCounts[p] = {mySends[p].size(), myRecvs[p].size()};
    if (mySends[p].empty() && myRecvs[p].empty()) continue;
    mine[p] = mySends[p];
    mine[p].insert(mine[p].end(), myRecvs[p].begin(), myRecvs[p].end());
    sends.push_back({p, reinterpret_cast<uint8_t*>(&myCounts[p]), sizeof(Counts)});
    recvs.push_back({p, reinterpret_cast<uint8_t*>(&theirCounts[p]), sizeof(Counts)});
  }
  if (!Run(c, sends, recvs, deadline, f)) return false;
  sends.clear();
  recvs.clear();
  for (uint32_t p = 0; p < ranks; ++p) {
    if (mine[p].empty()) continue;
    const Counts& m = myCounts[p];
    const Counts& t = theirCounts[p];
    if (t.sends != m.recvs || t.recvs != m.sends) {
      return Mismatch(f, StrFormat("this rank (%u) sends %llu times to rank %u and receives %llu times from it; "
                                   "rank %u sends %llu times to this rank and receives %llu times from it",
                                   c.rank, static_cast<unsigned long long>(m.sends), p,
                                   static_cast<unsigned long long>(m.recvs), p,
                                   static_cast<unsigned long long>(t.sends),
                                   static_cast<unsigned long long>(t.recvs)));
    }
    theirs[p].resize(t.sends + t.recvs);
    sends.push_back({p, reinterpret_cast<uint8_t*>(mine[p].data()), mine[p].size() * sizeof(StepHeader)});
    recvs.push_back({p, reinterpret_cast<uint8_t*>(theirs[p].data()), theirs[p].size() * sizeof(StepHeader)});
  }
  if (!Run(c, sends, recvs, deadline, f)) return false;
  for (uint32_t p = 0; p < ranks; ++p) {
    const uint64_t theirSends = theirCounts[p].sends;
    for (size_t k = 0; k < mySends[p].size(); ++k) {
      if (!Compare(c, p, mySends[p][k], Paired(theirs[p][theirSends + k], HCCL_CMD_SEND), f)) return false;
    }
    for (size_t k = 0; k < myRecvs[p].size(); ++k) {
      if (!Compare(c, p, myRecvs[p][k], Paired(theirs[p][k], HCCL_CMD_RECEIVE), f)) return false;
    }
  }
  sends.clear();
  recvs.clear();
  for (uint32_t i = 0; i < n; ++i) {
    const HcclSendRecvItem& it = items[i];
    Transfer t{it.remoteRank, static_cast<uint8_t*>(it.buf), it.count * DataTypeBytes(it.dataType)};
    (it.sendRecvType == HCCL_SEND ? sends : recvs).push_back(t);
  }
  return Run(c, sends, recvs, deadline, f);
}

}  // namespace hccl
}  // namespace ascendc_sim
