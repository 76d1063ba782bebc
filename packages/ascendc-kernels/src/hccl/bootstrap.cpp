// Forming communicators. Rank 0's HcclGetRootInfo opens a listening TCP socket; the root info
// carries its address and port, the job's id and rank 0's host. Every rank connects to it, says
// who it is (rank, process, host, the port of its own listener, its shared memory segment), and
// receives everyone's answer; then each pair of ranks links up: through the two ranks' shared
// memory segments when they share a host, else through a TCP connection (the lower rank accepts).
// A last round trip through rank 0 tells every rank that all peers mapped its segment, which is
// then unlinked: nothing stays in /dev/shm once a communicator exists, and a segment a crashed
// job left behind (its name ends with its process id) is removed by the next job's init.
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "common/error.h"
#include "hccl/comm.h"
#include "hccl/rank_table.h"

namespace ascendc_sim {
namespace hccl {
namespace {

constexpr char kRootMagic[8] = {'S', 'I', 'M', 'H', 'C', 'C', 'L', '1'};
constexpr uint32_t kHelloMagic = 0x48434c48u;
constexpr uint64_t kSegmentMagic = 0x53494d48434c5347ull;
constexpr uint64_t kRingBytes = 1u << 20;  // per direction and pair of ranks
constexpr size_t kHostIdBytes = 112;
constexpr const char* kSegmentPrefix = "ascend_sim_hccl_";

// What HcclRootInfo holds (its first bytes; the rest is zero).
struct RootInfoWire {
  char magic[8];
  uint64_t jobId;
  uint32_t ip;  // network order
  uint16_t port;  // network order
  uint16_t reserved;
  uint32_t rootPid;
  char host[kHostIdBytes];
};
static_assert(sizeof(RootInfoWire) <= HCCL_ROOT_INFO_BYTES, "the root info fits HcclRootInfo");

// What each rank tells rank 0, and rank 0 tells every rank about all of them.
struct Hello {
  uint32_t magic;
  uint32_t rank;
  uint32_t nRanks;
  uint32_t pid;
  uint64_t jobId;
  uint32_t ip;  // network order; rank 0 fills it in from the connection
  uint16_t port;  // network order: the rank's listener for TCP links
  uint8_t hasSegment;
  uint8_t reserved;
  char host[kHostIdBytes];
  uint64_t segmentAddress;  // where the rank mapped its segment: a peer's reads start there
};

struct LinkHello {
  uint64_t jobId;
  uint32_t rank;
  uint32_t reserved;
};

struct SegmentHeader {
  uint64_t magic;
  uint32_t nRanks;
  uint32_t pid;
  std::atomic<uint32_t> closed;  // the owner destroyed its communicator
  char pad[108];
};
static_assert(sizeof(SegmentHeader) == 128, "rings start on a cache line");

std::mutex gRootMu;
std::map<uint64_t, int> gRootListeners;  // job id -> rank 0's listening socket

double EnvSeconds(const char* name, double fallback) {
  const char* v = getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const double s = strtod(v, &end);
  return (end != v && s > 0) ? s : fallback;
}

// This host: its name and this boot's id (two machines may share a name, never both).
std::string HostId() {
  char name[256] = {0};
  gethostname(name, sizeof(name) - 1);
  std::string id = name;
  FILE* f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (f != nullptr) {
    char boot[64] = {0};
    if (fgets(boot, sizeof(boot), f) != nullptr) id += "/" + std::string(boot, strcspn(boot, "\n"));
    fclose(f);
  }
  return id.substr(0, kHostIdBytes - 1);
}

// The address other hosts reach rank 0 at: HCCL_IF_IP, else the host name's IPv4 address,
// else the loopback address.
uint32_t RootAddress() {
  const char* ifIp = getenv("HCCL_IF_IP");
  in_addr addr{};
  if (ifIp != nullptr && inet_pton(AF_INET, ifIp, &addr) == 1) return addr.s_addr;
  char name[256] = {0};
  gethostname(name, sizeof(name) - 1);
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* found = nullptr;
  uint32_t ip = htonl(INADDR_LOOPBACK);
  if (getaddrinfo(name, nullptr, &hints, &found) == 0) {
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      const uint32_t candidate = reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr.s_addr;
      if ((ntohl(candidate) >> 24) != 127) {
        ip = candidate;
        break;
      }
    }
    freeaddrinfo(found);
  }
  return ip;
}

std::string Ipv4(uint32_t ip) {
  char text[INET_ADDRSTRLEN] = {0};
  in_addr addr{};
  addr.s_addr = ip;
  inet_ntop(AF_INET, &addr, text, sizeof(text));
  return text;
}

// Closes what it holds unless released.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { Reset(); }
  Fd(Fd&& o) noexcept : fd_(o.Release()) {}
  Fd& operator=(Fd&& o) noexcept {
    Reset(o.Release());
    return *this;
  }
  int get() const { return fd_; }
  int Release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void Reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left, 1000));
}

