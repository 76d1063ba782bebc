// The simulated AI cores of a device.
#include "runtime/core_pool.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>

#include "runtime/device.h"
#include "runtime/spin.h"

namespace ascendc_sim {
namespace {

// An idle core polls this long for the next launch before it sleeps.
constexpr std::chrono::microseconds kCoreIdleSpin(30);

}  // namespace

CorePool::CorePool(int32_t device, uint32_t cores) : device_(device) {
  threads_.reserve(cores);
  for (uint32_t i = 0; i < cores; ++i) threads_.emplace_back([this] { CoreMain(); });
}

CorePool::~CorePool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

std::shared_ptr<LaunchJob> CorePool::PickJobLocked() {
  while (!jobs_.empty() && jobs_.front()->Exhausted()) jobs_.pop_front();
  jobCount_.store(jobs_.size(), std::memory_order_relaxed);
  for (const auto& job : jobs_) {
    if (job->Exhausted()) continue;
    uint32_t joined = job->cores.load(std::memory_order_relaxed);
    while (joined < job->maxCores) {
      if (job->cores.compare_exchange_weak(joined, joined + 1, std::memory_order_relaxed)) return job;
    }
  }
  return nullptr;
}

void CorePool::CoreMain() {
  // Named, or it would inherit the name of whichever thread made the pool (often a stream worker).
  pthread_setname_np(pthread_self(), "aclsim_core");
  SetCurrentDeviceId(device_);
  for (;;) {
    std::shared_ptr<LaunchJob> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      bool spun = false;
      for (;;) {
        if (stop_) return;
        job = PickJobLocked();
        if (job) break;
        if (!spun) {
          lock.unlock();
          SpinUntil([this] { return jobCount_.load(std::memory_order_relaxed) != 0; }, kCoreIdleSpin);
          lock.lock();
          spun = true;
          continue;
        }
        cv_.wait(lock);
        spun = false;
      }
    }
    RunBlocks(*job);
  }
}

void CorePool::Run(const std::shared_ptr<LaunchJob>& job) {
  const uint32_t helpers = std::min(job->blockDim, job->maxCores) - 1;
  job->cores.store(1, std::memory_order_relaxed);  // the calling thread
  if (helpers > 0) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      jobs_.push_back(job);
      jobCount_.store(jobs_.size(), std::memory_order_relaxed);
    }
    for (uint32_t i = 0; i < helpers; ++i) cv_.notify_one();
  }
  RunBlocks(*job);
  WaitJobDone(*job);
  if (helpers > 0) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = std::find(jobs_.begin(), jobs_.end(), job);
    if (it != jobs_.end()) jobs_.erase(it);
    jobCount_.store(jobs_.size(), std::memory_order_relaxed);
  }
}

}  // namespace ascendc_sim
