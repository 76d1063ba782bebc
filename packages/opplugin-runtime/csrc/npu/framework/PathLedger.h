// Which execution path each operator took, counted per process:
// op_api (aclnn), acl_op (OpCommand), compat (DO_COMPATIBILITY fell back to
// acl_op because the aclnn symbol is missing), the CPU fallback and dvm (lazy
// fusion kernels, see LazyFusion.h).
//
// NPU_PATH_TAKEN(op, Path) costs a function-local static reference and one
// relaxed increment per call; it also remembers the op as the calling thread's
// current op, so DO_COMPATIBILITY inside the op_api kernel counts under it.
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
};

namespace detail {
extern thread_local OpLedgerEntry* tls_current_op;
}  // namespace detail

class PathLedger {
 public:
  // The entry of `op` (created on first use; stable for the life of the process).
  static OpLedgerEntry& Entry(const std::string& op);

  static void Hit(OpLedgerEntry& entry, ExecPath path) {
    entry.counts[static_cast<size_t>(path)].fetch_add(1, std::memory_order_relaxed);
    detail::tls_current_op = &entry;
  }

  // Counts `path` under the calling thread's current op (if any).
  static void HitCurrent(ExecPath path) {
    OpLedgerEntry* entry = detail::tls_current_op;
    if (entry != nullptr) {
      entry->counts[static_cast<size_t>(path)].fetch_add(1, std::memory_order_relaxed);
    }
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