// Waits for `events` on `fd` until `deadline`; false on timeout.
bool WaitFd(int fd, short events, Clock::time_point deadline) {
  while (true) {
    pollfd p{fd, events, 0};
    const int rc = poll(&p, 1, RemainingMs(deadline));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return true;  // the next call reports the error
    if (Clock::now() >= deadline) return false;
  }
}

// Status of a control-path step; `message` says what failed.
struct Status {
  HcclResult code = HCCL_SUCCESS;
  std::string message;
  bool ok() const { return code == HCCL_SUCCESS; }
};

Status Fail(HcclResult code, std::string message) { return Status{code, std::move(message)}; }

Status SendAll(int fd, const void* data, size_t n, Clock::time_point deadline, const char* what) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    if (!WaitFd(fd, POLLOUT, deadline)) return Fail(HCCL_E_TIMEOUT, StrFormat("timed out sending %s", what));
    const ssize_t k = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (k < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (k < 0) return Fail(HCCL_E_TCP_TRANSFER, StrFormat("sending %s failed (%s)", what, strerror(errno)));
    p += k;
    n -= static_cast<size_t>(k);
  }
  return {};
}

Status RecvAll(int fd, void* data, size_t n, Clock::time_point deadline, const char* what) {
  auto* p = static_cast<uint8_t*>(data);
  while (n > 0) {
    if (!WaitFd(fd, POLLIN, deadline)) return Fail(HCCL_E_TIMEOUT, StrFormat("timed out waiting for %s", what));
    const ssize_t k = recv(fd, p, n, MSG_DONTWAIT);
    if (k < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (k == 0) return Fail(HCCL_E_TCP_TRANSFER, StrFormat("the connection closed before %s arrived", what));
    if (k < 0) return Fail(HCCL_E_TCP_TRANSFER, StrFormat("receiving %s failed (%s)", what, strerror(errno)));
    p += k;
    n -= static_cast<size_t>(k);
  }
  return {};
}

// Listens on `*port` (network order; 0: a port the system picks, written back).
Status Listen(Fd* out, uint16_t* port) {
  Fd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return Fail(HCCL_E_SYSCALL, StrFormat("socket failed (%s)", strerror(errno)));
  const int one = 1;
  setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = *port;
  socklen_t len = sizeof(addr);
  if (bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd.get(), 256) != 0 ||
      getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (*port != 0) {
      return Fail(HCCL_E_TCP_CONNECT, StrFormat("cannot listen on TCP port %u (%s)", ntohs(*port), strerror(errno)));
    }
    return Fail(HCCL_E_SYSCALL, StrFormat("cannot listen on a TCP port (%s)", strerror(errno)));
  }
  *port = addr.sin_port;
  *out = std::move(fd);
  return {};
}

