// How a rank moves bytes to and from each peer: a byte stream per direction (a ring in memory
// shared by the two ranks: plain memory between devices of one process, a shared memory segment
// between processes of one host; a TCP connection between hosts), and the progress loop that runs
// several transfers at once so that no collective deadlocks on a full ring.
#ifndef ASCENDC_SIM_HCCL_TRANSPORT_H
#define ASCENDC_SIM_HCCL_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace ascendc_sim {
namespace hccl {

using Clock = std::chrono::steady_clock;

// A single-producer, single-consumer byte ring. The header and the data live wherever the two
// ranks both see them (heap memory or a shared mapping); positions only grow.
struct alignas(64) RingHeader {
  std::atomic<uint64_t> head;  // bytes written (producer)
  char padHead[56];
  std::atomic<uint64_t> tail;  // bytes read (consumer)
  char padTail[56];
};
static_assert(sizeof(RingHeader) == 128, "a ring's header is two cache lines");

class Ring {
 public:
  Ring() = default;
  Ring(RingHeader* header, uint8_t* data, uint64_t capacity) : header_(header), data_(data), capacity_(capacity) {}
  size_t Write(const uint8_t* src, size_t n);
  size_t Read(uint8_t* dst, size_t n);

 private:
  RingHeader* header_ = nullptr;
  uint8_t* data_ = nullptr;
  uint64_t capacity_ = 0;
};

// One peer as seen by a rank: bytes to it and bytes from it, in order.
class Link {
 public:
  virtual ~Link() = default;
  // Bytes moved (0 when the link cannot take or give any now), or -1 with `*error` set.
  virtual ssize_t TrySend(const uint8_t* data, size_t n, std::string* error) = 0;
  virtual ssize_t TryRecv(uint8_t* data, size_t n, std::string* error) = 0;
  // Whether the peer can no longer answer (its process exited), and why.
  virtual bool PeerGone(std::string* why) = 0;
  // Copies `n` bytes at `remote`, an address in the peer's process, into `dst`: one device
  // reading another's memory directly, as devices of one host do. False, with `*error` set, when
  // the link cannot (then only its byte streams carry data) or the peer's memory is gone.
  virtual bool ReadPeer(uint8_t* dst, uint64_t remote, size_t n, std::string* error);
  virtual const char* kind() const = 0;
};

// Rings in memory both ranks map; `peerPid` (0: same process) and the peer's `peerClosed` flag
// (set when it destroys its communicator) tell when the peer is gone.
std::unique_ptr<Link> MakeRingLink(Ring out, Ring in, pid_t peerPid, const std::atomic<uint32_t>* peerClosed,
                                   uint32_t peer);
// A connected TCP socket (owned, closed with the link). It cannot read the peer's memory.
std::unique_ptr<Link> MakeTcpLink(int fd, uint32_t peer);

// One transfer of a step: `bytes` to or from `peer`. Transfers with one peer run in list order.
struct Transfer {
  uint32_t peer;
  uint8_t* data;
  size_t bytes;
  size_t done = 0;
};

// Why a step failed: HCCL's code and a sentence naming the peer.
struct StepFailure {
  HcclResult code = HCCL_SUCCESS;
  std::string message;
};

// Runs the sends and receives together until all are done. Fails when a link fails, a peer's
// process is gone or `deadline` passes (`timeoutSeconds` is only for the message).
bool Exchange(std::vector<std::unique_ptr<Link>>& links, std::vector<Transfer>& sends, std::vector<Transfer>& recvs,
              Clock::time_point deadline, double timeoutSeconds, StepFailure* failure);

// Whether process `pid` has exited (gone, or a zombie waiting for its parent).
bool ProcessGone(pid_t pid);

}  // namespace hccl
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_HCCL_TRANSPORT_H
