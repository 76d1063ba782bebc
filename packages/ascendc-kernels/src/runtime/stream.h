// A stream: an ordered queue of tasks executed off the enqueuing thread.
//
// Each stream owns one worker thread (started with the first enqueue; it exits
// after 200 ms without work and the next enqueue starts another). Exactly
// one thread at a time holds the right to run a stream's tasks (the "runner"):
// normally the worker; but a thread that synchronises with the stream while the
// worker is idle (sleeping, or not yet woken) takes the right and runs the
// still-queued tasks itself, in order - which saves the 40-50 us wake-up of the
// worker on this VM. The worker polls briefly before it sleeps so that
// back-to-back launches do not pay the wake-up either.
#ifndef ASCENDC_SIM_RUNTIME_STREAM_H
#define ASCENDC_SIM_RUNTIME_STREAM_H

#include <stdint.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "acl/acl_base.h"

namespace ascendc_sim {

class Stream;

// The first failure of queued work, kept until a synchronising call takes it.
struct StreamError {
  aclError code = ACL_SUCCESS;
  std::string message;
  uint64_t id = 0;  // global order of errors (earliest first)
};

class Task {
 public:
  virtual ~Task() = default;
  // Runs on the thread executing the stream. Returns ACL_SUCCESS, or an error
  // code with `*message` saying what failed (naming the kernel or op).
  virtual aclError Run(Stream& stream, std::string* message) = 0;
};

class Stream : public std::enable_shared_from_this<Stream> {
 public:
  Stream(int32_t device, bool isDefault);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  bool Valid() const { return magic_.load(std::memory_order_relaxed) == kMagic; }
  int32_t device() const { return device_; }
  bool isDefault() const { return isDefault_; }

  // Queues `task` and returns its sequence number (1, 2, ...). Under
  // ASCEND_LAUNCH_BLOCKING=1 it has run when this returns.
  uint64_t Enqueue(std::unique_ptr<Task> task);
  // Enqueue for API calls: ACL_SUCCESS, or (launch-blocking mode only) the
  // task's error, which is then also the thread's recent error.
  aclError Submit(std::unique_ptr<Task> task);

  uint64_t LastSequence() const { return enqueued_.load(std::memory_order_acquire); }
  bool IsComplete(uint64_t seq) const { return completed_.load(std::memory_order_acquire) >= seq; }
  bool Idle() const { return IsComplete(LastSequence()); }

  // Returns once task `seq` has run, helping when the worker is idle.
  void WaitFor(uint64_t seq);
  void WaitAll() { WaitFor(LastSequence()); }

  // The pending error (if any) without clearing it.
  bool PeekError(StreamError* out) const;
  // Clears the pending error when it is the one with `id`; true if it was.
  bool TakeErrorIf(uint64_t id, StreamError* out);
  // Waits for all work, then returns and clears the pending error.
  StreamError Synchronize();

  // Stops the worker after the queue drained; the stream accepts no more work.
  void Shutdown();

 private:
  static constexpr uint32_t kMagic = 0x5354524du;

  void WorkerMain();
  void StartWorkerLocked();
  // Runs queued tasks while this thread holds the runner right, until task
  // `target` completed or the queue is empty. Called and returns with `lock` held.
  void RunQueuedLocked(std::unique_lock<std::mutex>& lock, uint64_t target);
  void Execute(Task& task);
  void RecordError(aclError code, std::string message);

  std::atomic<uint32_t> magic_{kMagic};
  const int32_t device_;
  const bool isDefault_;

  mutable std::mutex mu_;
  std::condition_variable workCv_;  // worker: work arrived or stop
  std::condition_variable doneCv_;  // waiters: a task completed or the runner left
  std::deque<std::unique_ptr<Task>> queue_;
  std::atomic<uint64_t> enqueued_{0};
  std::atomic<uint64_t> completed_{0};
  std::atomic<size_t> queued_{0};
  std::atomic<bool> running_{false};
  bool workerSleeping_ = false;
  bool workerActive_ = false;  // a worker thread runs WorkerMain (guarded by mu_)
  int waiters_ = 0;
  bool stop_ = false;
  std::thread worker_;

  mutable std::mutex errorMu_;
  StreamError error_;
};

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_STREAM_H