void NoDelay(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

// Connects, retrying while nobody listens yet, until `deadline`.
Status Connect(uint32_t ip, uint16_t port, Clock::time_point deadline, const char* whom, Fd* out) {
  while (true) {
    Fd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (fd.get() < 0) return Fail(HCCL_E_SYSCALL, StrFormat("socket failed (%s)", strerror(errno)));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = ip;
    addr.sin_port = port;
    int rc = connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    if (rc != 0 && errno == EINPROGRESS) {
      if (!WaitFd(fd.get(), POLLOUT, deadline)) break;
      int err = 0;
      socklen_t len = sizeof(err);
      getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
      rc = err == 0 ? 0 : -1;
      errno = err;
    }
    if (rc == 0) {
      NoDelay(fd.get());
      *out = std::move(fd);
      return {};
    }
    if (errno != ECONNREFUSED && errno != ETIMEDOUT && errno != EHOSTUNREACH && errno != ENETUNREACH) {
      return Fail(HCCL_E_TCP_CONNECT, StrFormat("cannot connect to %s at %s:%u (%s)", whom, Ipv4(ip).c_str(),
                                                ntohs(port), strerror(errno)));
    }
    if (Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Fail(HCCL_E_TIMEOUT, StrFormat("timed out connecting to %s at %s:%u", whom, Ipv4(ip).c_str(), ntohs(port)));
}

Status Accept(int listener, Clock::time_point deadline, const char* what, Fd* out) {
  while (true) {
    if (!WaitFd(listener, POLLIN, deadline)) return Fail(HCCL_E_TIMEOUT, StrFormat("timed out waiting for %s", what));
    const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0) {
      NoDelay(fd);
      out->Reset(fd);
      return {};
    }
    if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) {
      return Fail(HCCL_E_SYSCALL, StrFormat("accept failed (%s)", strerror(errno)));
    }
  }
}

std::string SegmentName(uint64_t jobId, uint32_t rank, uint32_t pid) {
  return StrFormat("/%s%016llx_%u_%u", kSegmentPrefix, static_cast<unsigned long long>(jobId), rank, pid);
}

size_t SegmentBytes(uint32_t nRanks) { return sizeof(SegmentHeader) + nRanks * (sizeof(RingHeader) + kRingBytes); }

// The ring from `sender` into the segment at `base`.
Ring SegmentRing(void* base, uint32_t sender) {
  auto* at = static_cast<uint8_t*>(base) + sizeof(SegmentHeader) + sender * (sizeof(RingHeader) + kRingBytes);
  return Ring(reinterpret_cast<RingHeader*>(at), at + sizeof(RingHeader), kRingBytes);
}

// Unlinks the segments of jobs whose process is gone (a crash between creating and unlinking).
void RemoveStaleSegments() {
  DIR* dir = opendir("/dev/shm");
  if (dir == nullptr) return;
  const size_t prefix = strlen(kSegmentPrefix);
  while (dirent* e = readdir(dir)) {
    if (strncmp(e->d_name, kSegmentPrefix, prefix) != 0) continue;
    const char* last = strrchr(e->d_name, '_');
    const long pid = last != nullptr ? strtol(last + 1, nullptr, 10) : 0;
    if (pid > 0 && ProcessGone(static_cast<pid_t>(pid))) shm_unlink((std::string("/") + e->d_name).c_str());
  }
  closedir(dir);
}

Status MapSegment(const std::string& name, bool create, uint32_t nRanks, Mapping* out) {
  const int fd = shm_open(name.c_str(), create ? (O_CREAT | O_EXCL | O_RDWR) : O_RDWR, 0600);
  if (fd < 0) {
    return Fail(HCCL_E_SYSCALL, StrFormat("shm_open(%s) failed (%s)", name.c_str(), strerror(errno)));
  }
  const size_t bytes = SegmentBytes(nRanks);
  if (create && ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    close(fd);
    shm_unlink(name.c_str());
    return Fail(HCCL_E_SYSCALL, StrFormat("sizing %s failed (%s)", name.c_str(), strerror(errno)));
  }
  void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (base == MAP_FAILED) {
    if (create) shm_unlink(name.c_str());
    return Fail(HCCL_E_SYSCALL, StrFormat("mapping %s failed (%s)", name.c_str(), strerror(errno)));
  }
  auto* header = static_cast<SegmentHeader*>(base);
  if (create) {
    header->nRanks = nRanks;
    header->pid = static_cast<uint32_t>(getpid());
    header->magic = kSegmentMagic;
  } else if (header->magic != kSegmentMagic || header->nRanks != nRanks) {
    munmap(base, bytes);
    return Fail(HCCL_E_INTERNAL, StrFormat("%s is not a segment of this communicator", name.c_str()));
  }
  out->base = base;
  out->bytes = bytes;
  return {};
}

uint64_t NewJobId() {
  std::random_device rd;
  const uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  return r ^ (static_cast<uint64_t>(getpid()) << 40) ^
         static_cast<uint64_t>(Clock::now().time_since_epoch().count());
}

std::string CommName(uint64_t jobId) {
  return StrFormat("hccl_sim_%016llx", static_cast<unsigned long long>(jobId));
}

// ASCEND_SIM_HCCL_TRANSPORT: "shm" (the default: shared memory between ranks of one host, TCP
// between hosts) or "tcp" (TCP between any two processes, as between hosts).
Status ForceTcp(bool* tcp) {
  const char* v = getenv("ASCEND_SIM_HCCL_TRANSPORT");
  *tcp = v != nullptr && strcmp(v, "tcp") == 0;
  if (v == nullptr || *v == '\0' || *tcp || strcmp(v, "shm") == 0) return {};
  return Fail(HCCL_E_PARA, StrFormat("ASCEND_SIM_HCCL_TRANSPORT=%s is neither shm nor tcp", v));
}

// ASCEND_SIM_HCCL_PEER_READ: "1" (the default: ranks of one host read each other's buffers
// directly when the system lets them) or "0" (they move all data through the rings).
Status PeerReadsWanted(bool* wanted) {
  const char* v = getenv("ASCEND_SIM_HCCL_PEER_READ");
  *wanted = v == nullptr || *v == '\0' || strcmp(v, "1") == 0;
  if (*wanted || strcmp(v, "0") == 0) return {};
  return Fail(HCCL_E_PARA, StrFormat("ASCEND_SIM_HCCL_PEER_READ=%s is neither 0 nor 1", v));
}

// Under Yama's ptrace_scope 1 (many distributions' default) a process may read only the memory of
// its descendants; a rank lets the other processes of its user read its memory, as the
// shared-memory transports of MPI libraries do. Other scopes are left alone (2 and 3 refuse; the
// rings then carry the data).
void LetPeersReadThisProcess() {
  FILE* f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
  if (f == nullptr) return;
  const int scope = fgetc(f);
  fclose(f);
  if (scope == '1') prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
}

// Whether this rank reads every peer's memory: all peers linked by shared memory, and a probe of
// each peer's segment header through Link::ReadPeer finds the header there.
bool CanReadPeers(const Comm& comm, const std::vector<Hello>& table) {
  for (uint32_t p = 0; p < comm.links.size(); ++p) {
    if (p == comm.rank) continue;
    uint64_t magic = 0;
    std::string error;
    if (table[p].segmentAddress == 0 ||
        !comm.links[p]->ReadPeer(reinterpret_cast<uint8_t*>(&magic), table[p].segmentAddress, sizeof(magic), &error) ||
        magic != kSegmentMagic) {
      return false;
    }
  }
  return true;
}

// Rank 0: every other rank's hello, then the table to all of them.
Status GatherAtRoot(int listener, const RootInfoWire& info, std::vector<Hello>& table, std::vector<Fd>& control,
                    Clock::time_point deadline) {
  const uint32_t n = static_cast<uint32_t>(table.size());
  for (uint32_t joined = 1; joined < n; ++joined) {
    Fd fd;
    Status s = Accept(listener, deadline,
                      StrFormat("the other ranks (%u of %u joined)", joined, n).c_str(), &fd);
    if (!s.ok()) return s;
    Hello h{};
    s = RecvAll(fd.get(), &h, sizeof(h), deadline, "a rank's hello");
    if (!s.ok()) return s;
    if (h.magic != kHelloMagic || h.jobId != info.jobId) {
      return Fail(HCCL_E_INTERNAL, "a connection that is not a rank of this job reached rank 0");
    }
    if (h.nRanks != n) {
      return Fail(HCCL_E_PARA, StrFormat("rank %u was given nRanks %u, rank 0 %u", h.rank, h.nRanks, n));
    }
    if (h.rank == 0 || h.rank >= n || control[h.rank].get() >= 0) {
      return Fail(HCCL_E_PARA, StrFormat("two ranks joined as rank %u", h.rank));
    }
    sockaddr_in peer{};
    socklen_t len = sizeof(peer);
    getpeername(fd.get(), reinterpret_cast<sockaddr*>(&peer), &len);
    h.ip = peer.sin_addr.s_addr;
    table[h.rank] = h;
    control[h.rank] = std::move(fd);
  }
  for (uint32_t r = 1; r < n; ++r) {
    Status s = SendAll(control[r].get(), table.data(), n * sizeof(Hello), deadline, "the table of ranks");
    if (!s.ok()) return s;
  }
  return {};
}

// Everyone reached this point: the ranks tell rank 0, rank 0 tells them. `*all` goes in as this
// rank's vote and comes out as whether every rank voted yes.
Status RoundTrip(uint32_t rank, std::vector<Fd>& control, Clock::time_point deadline, bool* all) {
  uint8_t byte = *all ? 1 : 0;
  if (rank != 0) {
    Status s = SendAll(control[0].get(), &byte, 1, deadline, "ready");
    if (s.ok()) s = RecvAll(control[0].get(), &byte, 1, deadline, "rank 0's go-ahead");
    *all = byte != 0;
    return s;
  }
  for (uint32_t r = 1; r < control.size(); ++r) {
    uint8_t vote = 0;
    Status s = RecvAll(control[r].get(), &vote, 1, deadline, StrFormat("rank %u to link up", r).c_str());
    if (!s.ok()) return s;
    byte &= vote;
  }
  for (uint32_t r = 1; r < control.size(); ++r) {
    Status s = SendAll(control[r].get(), &byte, 1, deadline, "the go-ahead");
    if (!s.ok()) return s;
  }
  *all = byte != 0;
  return {};
}

Status Join(uint32_t nRanks, const RootInfoWire& info, uint32_t rank, Comm& comm) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(ConnectTimeoutSeconds()));
  bool forceTcp = false, peerReads = false;
  if (Status s = ForceTcp(&forceTcp); !s.ok()) return s;
  if (Status s = PeerReadsWanted(&peerReads); !s.ok()) return s;
  if (forceTcp) peerReads = false;
  if (peerReads) LetPeersReadThisProcess();
  const uint32_t pid = static_cast<uint32_t>(getpid());
  comm.links.resize(nRanks);

  // This rank's segment: the rings its peers on this host write into.
  std::string segment;
  struct Unlink {
    std::string* name;
    ~Unlink() {
      if (!name->empty()) shm_unlink(name->c_str());
    }
  } unlinkOnExit{&segment};
  Mapping own;
  if (!forceTcp && nRanks > 1) {
    RemoveStaleSegments();
    segment = SegmentName(info.jobId, rank, pid);
    Status s = MapSegment(segment, true, nRanks, &own);
    if (!s.ok()) {
      segment.clear();
      return s;
    }
    comm.mappings.push_back(own);
    comm.closed = &static_cast<SegmentHeader*>(own.base)->closed;
  }
  Fd listener;
  Hello mine{};
  mine.magic = kHelloMagic;
  mine.rank = rank;
  mine.nRanks = nRanks;
  mine.pid = pid;
  mine.jobId = info.jobId;
  mine.hasSegment = own.base != nullptr;
  mine.segmentAddress = reinterpret_cast<uintptr_t>(own.base);
  snprintf(mine.host, sizeof(mine.host), "%s", HostId().c_str());
  if (nRanks > 1) {
    Status s = Listen(&listener, &mine.port);
    if (!s.ok()) return s;
  }

  // Everyone's hello, through rank 0.
  std::vector<Hello> table(nRanks);
  std::vector<Fd> control(nRanks);
  if (rank == 0) {
    Fd rootListener;
    {
      std::lock_guard<std::mutex> lock(gRootMu);
      auto it = gRootListeners.find(info.jobId);
      if (it == gRootListeners.end()) {
        return Fail(HCCL_E_PARA,
                    "rank 0 must join in the process that made the root info (HcclGetRootInfo), once");
      }
      rootListener.Reset(it->second);
      gRootListeners.erase(it);
    }
    mine.ip = info.ip;
    table[0] = mine;
    Status s = GatherAtRoot(rootListener.get(), info, table, control, deadline);
    if (!s.ok()) return s;
  } else if (nRanks > 1) {
    Status s = Connect(info.ip, info.port, deadline, "rank 0", &control[0]);
    if (!s.ok()) return s;
    s = SendAll(control[0].get(), &mine, sizeof(mine), deadline, "this rank's hello");
    if (s.ok()) s = RecvAll(control[0].get(), table.data(), nRanks * sizeof(Hello), deadline, "the table of ranks");
    if (!s.ok()) return s;
  }

  // A link to every peer.
  uint32_t tcpAccepts = 0;
  for (uint32_t p = 0; p < nRanks; ++p) {
    if (p == rank) continue;
    const Hello& peer = table[p];
    const bool shared = mine.hasSegment && peer.hasSegment && strncmp(mine.host, peer.host, kHostIdBytes) == 0;
    if (shared) {
      Mapping theirs;
      Status s = MapSegment(SegmentName(info.jobId, p, peer.pid), false, nRanks, &theirs);
      if (!s.ok()) return s;
      comm.mappings.push_back(theirs);
      comm.links[p] = MakeRingLink(SegmentRing(theirs.base, rank), SegmentRing(own.base, p),
                                   peer.pid == pid ? 0 : static_cast<pid_t>(peer.pid),
                                   &static_cast<SegmentHeader*>(theirs.base)->closed, p);
    } else if (p < rank) {
      Fd fd;
      Status s = Connect(peer.ip, peer.port, deadline, StrFormat("rank %u", p).c_str(), &fd);
      const LinkHello hello{info.jobId, rank, 0};
      if (s.ok()) s = SendAll(fd.get(), &hello, sizeof(hello), deadline, "a link's hello");
      if (!s.ok()) return s;
      comm.links[p] = MakeTcpLink(fd.Release(), p);
    } else {
      ++tcpAccepts;
    }
  }
  for (; tcpAccepts > 0; --tcpAccepts) {
    Fd fd;
    Status s = Accept(listener.get(), deadline, "a peer's TCP link", &fd);
    LinkHello hello{};
    if (s.ok()) s = RecvAll(fd.get(), &hello, sizeof(hello), deadline, "a link's hello");
    if (!s.ok()) return s;
    if (hello.jobId != info.jobId || hello.rank <= rank || hello.rank >= nRanks || comm.links[hello.rank]) {
      return Fail(HCCL_E_INTERNAL, "a TCP link that is not a peer of this communicator");
    }
    comm.links[hello.rank] = MakeTcpLink(fd.Release(), hello.rank);
  }
  // Every peer mapped this rank's segment: it may go. The same round trip settles whether all
  // ranks read each other's buffers.
  if (nRanks == 1) return {};
  peerReads = peerReads && CanReadPeers(comm, table);
  Status s = RoundTrip(rank, control, deadline, &peerReads);
  comm.peerReads = peerReads;
  return s;
}

