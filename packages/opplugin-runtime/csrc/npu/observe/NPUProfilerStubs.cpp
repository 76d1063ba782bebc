// torch's legacy profiler on npu (torch.autograd.profiler.profile(use_device="npu"), the form
// torch_npu's tests use): the PrivateUse1 profiler stubs, which time each range with a pair of
// device events on the current stream, as the CUDA stubs do with CUDA events.
#include <time.h>

#include <cstdint>
#include <functional>
#include <memory>

#include <torch/csrc/profiler/stubs/base.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStream.h"

namespace at_npu::native {
namespace {

using torch::profiler::impl::ProfilerVoidEventStub;

// record()'s device out-parameter: int* in torch 2.1, c10::DeviceIndex* in later releases.
template <typename Method>
struct FirstParameter;
template <typename R, typename C, typename First, typename... Rest>
struct FirstParameter<R (C::*)(First, Rest...) const> {
  using type = First;
};
using DeviceOut = FirstParameter<decltype(&torch::profiler::impl::ProfilerStubs::record)>::type;

// The profiler's CPU clock (c10::getTime: CLOCK_REALTIME in ns), read the same way on every torch.
int64_t ProfilerClockNs() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

class NPUProfilerStubs final : public torch::profiler::impl::ProfilerStubs {
 public:
  void record(DeviceOut device, ProfilerVoidEventStub* event, int64_t* cpu_ns) const override {
    if (device != nullptr) {
      *device = c10_npu::current_device();
    }
    aclrtEvent handle = nullptr;
    NPU_CHECK_ACL(aclrtCreateEventWithFlag(&handle, ACL_EVENT_TIME_LINE));
    *event = std::shared_ptr<void>(handle, [](void* e) { (void)aclrtDestroyEvent(static_cast<aclrtEvent>(e)); });
    if (cpu_ns != nullptr) {
      *cpu_ns = ProfilerClockNs();
    }
    NPU_CHECK_ACL(aclrtRecordEvent(handle, c10_npu::getCurrentNPUStream().stream()));
  }

  // Microseconds from `event` to `event2`, as the CUDA stubs report.
  float elapsed(const ProfilerVoidEventStub* event, const ProfilerVoidEventStub* event2) const override {
    const auto start = static_cast<aclrtEvent>(event->get());
    const auto end = static_cast<aclrtEvent>(event2->get());
    NPU_CHECK_ACL(aclrtSynchronizeEvent(start));
    NPU_CHECK_ACL(aclrtSynchronizeEvent(end));
    float ms = 0;
    NPU_CHECK_ACL(aclrtEventElapsedTime(&ms, start, end));
    return ms * 1000.0f;
  }

  // The simulator has no tracing annotations (NVTX's role).
  void mark(const char*) const override {}
  void rangePush(const char*) const override {}
  void rangePop() const override {}

  bool enabled() const override { return true; }

  void onEachDevice(std::function<void(int)> op) const override {
    const c10::DeviceIndex count = c10_npu::device_count();
    for (c10::DeviceIndex i = 0; i < count; ++i) {
      c10_npu::NPUGuard guard(i);
      op(i);
    }
  }

  void synchronize() const override { NPU_CHECK_ACL(aclrtSynchronizeDevice()); }
};

const bool kRegistered = [] {
  static NPUProfilerStubs stubs;
  torch::profiler::impl::registerPrivateUse1Methods(&stubs);
  return true;
}();

}  // namespace
}  // namespace at_npu::native
