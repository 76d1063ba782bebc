// Kernel execution records (ascendc_sim/prof.h).
#include "runtime/prof.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <mutex>

#include "common/error.h"

namespace ascendc_sim {

std::atomic<int> g_prof_depth{0};

namespace {

thread_local uint64_t tls_correlation_id = 0;

struct RecordStore {
  std::mutex mu;
  std::deque<aclsimKernelRecord> records;
  std::deque<aclsimReportRecord> reports;
};

RecordStore& Store() {
  static auto* store = new RecordStore();  // used by stream workers until exit
  return *store;
}

uint64_t ThreadId() {
  thread_local const uint64_t tid = static_cast<uint64_t>(syscall(SYS_gettid));
  return tid;
}

// Moves up to `capacity` of the oldest entries of the store's `queue` into `out`.
template <typename Record>
size_t TakeOldest(std::deque<Record> RecordStore::*queue, Record* out, size_t capacity) {
  if (out == nullptr || capacity == 0) return 0;
  RecordStore& store = Store();
  std::lock_guard<std::mutex> lock(store.mu);
  std::deque<Record>& q = store.*queue;
  const size_t n = std::min(capacity, q.size());
  std::copy_n(q.begin(), n, out);
  q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(n));
  return n;
}

}  // namespace

uint64_t ProfCorrelationId() { return tls_correlation_id; }

int64_t ProfNowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void ProfAppend(aclsimKernelRecord& record) {
  record.threadId = ThreadId();
  RecordStore& store = Store();
  std::lock_guard<std::mutex> lock(store.mu);
  store.records.push_back(record);
}

bool ProfAppendReport(const aclsimReportRecord& record) {
  if (!ProfRecording()) return false;
  RecordStore& store = Store();
  std::lock_guard<std::mutex> lock(store.mu);
  store.reports.push_back(record);
  return true;
}

int64_t ProfSteadyToRealtimeNs() {
  timespec steady;
  clock_gettime(CLOCK_MONOTONIC, &steady);
  const int64_t steadyNow = static_cast<int64_t>(steady.tv_sec) * 1000000000 + steady.tv_nsec;
  return ProfNowNs() - steadyNow;
}

}  // namespace ascendc_sim

extern "C" {

aclError aclsimProfStart(void) {
  ascendc_sim::g_prof_depth.fetch_add(1, std::memory_order_relaxed);
  return ACL_SUCCESS;
}

aclError aclsimProfStop(void) {
  int depth = ascendc_sim::g_prof_depth.load(std::memory_order_relaxed);
  while (depth > 0 && !ascendc_sim::g_prof_depth.compare_exchange_weak(depth, depth - 1, std::memory_order_relaxed)) {
  }
  if (depth <= 0) {
    return ascendc_sim::RaiseError(ACL_ERROR_INVALID_PARAM, "aclsimProfStop: recording was not started");
  }
  return ACL_SUCCESS;
}

int aclsimProfIsRecording(void) { return ascendc_sim::ProfRecording() ? 1 : 0; }

uint64_t aclsimProfSetCorrelationId(uint64_t id) {
  const uint64_t previous = ascendc_sim::tls_correlation_id;
  ascendc_sim::tls_correlation_id = id;
  return previous;
}

size_t aclsimProfTakeRecords(aclsimKernelRecord* records, size_t capacity) {
  return ascendc_sim::TakeOldest(&ascendc_sim::RecordStore::records, records, capacity);
}

size_t aclsimProfTakeReports(aclsimReportRecord* records, size_t capacity) {
  return ascendc_sim::TakeOldest(&ascendc_sim::RecordStore::reports, records, capacity);
}

}  // extern "C"