// One INFO line of CANN's application log (ASCEND_GLOBAL_LOG_LEVEL=1) saying how `comm` reaches
// its peers.
void LogLinks(const Comm& comm, const char* call) {
  std::string links;
  for (uint32_t p = 0; p < comm.links.size(); ++p) {
    if (p == comm.rank) continue;
    links += StrFormat("%srank %u by %s", links.empty() ? "" : ", ", p, comm.links[p]->kind());
  }
  aclAppLog(ACL_INFO, call, __FILE__, __LINE__, "rank %u of %u (%s): %s; %s", comm.rank, comm.nRanks,
            comm.name.c_str(), links.empty() ? "no peers" : links.c_str(),
            comm.peerReads ? "large collectives read the peers' buffers directly"
                           : "all data moves through the links");
}

}  // namespace

double ExecTimeoutSeconds() { return EnvSeconds("HCCL_EXEC_TIMEOUT", 1800); }
double ConnectTimeoutSeconds() { return EnvSeconds("HCCL_CONNECT_TIMEOUT", 120); }

Comm::~Comm() {
  if (closed != nullptr) closed->store(1, std::memory_order_release);
  links.clear();  // closes the TCP links
  for (const Mapping& m : mappings) munmap(m.base, m.bytes);
}

void Comm::Fail(HcclResult code, const std::string& message) {
  std::lock_guard<std::mutex> lock(errorMu);
  if (asyncError != HCCL_SUCCESS) return;
  asyncError = code;
  asyncMessage = message;
}

