// Bindings of pinned host memory (torch.npu.host_memory_stats and its resets,
// emptying the host cache) and of torch.npu._sleep, which holds a stream busy
// so that a test can see a queued copy still waiting.
#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUCachingHostAllocator.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUStream.h"

namespace py = pybind11;

namespace {

using c10_npu::NPUCachingAllocator::Stat;
using c10_npu::NPUCachingHostAllocator::DurationStat;

py::dict StatDict(const Stat& stat) {
  py::dict d;
  d["current"] = stat.current;
  d["peak"] = stat.peak;
  d["allocated"] = stat.allocated;
  d["freed"] = stat.freed;
  return d;
}

py::dict DurationDict(const DurationStat& stat) {
  py::dict d;
  d["total"] = stat.total;
  d["max"] = stat.max;
  d["min"] = stat.min;
  d["count"] = stat.count;
  d["avg"] = stat.count == 0 ? 0 : stat.total / stat.count;
  return d;
}

// torch.cuda.host_memory_stats_as_nested_dict's shape.
py::dict HostMemoryStats() {
  const auto stats = c10_npu::NPUCachingHostAllocator::getStats();
  py::dict d;
  d["allocations"] = StatDict(stats.allocations);
  d["allocated_bytes"] = StatDict(stats.allocated_bytes);
  d["active_requests"] = StatDict(stats.active_requests);
  d["active_bytes"] = StatDict(stats.active_bytes);
  d["num_host_alloc"] = stats.num_host_alloc;
  d["num_host_free"] = stats.num_host_free;
  d["host_alloc_time"] = DurationDict(stats.host_alloc_time);
  d["host_free_time"] = DurationDict(stats.host_free_time);
  return d;
}

void SleepCallback(void* user_data) {
  auto* ns = static_cast<int64_t*>(user_data);
  std::this_thread::sleep_for(std::chrono::nanoseconds(*ns));
  delete ns;
}

// Queues on the current stream a task that keeps it busy for `cycles` device
// cycles (the simulated device counts one cycle per nanosecond).
void Sleep(int64_t cycles) {
  TORCH_CHECK(cycles >= 0, "torch.npu._sleep: cycles must be non-negative, got ", cycles);
  auto* ns = new int64_t(cycles);
  aclError rc = aclrtLaunchCallback(&SleepCallback, ns, ACL_CALLBACK_BLOCK, c10_npu::getCurrentNPUStream().stream());
  if (rc != ACL_SUCCESS) {
    delete ns;
    NPU_CHECK_ACL(rc);
  }
}

}  // namespace

void InitHostMemoryBindings(py::module& m) {
  m.def("host_memory_stats", &HostMemoryStats);
  m.def("reset_peak_host_memory_stats", &c10_npu::NPUCachingHostAllocator::resetPeakStats);
  m.def("reset_accumulated_host_memory_stats", &c10_npu::NPUCachingHostAllocator::resetAccumulatedStats);
  m.def("host_empty_cache", &c10_npu::NPUCachingHostAllocator::emptyCache);
  m.def("_sleep", &Sleep);
}
