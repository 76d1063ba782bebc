// aclrt*Event: record/wait/query/synchronize/elapsed time.
#include "runtime/event.h"

#include <chrono>
#include <map>

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"

namespace ascendc_sim {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class RecordTask final : public Task {
 public:
  RecordTask(std::shared_ptr<Event> event, uint64_t generation) : event_(std::move(event)), generation_(generation) {}
  aclError Run(Stream& stream, std::string*) override {
    StreamError pending;
    const uint64_t errorId = stream.PeekError(&pending) ? pending.id : 0;
    event_->MarkComplete(generation_, NowNs(), errorId);
    return ACL_SUCCESS;
  }

 private:
  std::shared_ptr<Event> event_;
  uint64_t generation_;
};

// Waits, on the stream that runs it, for another stream to reach a record.
class StreamWaitTask final : public Task {
 public:
  StreamWaitTask(std::shared_ptr<Stream> other, uint64_t seq) : other_(std::move(other)), seq_(seq) {}
  aclError Run(Stream&, std::string*) override {
    other_->WaitFor(seq_);
    return ACL_SUCCESS;
  }

 private:
  std::shared_ptr<Stream> other_;
  uint64_t seq_;
};

// Live events by handle; destroying the handle keeps queued records valid.
class EventRegistry {
 public:
  aclrtEvent Add(std::shared_ptr<Event> event) {
    std::lock_guard<std::mutex> lock(mu_);
    Event* raw = event.get();
    events_[raw] = std::move(event);
    return raw;
  }
  std::shared_ptr<Event> Remove(aclrtEvent handle) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(static_cast<Event*>(handle));
    if (it == events_.end()) return nullptr;
    std::shared_ptr<Event> out = std::move(it->second);
    events_.erase(it);
    return out;
  }
  std::shared_ptr<Event> Find(aclrtEvent handle) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(static_cast<Event*>(handle));
    return it == events_.end() ? nullptr : it->second;
  }

 private:
  std::mutex mu_;
  std::map<Event*, std::shared_ptr<Event>> events_;
};

EventRegistry& Registry() {
  static EventRegistry* registry = new EventRegistry();
  return *registry;
}

aclError LookupEvent(aclrtEvent handle, const char* api, const char* what, std::shared_ptr<Event>* out) {
  if (handle == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: %s is null", api, what);
  *out = Registry().Find(handle);
  if (!*out) {
    return RaiseError(ACL_ERROR_INVALID_RESOURCE_HANDLE, "%s: %s (%p) is not a live event", api, what, handle);
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError Event::Record(Stream& stream) {
  uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(mu_);
    generation = ++generation_;
    stream_ = stream.shared_from_this();
  }
  // The record's sequence number is known only once it is queued; a waiter that
  // looks before that sees the previous record, which is what CANN does too.
  const uint64_t seq = stream.Enqueue(std::make_unique<RecordTask>(shared_from_this(), generation));
  std::lock_guard<std::mutex> lock(mu_);
  if (generation == generation_) seq_ = seq;
  return ACL_SUCCESS;
}

std::shared_ptr<Stream> Event::LatestRecord(uint64_t* seq) const {
  std::lock_guard<std::mutex> lock(mu_);
  *seq = seq_;
  return seq_ == 0 ? nullptr : stream_;
}

bool Event::Complete() const {
  std::lock_guard<std::mutex> lock(mu_);
  return completedGeneration_ >= generation_;
}

StreamError Event::Synchronize() {
  uint64_t seq = 0;
  std::shared_ptr<Stream> stream = LatestRecord(&seq);
  StreamError out;
  if (!stream) return out;
  stream->WaitFor(seq);
  uint64_t errorId;
  {
    std::lock_guard<std::mutex> lock(mu_);
    errorId = errorId_;
  }
  if (errorId != 0) stream->TakeErrorIf(errorId, &out);
  return out;
}

bool Event::Timestamp(int64_t* ns) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (generation_ == 0 || completedGeneration_ < generation_) return false;
  *ns = timestampNs_;
  return true;
}

void Event::MarkComplete(uint64_t generation, int64_t ns, uint64_t errorId) {
  std::lock_guard<std::mutex> lock(mu_);
  if (generation < completedGeneration_) return;
  completedGeneration_ = generation;
  timestampNs_ = ns;
  errorId_ = errorId;
}

}  // namespace ascendc_sim