HcclResult Comm::Failure(std::string* message) {
  std::lock_guard<std::mutex> lock(errorMu);
  if (message != nullptr) *message = asyncMessage;
  return asyncError;
}

HcclResult MakeRootInfo(HcclRootInfo* info) {
  Fd listener;
  uint16_t port = 0;
  Status s = Listen(&listener, &port);
  if (!s.ok()) {
    SetRecentError("HcclGetRootInfo: " + s.message);
    return s.code;
  }
  RootInfoWire wire{};
  memcpy(wire.magic, kRootMagic, sizeof(kRootMagic));
  wire.jobId = NewJobId();
  wire.ip = RootAddress();
  wire.port = port;
  wire.rootPid = static_cast<uint32_t>(getpid());
  snprintf(wire.host, sizeof(wire.host), "%s", HostId().c_str());
  memset(info, 0, sizeof(*info));
  memcpy(info->internal, &wire, sizeof(wire));
  std::lock_guard<std::mutex> lock(gRootMu);
  gRootListeners[wire.jobId] = listener.Release();
  return HCCL_SUCCESS;
}

namespace {

// Joins the job `wire` describes as `rank` of `nRanks`; `call` names the entry point in messages.
HcclResult JoinJob(uint32_t nRanks, const RootInfoWire& wire, uint32_t rank, const char* call,
                   std::shared_ptr<Comm>* out) {
  auto comm = std::make_shared<Comm>();
  comm->rank = rank;
  comm->nRanks = nRanks;
  comm->name = CommName(wire.jobId);
  comm->execTimeoutSeconds = ExecTimeoutSeconds();
  if (aclrtGetDevice(&comm->device) != ACL_SUCCESS) comm->device = 0;
  Status s = Join(nRanks, wire, rank, *comm);
  if (!s.ok() && rank == 0) {  // the job is over: its listener too
    std::lock_guard<std::mutex> lock(gRootMu);
    auto it = gRootListeners.find(wire.jobId);
    if (it != gRootListeners.end()) {
      close(it->second);
      gRootListeners.erase(it);
    }
  }
  if (!s.ok()) {
    SetRecentError(StrFormat("%s: rank %u of %u (job %s): %s", call, rank, nRanks, comm->name.c_str(),
                             s.message.c_str()));
    return s.code;
  }
  LogLinks(*comm, call);
  *out = std::move(comm);
  return HCCL_SUCCESS;
}

// HCCL_IF_BASE_PORT (CANN's default 60000), network order; 0 with `*error` set when it is not a port
// CANN accepts ([1024, 65520]).
uint16_t BasePort(std::string* error) {
  const char* v = getenv("HCCL_IF_BASE_PORT");
  if (v == nullptr || *v == '\0') return htons(60000);
  char* end = nullptr;
  const long port = strtol(v, &end, 10);
  if (*end != '\0' || port < 1024 || port > 65520) {
    *error = StrFormat("HCCL_IF_BASE_PORT=%s is not a port in [1024, 65520]", v);
    return 0;
  }
  return htons(static_cast<uint16_t>(port));
}

}  // namespace

