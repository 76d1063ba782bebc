#include "npu/core/NPUEvent.h"

#include <c10/util/Exception.h>

#include "npu/core/NPUGuardImpl.h"

namespace c10_npu {
namespace {

const impl::NPUGuardImpl& Guard() {
  static const impl::NPUGuardImpl guard;
  return guard;
}

}  // namespace

NPUEvent::NPUEvent(bool enable_timing, bool blocking)
    : flag_(enable_timing ? c10::EventFlag::BACKEND_DEFAULT : c10::EventFlag::PYTORCH_DEFAULT), blocking_(blocking) {}

NPUEvent::~NPUEvent() {
  Guard().destroyEvent(event_, device_index_);
}

void NPUEvent::record(const NPUStream& stream) {
  TORCH_CHECK(device_index_ < 0 || device_index_ == stream.device_index(), "NPUEvent.record: the event was created on npu:",
              static_cast<int>(device_index_), " and cannot be recorded on a stream of npu:",
              static_cast<int>(stream.device_index()));
  Guard().record(&event_, stream.unwrap(), stream.device_index(), flag_);
  device_index_ = stream.device_index();
}

void NPUEvent::block(const NPUStream& stream) {
  Guard().block(event_, stream.unwrap());
}

bool NPUEvent::query() const {
  return Guard().queryEvent(event_);
}

void NPUEvent::synchronize() const {
  Guard().synchronizeEvent(event_);
}

float NPUEvent::elapsed_time(const NPUEvent& end) const {
  TORCH_CHECK(enableTiming() && end.enableTiming(),
              "NPUEvent.elapsed_time: both events must be created with enable_timing=True");
  TORCH_CHECK(isCreated() && end.isCreated(),
              "NPUEvent.elapsed_time: both events must be recorded before calling elapsed_time");
  return static_cast<float>(Guard().elapsedTime(event_, end.event_, device_index_));
}

}  // namespace c10_npu
