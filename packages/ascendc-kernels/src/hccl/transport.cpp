// Rings, TCP links and the progress loop of a collective step.
#include "hccl/transport.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "common/error.h"

namespace ascendc_sim {
namespace hccl {

size_t Ring::Write(const uint8_t* src, size_t n) {
  const uint64_t head = header_->head.load(std::memory_order_relaxed);
  const uint64_t tail = header_->tail.load(std::memory_order_acquire);
  const size_t k = std::min<uint64_t>(n, capacity_ - (head - tail));
  if (k == 0) return 0;
  const size_t at = head % capacity_;
  const size_t first = std::min<size_t>(k, capacity_ - at);
  memcpy(data_ + at, src, first);
  memcpy(data_, src + first, k - first);
  header_->head.store(head + k, std::memory_order_release);
  return k;
}

size_t Ring::Read(uint8_t* dst, size_t n) {
  const uint64_t tail = header_->tail.load(std::memory_order_relaxed);
  const uint64_t head = header_->head.load(std::memory_order_acquire);
  const size_t k = std::min<uint64_t>(n, head - tail);
  if (k == 0) return 0;
  const size_t at = tail % capacity_;
  const size_t first = std::min<size_t>(k, capacity_ - at);
  memcpy(dst, data_ + at, first);
  memcpy(dst + first, data_, k - first);
  header_->tail.store(tail + k, std::memory_order_release);
  return k;
}

bool ProcessGone(pid_t pid) {
  if (pid <= 0) return false;
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = fopen(path, "r");
  if (f == nullptr) return false;
  char buf[512];
  const size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char* close = strrchr(buf, ')');  // the command name may hold spaces and parentheses
  return close != nullptr && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X');
}

bool Link::ReadPeer(uint8_t*, uint64_t, size_t, std::string* error) {
  *error = StrFormat("a %s link cannot read its peer's memory", kind());
  return false;
}

namespace {

class RingLink final : public Link {
 public:
  RingLink(Ring out, Ring in, pid_t peerPid, const std::atomic<uint32_t>* peerClosed, uint32_t peer)
      : out_(out), in_(in), peerPid_(peerPid), peerClosed_(peerClosed), peer_(peer) {}
  ssize_t TrySend(const uint8_t* data, size_t n, std::string*) override { return out_.Write(data, n); }
  ssize_t TryRecv(uint8_t* data, size_t n, std::string*) override { return in_.Read(data, n); }
  bool PeerGone(std::string* why) override {
    if (peerClosed_ != nullptr && peerClosed_->load(std::memory_order_acquire) != 0) {
      *why = StrFormat("rank %u destroyed its communicator", peer_);
      return true;
    }
    if (!ProcessGone(peerPid_)) return false;
    *why = StrFormat("rank %u (process %d) exited", peer_, static_cast<int>(peerPid_));
    return true;
  }
  const char* kind() const override { return peerPid_ == 0 ? "memory" : "shared memory"; }
  // A peer in this process: a plain copy; in another process of this host: the kernel copies
  // straight from its pages (cross-memory attach), with no stop in a shared segment.
  bool ReadPeer(uint8_t* dst, uint64_t remote, size_t n, std::string* error) override {
    if (peerPid_ == 0) {
      memcpy(dst, reinterpret_cast<const void*>(static_cast<uintptr_t>(remote)), n);
      return true;
    }
    while (n > 0) {
      iovec local{dst, n};
      iovec from{reinterpret_cast<void*>(static_cast<uintptr_t>(remote)), n};
      const ssize_t k = process_vm_readv(peerPid_, &local, 1, &from, 1, 0);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) {
        *error = ProcessGone(peerPid_)
                     ? StrFormat("rank %u (process %d) exited", peer_, static_cast<int>(peerPid_))
                     : StrFormat("reading the memory of rank %u (process %d) failed (%s)", peer_,
                                 static_cast<int>(peerPid_), k < 0 ? strerror(errno) : "nothing read");
        return false;
      }
      dst += k;
      remote += static_cast<uint64_t>(k);
      n -= static_cast<size_t>(k);
    }
    return true;
  }