HcclResult JoinRootInfo(uint32_t nRanks, const HcclRootInfo& info, uint32_t rank, std::shared_ptr<Comm>* out) {
  RootInfoWire wire;
  memcpy(&wire, info.internal, sizeof(wire));
  if (memcmp(wire.magic, kRootMagic, sizeof(kRootMagic)) != 0) {
    SetRecentError("HcclCommInitRootInfo: rootInfo was not made by HcclGetRootInfo");
    return HCCL_E_PARA;
  }
  return JoinJob(nRanks, wire, rank, "HcclCommInitRootInfo", out);
}

HcclResult JoinClusterInfo(const char* rankTable, uint32_t rank, std::shared_ptr<Comm>* out) {
  static constexpr const char* kCall = "HcclCommInitClusterInfo";
  RankTable table;
  std::string error;
  if (!ReadRankTable(rankTable, &table, &error)) {
    SetRecentError(StrFormat("%s: %s", kCall, error.c_str()));
    return HCCL_E_PARA;
  }
  const uint32_t nRanks = static_cast<uint32_t>(table.ranks.size());
  if (rank >= nRanks) {
    SetRecentError(StrFormat("%s: rank %u is not in the rank table %s (ranks 0 to %u)", kCall, rank, rankTable,
                             nRanks - 1));
    return HCCL_E_PARA;
  }
  RootInfoWire wire{};
  memcpy(wire.magic, kRootMagic, sizeof(kRootMagic));
  wire.jobId = table.digest;
  wire.ip = table.ranks[0].address;
  wire.port = BasePort(&error);
  if (wire.port == 0) {
    SetRecentError(StrFormat("%s: %s", kCall, error.c_str()));
    return HCCL_E_PARA;
  }
  if (rank == 0) {  // rank 0 gathers the others at its server's address, on HCCL_IF_BASE_PORT
    Fd listener;
    uint16_t port = wire.port;
    Status s = nRanks > 1 ? Listen(&listener, &port) : Status{};
    if (!s.ok()) {
      SetRecentError(StrFormat("%s: rank 0 of %u (table %s): %s (HCCL_IF_BASE_PORT)", kCall, nRanks, rankTable,
                               s.message.c_str()));
      return s.code;
    }
    std::lock_guard<std::mutex> lock(gRootMu);
    if (gRootListeners.count(wire.jobId) != 0) {
      SetRecentError(StrFormat("%s: this process joins the job of %s already", kCall, rankTable));
      return HCCL_E_PARA;
    }
    gRootListeners[wire.jobId] = nRanks > 1 ? listener.Release() : -1;
  }
  return JoinJob(nRanks, wire, rank, kCall, out);
}

