#include "npu/dispatch/PathLedger.h"

#include <memory>
#include <mutex>
#include <iterator>
#include <unordered_map>
#include <vector>

namespace at_npu::native {

namespace detail {
thread_local OpLedgerEntry* tls_current_op = nullptr;
std::atomic<int> g_path_observers{0};
}  // namespace detail

namespace {
thread_local std::vector<PathObserver*> tls_observers;  // innermost last
}  // namespace

namespace detail {

void NotifyPath(const OpLedgerEntry& entry, ExecPath path) {
  // A copy: an observer may throw, and outer observers must not see the op then.
  const std::vector<PathObserver*> observers = tls_observers;
  for (auto it = observers.rbegin(); it != observers.rend(); ++it) {
    (*it)->OnPath(entry, path);
  }
}

void NotifyStep(const char* op, const char* step, const char* subject, bool value, const std::string& detail) {
  if (tls_observers.empty()) {
    return;
  }
  const char* name = op != nullptr ? op : PathLedger::CurrentOpName();
  const std::vector<PathObserver*> observers = tls_observers;
  for (auto it = observers.rbegin(); it != observers.rend(); ++it) {
    (*it)->OnStep(name, step, subject != nullptr ? subject : "", value, detail);
  }
}

}  // namespace detail

ScopedPathObserver::ScopedPathObserver(PathObserver* observer) : observer_(observer) {
  tls_observers.push_back(observer_);
  detail::g_path_observers.fetch_add(1, std::memory_order_relaxed);
}

ScopedPathObserver::~ScopedPathObserver() {
  detail::g_path_observers.fetch_sub(1, std::memory_order_relaxed);
  for (auto it = tls_observers.rbegin(); it != tls_observers.rend(); ++it) {
    if (*it == observer_) {
      tls_observers.erase(std::next(it).base());
      break;
    }
  }
}

namespace {

struct Ledger {
  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<OpLedgerEntry>> entries;
};

Ledger& GetLedger() {
  static auto* ledger = new Ledger();  // outlives every static counter reference
  return *ledger;
}

}  // namespace

const char* ExecPathName(ExecPath path) {
  switch (path) {
    case ExecPath::OpApi:
      return "op_api";
    case ExecPath::AclOp:
      return "acl_op";
    case ExecPath::Compat:
      return "compat";
    case ExecPath::CpuFallback:
      return "cpu_fallback";
    case ExecPath::Dvm:
      return "dvm";
  }
  return "unknown";
}

OpLedgerEntry& PathLedger::Entry(const std::string& op) {
  Ledger& ledger = GetLedger();
  std::lock_guard<std::mutex> lock(ledger.mutex);
  auto& slot = ledger.entries[op];
  if (!slot) {
    slot = std::make_unique<OpLedgerEntry>();
    slot->name = op;
  }
  return *slot;
}

std::map<std::string, std::array<uint64_t, kNumExecPaths>> PathLedger::Snapshot() {
  Ledger& ledger = GetLedger();
  std::lock_guard<std::mutex> lock(ledger.mutex);
  std::map<std::string, std::array<uint64_t, kNumExecPaths>> result;
  for (const auto& [op, entry] : ledger.entries) {
    std::array<uint64_t, kNumExecPaths> counts{};
    uint64_t total = 0;
    for (size_t i = 0; i < kNumExecPaths; ++i) {
      counts[i] = entry->counts[i].load(std::memory_order_relaxed);
      total += counts[i];
    }
    if (total > 0) {
      result.emplace(op, counts);
    }
  }
  return result;
}

void PathLedger::Reset() {
  Ledger& ledger = GetLedger();
  std::lock_guard<std::mutex> lock(ledger.mutex);
  for (auto& [op, entry] : ledger.entries) {
    for (auto& count : entry->counts) {
      count.store(0, std::memory_order_relaxed);
    }
  }
}

}  // namespace at_npu::native
