// A device's simulated AI (vector) cores: a pool of host threads, each with its
// own unified buffer. A multi-block launch is spread over them; the thread that
// runs the launch (the stream's runner) works as one of the cores, so a launch
// starts at once even while the pool threads are still waking up.
#ifndef ASCENDC_SIM_RUNTIME_CORE_POOL_H
#define ASCENDC_SIM_RUNTIME_CORE_POOL_H

#include <stdint.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/launch_job.h"

namespace ascendc_sim {

class CorePool {
 public:
  CorePool(int32_t device, uint32_t cores);
  ~CorePool();
  CorePool(const CorePool&) = delete;
  CorePool& operator=(const CorePool&) = delete;

  uint32_t size() const { return static_cast<uint32_t>(threads_.size()); }

  // Runs every block of `job` and returns when all have finished.
  void Run(const std::shared_ptr<LaunchJob>& job);

 private:
  void CoreMain();
  std::shared_ptr<LaunchJob> PickJobLocked();

  const int32_t device_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<LaunchJob>> jobs_;
  std::atomic<size_t> jobCount_{0};
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_CORE_POOL_H