 private:
  Ring out_, in_;
  pid_t peerPid_;
  const std::atomic<uint32_t>* peerClosed_;
  uint32_t peer_;
};

class TcpLink final : public Link {
 public:
  TcpLink(int fd, uint32_t peer) : fd_(fd), peer_(peer) {}
  ~TcpLink() override { close(fd_); }
  ssize_t TrySend(const uint8_t* data, size_t n, std::string* error) override {
    const ssize_t k = send(fd_, data, n, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (k >= 0) return k;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return 0;
    *error = StrFormat("the connection to rank %u failed (%s)", peer_, strerror(errno));
    return -1;
  }
  ssize_t TryRecv(uint8_t* data, size_t n, std::string* error) override {
    const ssize_t k = recv(fd_, data, n, MSG_DONTWAIT);
    if (k > 0) return k;
    if (k == 0) {
      *error = StrFormat("rank %u closed its connection (its process exited or destroyed the communicator)", peer_);
      return -1;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return 0;
    *error = StrFormat("the connection to rank %u failed (%s)", peer_, strerror(errno));
    return -1;
  }
  bool PeerGone(std::string*) override { return false; }  // a closed connection says so itself
  const char* kind() const override { return "tcp"; }

 private:
  int fd_;
  uint32_t peer_;
};

// Moves what `link` takes or gives now for the first unfinished transfer of each peer.
// Returns false on a link failure; `*moved` tells whether anything moved.
bool Progress(std::vector<std::unique_ptr<Link>>& links, std::vector<Transfer>& transfers, bool sending,
              std::vector<uint8_t>& busyPeer, bool* moved, StepFailure* failure) {
  std::fill(busyPeer.begin(), busyPeer.end(), 0);
  for (Transfer& t : transfers) {
    if (t.done == t.bytes || busyPeer[t.peer]) continue;
    std::string error;
    Link& link = *links[t.peer];
    const ssize_t k = sending ? link.TrySend(t.data + t.done, t.bytes - t.done, &error)
                              : link.TryRecv(t.data + t.done, t.bytes - t.done, &error);
    if (k < 0) {
      failure->code = HCCL_E_REMOTE;
      failure->message = error;
      return false;
    }
    if (k > 0) *moved = true;
    t.done += static_cast<size_t>(k);
    if (t.done != t.bytes) busyPeer[t.peer] = 1;
  }
  return true;
}

bool AllDone(const std::vector<Transfer>& transfers) {
  for (const Transfer& t : transfers) {
    if (t.done != t.bytes) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<Link> MakeRingLink(Ring out, Ring in, pid_t peerPid, const std::atomic<uint32_t>* peerClosed,
                                   uint32_t peer) {
  return std::make_unique<RingLink>(out, in, peerPid, peerClosed, peer);
}

std::unique_ptr<Link> MakeTcpLink(int fd, uint32_t peer) { return std::make_unique<TcpLink>(fd, peer); }

bool Exchange(std::vector<std::unique_ptr<Link>>& links, std::vector<Transfer>& sends, std::vector<Transfer>& recvs,
              Clock::time_point deadline, double timeoutSeconds, StepFailure* failure) {
  std::vector<uint8_t> busyPeer(links.size());
  auto pass = [&](bool* moved) {
    return Progress(links, sends, true, busyPeer, moved, failure) &&
           Progress(links, recvs, false, busyPeer, moved, failure);
  };
  uint64_t idle = 0;
  auto nextCheck = Clock::now() + std::chrono::milliseconds(20);
  while (true) {
    bool moved = false;
    if (!pass(&moved)) return false;
    if (AllDone(sends) && AllDone(recvs)) return true;
    if (moved) {
      idle = 0;
      continue;
    }
    const auto now = Clock::now();
    if (now >= nextCheck) {
      nextCheck = now + std::chrono::milliseconds(20);
      for (const std::vector<Transfer>* list : {&sends, &recvs}) {
        for (const Transfer& t : *list) {
          std::string why;
          if (t.done == t.bytes || !links[t.peer]->PeerGone(&why)) continue;
          // What a peer wrote before it went is there to read (it set its flag or exited after):
          // it is gone for this step only if that does not finish the transfer.
          bool drained = false;
          if (!pass(&drained)) return false;
          if (t.done == t.bytes) continue;
          failure->code = HCCL_E_REMOTE;
          failure->message = why;
          return false;
        }
      }
      if (AllDone(sends) && AllDone(recvs)) return true;
      if (now >= deadline) {
        for (const std::vector<Transfer>* list : {&sends, &recvs}) {
          for (const Transfer& t : *list) {
            if (t.done == t.bytes) continue;
            failure->code = HCCL_E_TIMEOUT;
            failure->message = StrFormat("timed out after %g s (HCCL_EXEC_TIMEOUT) %s rank %u", timeoutSeconds,
                                         list == &sends ? "sending to" : "waiting for", t.peer);
            return false;
          }
        }
      }
    }
    // Spin briefly (a peer usually answers within microseconds), then yield, then sleep longer
    // the longer the peer keeps this rank waiting (a few seconds in: 1 ms at a time).
    ++idle;
    if (idle < 200) continue;
    if (idle < 2000) {
      sched_yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(idle < 20000 ? 20 : idle < 40000 ? 200 : 1000));
    }
  }
}

}  // namespace hccl
}  // namespace ascendc_sim