HcclResult MakeLocalComms(uint32_t n, const int32_t* devices, std::vector<std::shared_ptr<Comm>>* out) {
  static std::atomic<uint64_t> groups{0};
  const size_t ringStride = sizeof(RingHeader) + kRingBytes;
  const size_t bytes = n * n * ringStride + n * sizeof(std::atomic<uint32_t>);
  void* memory = aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (memory == nullptr) {
    SetRecentError("HcclCommInitAll: cannot allocate the rings between the devices");
    return HCCL_E_MEMORY;
  }
  memset(memory, 0, bytes);  // ring (from, to) at index from * n + to, then each rank's closed flag
  auto* closedFlags = reinterpret_cast<std::atomic<uint32_t>*>(static_cast<uint8_t*>(memory) + n * n * ringStride);
  std::shared_ptr<void> rings(memory, free);
  auto ring = [&](uint32_t from, uint32_t to) {
    auto* at = static_cast<uint8_t*>(memory) + (from * n + to) * ringStride;
    return Ring(reinterpret_cast<RingHeader*>(at), at + sizeof(RingHeader), kRingBytes);
  };
  const std::string name = StrFormat("hccl_sim_%d_local_%llu", static_cast<int>(getpid()),
                                     static_cast<unsigned long long>(groups.fetch_add(1)));
  bool peerReads = false;
  if (Status s = PeerReadsWanted(&peerReads); !s.ok()) {
    SetRecentError("HcclCommInitAll: " + s.message);
    return s.code;
  }
  out->clear();
  for (uint32_t r = 0; r < n; ++r) {
    auto comm = std::make_shared<Comm>();
    comm->rank = r;
    comm->nRanks = n;
    comm->device = devices[r];
    comm->name = name;
    comm->execTimeoutSeconds = ExecTimeoutSeconds();
    comm->localRings = rings;
    comm->peerReads = peerReads;
    comm->closed = &closedFlags[r];
    comm->links.resize(n);
    for (uint32_t p = 0; p < n; ++p) {
      if (p != r) comm->links[p] = MakeRingLink(ring(r, p), ring(p, r), 0, &closedFlags[p], p);
    }
    LogLinks(*comm, "HcclCommInitAll");
    out->push_back(std::move(comm));
  }
  return HCCL_SUCCESS;
}

}  // namespace hccl
}  // namespace ascendc_sim
