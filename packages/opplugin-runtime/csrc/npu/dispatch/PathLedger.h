// Which execution path each operator took, counted per process:
// op_api (aclnn), acl_op (OpCommand), compat (DO_COMPATIBILITY fell back to
// acl_op because the aclnn symbol is missing), the CPU fallback and dvm (lazy
// fusion kernels, see LazyFusion.h).
//
// NPU_PATH_TAKEN(op, Path) costs a function-local static reference and one
// relaxed increment per call; it also remembers the op as the calling thread's
// current op, so DO_COMPATIBILITY inside the op_api kernel counts under it.
//
// Observers (strict expectations, torch.npu.expect_paths; decision traces,
// torch.npu.explain) see every recorded path and every dual-path decision step
// of the thread that installed them, at the point it happens (a strict
// expectation raises there, from inside the failing op). With no observer
// installed anywhere, a path or step costs one more relaxed atomic load.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <string>

namespace at_npu::native {

enum class ExecPath : uint8_t { OpApi = 0, AclOp = 1, Compat = 2, CpuFallback = 3, Dvm = 4 };
constexpr size_t kNumExecPaths = 5;

const char* ExecPathName(ExecPath path);

struct OpLedgerEntry {
  std::array<std::atomic<uint64_t>, kNumExecPaths> counts{};
  std::string name;  // the op's name (set once at creation)
};

// Sees the calling thread's paths and decision steps while installed.
class PathObserver {
 public:
  virtual ~PathObserver() = default;
  // `path` ran for `entry` (may throw: the op then fails before the path runs).
  virtual void OnPath(const OpLedgerEntry& entry, ExecPath path) = 0;
  // A decision step of `op`: `step` evaluated to `value` for `subject` (an
  // argument or api name, may be empty); `detail` says more (may be empty).
  virtual void OnStep(const char* op, const char* step, const char* subject, bool value, const std::string& detail) = 0;
};

namespace detail {
extern thread_local OpLedgerEntry* tls_current_op;
extern std::atomic<int> g_path_observers;  // observers installed on any thread
void NotifyPath(const OpLedgerEntry& entry, ExecPath path);
void NotifyStep(const char* op, const char* step, const char* subject, bool value, const std::string& detail);
}  // namespace detail

inline bool PathObserved() {
  return detail::g_path_observers.load(std::memory_order_relaxed) != 0;
}

// Installs `observer` on the calling thread for the scope (observers nest: all see events).
class ScopedPathObserver {
 public:
  explicit ScopedPathObserver(PathObserver* observer);
  ~ScopedPathObserver();
  ScopedPathObserver(const ScopedPathObserver&) = delete;
  ScopedPathObserver& operator=(const ScopedPathObserver&) = delete;

 private:
  PathObserver* observer_;
};

// A dual-path decision: returns `value`, reporting it to the thread's observers.
// The name of the op the step belongs to is the calling thread's current op when `op` is null.
inline bool NpuDecide(const char* op, const char* step, const char* subject, bool value) {
  if (__builtin_expect(PathObserved(), 0)) {
    detail::NotifyStep(op, step, subject, value, std::string());
  }
  return value;
}

class PathLedger {
 public:
  // The entry of `op` (created on first use; stable for the life of the process).
  static OpLedgerEntry& Entry(const std::string& op);

  static void Hit(OpLedgerEntry& entry, ExecPath path) {
    if (__builtin_expect(PathObserved(), 0)) {
      detail::NotifyPath(entry, path);  // strict mode raises here, before counting
    }
    entry.counts[static_cast<size_t>(path)].fetch_add(1, std::memory_order_relaxed);
    detail::tls_current_op = &entry;
  }

  // Counts `path` under the calling thread's current op (if any).
  static void HitCurrent(ExecPath path) {
    OpLedgerEntry* entry = detail::tls_current_op;
    if (entry != nullptr) {
      if (__builtin_expect(PathObserved(), 0)) {
        detail::NotifyPath(*entry, path);
      }
      entry->counts[static_cast<size_t>(path)].fetch_add(1, std::memory_order_relaxed);
    }
  }

  // The calling thread's current op (the last one that recorded a path), or "".
  static const char* CurrentOpName() {
    const OpLedgerEntry* entry = detail::tls_current_op;
    return entry != nullptr ? entry->name.c_str() : "";
  }

  // op -> counts per path (ops with no count at all are left out).
  static std::map<std::string, std::array<uint64_t, kNumExecPaths>> Snapshot();
  static void Reset();
};

}  // namespace at_npu::native

#define NPU_PATH_TAKEN(op, path)                                                              \
  do {                                                                                        \
    static ::at_npu::native::OpLedgerEntry& npu_path_ledger_entry_ =                          \
        ::at_npu::native::PathLedger::Entry(op);                                              \
    ::at_npu::native::PathLedger::Hit(npu_path_ledger_entry_, ::at_npu::native::ExecPath::path); \
  } while (false)