using ascendc_sim::Event;
using ascendc_sim::RaiseError;

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  if (event == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is null");
  *event = ascendc_sim::Registry().Add(std::make_shared<Event>(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
  return ACL_SUCCESS;
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  if (event == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtCreateEventWithFlag: event is null");
  const uint32_t known = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE;
  if ((flag & ~known) != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtCreateEventWithFlag: unknown flag bits 0x%x", flag & ~known);
  }
  *event = ascendc_sim::Registry().Add(std::make_shared<Event>(flag));
  return ACL_SUCCESS;
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  if (event == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtCreateEventExWithFlag: event is null");
  return aclrtCreateEventWithFlag(event, flag);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  (void)event;
  (void)stream;
  return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtResetEvent is not supported by the simulator");
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  if (event == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event is null");
  std::shared_ptr<Event> removed = ascendc_sim::Registry().Remove(event);
  if (!removed) {
    return RaiseError(ACL_ERROR_INVALID_RESOURCE_HANDLE, "aclrtDestroyEvent: %p is not a live event", event);
  }
  removed->Invalidate();
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  std::shared_ptr<Event> e;
  aclError rc = ascendc_sim::LookupEvent(event, "aclrtRecordEvent", "event", &e);
  if (rc != ACL_SUCCESS) return rc;
  ascendc_sim::Stream* s = nullptr;
  rc = ascendc_sim::ResolveStream(stream, "aclrtRecordEvent", &s);
  if (rc != ACL_SUCCESS) return rc;
  return e->Record(*s);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  ascendc_sim::Stream* s = nullptr;
  aclError rc = ascendc_sim::ResolveStream(stream, "aclrtStreamWaitEvent", &s);
  if (rc != ACL_SUCCESS) return rc;
  std::shared_ptr<Event> e;
  rc = ascendc_sim::LookupEvent(event, "aclrtStreamWaitEvent", "event", &e);
  if (rc != ACL_SUCCESS) return rc;
  uint64_t seq = 0;
  std::shared_ptr<ascendc_sim::Stream> recorded = e->LatestRecord(&seq);
  if (!recorded || recorded.get() == s) return ACL_SUCCESS;  // never recorded, or already in order
  return s->Submit(std::make_unique<ascendc_sim::StreamWaitTask>(std::move(recorded), seq));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  std::shared_ptr<Event> e;
  aclError rc = ascendc_sim::LookupEvent(event, "aclrtSynchronizeEvent", "event", &e);
  if (rc != ACL_SUCCESS) return rc;
  ascendc_sim::StreamError error = e->Synchronize();
  if (error.code != ACL_SUCCESS) ascendc_sim::SetRecentError(error.message);
  return error.code;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  std::shared_ptr<Event> e;
  aclError rc = ascendc_sim::LookupEvent(event, "aclrtQueryEventStatus", "event", &e);
  if (rc != ACL_SUCCESS) return rc;
  if (status == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is null");
  *status = e->Complete() ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent start, aclrtEvent end) {
  if (ms == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is null");
  std::shared_ptr<Event> a, b;
  aclError rc = ascendc_sim::LookupEvent(start, "aclrtEventElapsedTime", "start", &a);
  if (rc != ACL_SUCCESS) return rc;
  rc = ascendc_sim::LookupEvent(end, "aclrtEventElapsedTime", "end", &b);
  if (rc != ACL_SUCCESS) return rc;
  if ((a->flags() & ACL_EVENT_TIME_LINE) == 0 || (b->flags() & ACL_EVENT_TIME_LINE) == 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM,
                      "aclrtEventElapsedTime: both events must be created with ACL_EVENT_TIME_LINE");
  }
  int64_t t0 = 0, t1 = 0;
  if (!a->Timestamp(&t0) || !b->Timestamp(&t1)) {
    return RaiseError(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                      "aclrtEventElapsedTime: %s event has not been recorded or has not completed",
                      a->Timestamp(&t0) ? "end" : "start");
  }
  *ms = static_cast<float>(static_cast<double>(t1 - t0) / 1e6);
  return ACL_SUCCESS;
}

}  // extern "C"
