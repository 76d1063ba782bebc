// DDP's timer for npu modules: the Reducer asks c10d's TimerRegistry for a timer of its module's
// device type to measure, per sampled iteration, the forward, backward compute and backward
// communication times it logs (DDPLoggingData's avg_*_time, torch.nn.parallel's
// `_get_ddp_logging_data()`). Without one registered for PrivateUse1 the Reducer warns that time
// stats are collected only for CPU and CUDA. Each mark is the host time plus an npu event recorded
// on the device's current stream, so a difference is device time, as CUDA's timer measures it.
#include <torch/csrc/distributed/c10d/reducer_timer.hpp>

#include <c10/core/Device.h>
#include <c10/util/Optional.h>

#include "npu/core/NPUEvent.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStream.h"

namespace c10d {
namespace {

constexpr int64_t kNanosecondsPerMillisecond = 1000000;

class NpuTimer : public Timer {
 public:
  explicit NpuTimer(c10::Device device) : device_(device) {}

  void record(Event event) override {
    Timer::record(event);  // the host time
    c10_npu::NPUGuard guard(device_.index());
    eventOf(event).record(c10_npu::getCurrentNPUStream(device_.index()));
  }

  c10::optional<int64_t> measureDifference(Event start, Event end) override {
    c10_npu::NPUGuard guard(device_.index());
    c10_npu::NPUEvent& first = eventOf(start);
    c10_npu::NPUEvent& last = eventOf(end);
    // An iteration without backward (or under no_sync) never records the backward marks.
    if (!first.isCreated() || !last.isCreated()) return c10::nullopt;
    first.synchronize();
    last.synchronize();
    const float milliseconds = first.elapsed_time(last);
    // The marks of a later iteration can be recorded before those of an earlier one were read.
    if (milliseconds < 0) return c10::nullopt;
    return static_cast<int64_t>(milliseconds * kNanosecondsPerMillisecond);
  }

 private:
  c10_npu::NPUEvent& eventOf(Event event) {
    switch (event) {
      case Event::kForwardStart: return forwardStart_;
      case Event::kBackwardComputeStart: return backwardComputeStart_;
      case Event::kBackwardComputeEnd: return backwardComputeEnd_;
      case Event::kBackwardCommStart: return backwardCommStart_;
      case Event::kBackwardCommEnd: return backwardCommEnd_;
    }
    TORCH_INTERNAL_ASSERT(false, "NpuTimer: unknown event ", static_cast<int>(event));
  }

  c10::Device device_;
  c10_npu::NPUEvent forwardStart_{/*enable_timing=*/true};
  c10_npu::NPUEvent backwardComputeStart_{/*enable_timing=*/true};
  c10_npu::NPUEvent backwardComputeEnd_{/*enable_timing=*/true};
  c10_npu::NPUEvent backwardCommStart_{/*enable_timing=*/true};
  c10_npu::NPUEvent backwardCommEnd_{/*enable_timing=*/true};
};

C10_REGISTER_TYPED_CLASS(TimerRegistry, c10::kPrivateUse1, NpuTimer);

}  // namespace
}  // namespace c10d
