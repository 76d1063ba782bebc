// Stream: ordered asynchronous task queue with a lazily started worker.
#include "runtime/stream.h"

#include <pthread.h>

#include <chrono>
#include <exception>

#include "common/error.h"
#include "runtime/config.h"
#include "runtime/device.h"
#include "runtime/spin.h"

namespace ascendc_sim {
namespace {

// How long an idle worker polls for new work before it sleeps, and how long a
// synchronising thread polls for the running task to finish before it sleeps.
constexpr std::chrono::microseconds kWorkerIdleSpin(60);
constexpr std::chrono::microseconds kWaiterSpin(150);
// How long a sleeping worker waits for work before its thread exits (the next
// enqueue starts a new one), so that streams nobody uses hold no thread.
constexpr std::chrono::milliseconds kWorkerIdleExit(200);

std::atomic<uint64_t> g_next_error_id{1};

}  // namespace

Stream::Stream(int32_t device, bool isDefault) : device_(device), isDefault_(isDefault) {}

Stream::~Stream() { Shutdown(); }

void Stream::StartWorkerLocked() {
  if (workerActive_ || stop_) return;
  // A worker that left after idling has released mu_ for good: joining it is immediate.
  if (worker_.joinable()) worker_.join();
  workerActive_ = true;
  worker_ = std::thread([this] { WorkerMain(); });
}

uint64_t Stream::Enqueue(std::unique_ptr<Task> task) {
  uint64_t seq;
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
    queued_.store(queue_.size(), std::memory_order_relaxed);
    seq = enqueued_.load(std::memory_order_relaxed) + 1;
    enqueued_.store(seq, std::memory_order_release);
    if (!Config().launchBlocking) {
      StartWorkerLocked();
      if (workerSleeping_) {
        workerSleeping_ = false;  // one notification per sleep
        wake = true;
      }
    }
  }
  if (wake) workCv_.notify_one();
  if (Config().launchBlocking) WaitFor(seq);
  return seq;
}

aclError Stream::Submit(std::unique_ptr<Task> task) {
  Enqueue(std::move(task));
  if (!Config().launchBlocking) return ACL_SUCCESS;
  // The task has run: its failure is the caller's.
  StreamError error;
  if (PeekError(&error) && TakeErrorIf(error.id, &error)) {
    SetRecentError(error.message);
    return error.code;
  }
  return ACL_SUCCESS;
}

void Stream::Execute(Task& task) {
  std::string message;
  aclError code;
  try {
    code = task.Run(*this, &message);
  } catch (const std::exception& e) {
    code = ACL_ERROR_INTERNAL_ERROR;
    message = StrFormat("stream task raised an exception: %s", e.what());
  } catch (...) {
    code = ACL_ERROR_INTERNAL_ERROR;
    message = "stream task raised an unknown exception";
  }
  if (code != ACL_SUCCESS) RecordError(code, std::move(message));
}

void Stream::RecordError(aclError code, std::string message) {
  std::lock_guard<std::mutex> lock(errorMu_);
  if (error_.code != ACL_SUCCESS) return;  // keep the first
  error_.code = code;
  error_.message = std::move(message);
  error_.id = g_next_error_id.fetch_add(1, std::memory_order_relaxed);
}

bool Stream::PeekError(StreamError* out) const {
  std::lock_guard<std::mutex> lock(errorMu_);
  if (error_.code == ACL_SUCCESS) return false;
  if (out != nullptr) *out = error_;
  return true;
}

bool Stream::TakeErrorIf(uint64_t id, StreamError* out) {
  std::lock_guard<std::mutex> lock(errorMu_);
  if (error_.code == ACL_SUCCESS || error_.id != id) return false;
  if (out != nullptr) *out = std::move(error_);
  error_ = StreamError();
  return true;
}

StreamError Stream::Synchronize() {
  WaitAll();
  std::lock_guard<std::mutex> lock(errorMu_);
  StreamError out = std::move(error_);
  error_ = StreamError();
  return out;
}

void Stream::RunQueuedLocked(std::unique_lock<std::mutex>& lock, uint64_t target) {
  const int32_t previousDevice = CurrentDeviceId();
  if (previousDevice != device_) SetCurrentDeviceId(device_);
  while (!queue_.empty() && completed_.load(std::memory_order_relaxed) < target) {
    std::unique_ptr<Task> task = std::move(queue_.front());
    queue_.pop_front();
    queued_.store(queue_.size(), std::memory_order_relaxed);
    lock.unlock();
    Execute(*task);
    task.reset();
    lock.lock();
    completed_.store(completed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    if (waiters_ > 0) doneCv_.notify_all();
  }
  if (previousDevice != device_) SetCurrentDeviceId(previousDevice);
}

void Stream::WaitFor(uint64_t seq) {
  if (IsComplete(seq)) return;
  if (seq > LastSequence()) seq = LastSequence();
  std::unique_lock<std::mutex> lock(mu_);
  while (!IsComplete(seq)) {
    if (!running_.load(std::memory_order_relaxed)) {
      // The worker is idle: run the queued tasks here, in order.
      running_.store(true, std::memory_order_relaxed);
      RunQueuedLocked(lock, seq);
      running_.store(false, std::memory_order_relaxed);
      if (!queue_.empty() && workerSleeping_) {
        workerSleeping_ = false;
        workCv_.notify_one();
      }
      if (waiters_ > 0) doneCv_.notify_all();
      continue;
    }
    lock.unlock();
    SpinUntil([&] { return IsComplete(seq) || !running_.load(std::memory_order_acquire); }, kWaiterSpin);
    lock.lock();
    if (IsComplete(seq) || !running_.load(std::memory_order_relaxed)) continue;
    ++waiters_;
    doneCv_.wait(lock);
    --waiters_;
  }
}

void Stream::WorkerMain() {
  pthread_setname_np(pthread_self(), "aclsim_stream");
  SetCurrentDeviceId(device_);
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (!queue_.empty() && !running_.load(std::memory_order_relaxed)) {
      running_.store(true, std::memory_order_relaxed);
      RunQueuedLocked(lock, UINT64_MAX);
      running_.store(false, std::memory_order_relaxed);
      if (waiters_ > 0) doneCv_.notify_all();
      continue;
    }
    if (stop_ && queue_.empty()) break;
    lock.unlock();
    const bool gotWork = SpinUntil(
        [&] {
          return (queued_.load(std::memory_order_relaxed) != 0 && !running_.load(std::memory_order_relaxed));
        },
        kWorkerIdleSpin);
    lock.lock();
    if (gotWork || stop_) continue;
    if (!queue_.empty() && !running_.load(std::memory_order_relaxed)) continue;
    workerSleeping_ = true;
    const bool timedOut = workCv_.wait_for(lock, kWorkerIdleExit) == std::cv_status::timeout;
    workerSleeping_ = false;
    if (timedOut && queue_.empty() && !stop_) break;
  }
  workerActive_ = false;
}

void Stream::Shutdown() {
  magic_.store(0, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    workerSleeping_ = false;
  }
  workCv_.notify_all();
  if (worker_.joinable()) {
    if (worker_.get_id() == std::this_thread::get_id()) {
      worker_.detach();  // destroyed from one of its own tasks
    } else {
      worker_.join();
    }
  }
  WaitAll();  // anything left (no worker ever started) runs here
}

}  // namespace ascendc_sim
