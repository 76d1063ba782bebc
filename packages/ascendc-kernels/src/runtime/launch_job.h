// One kernel launch being executed: the blocks still to run, the first error,
// and how a simulated AI core (any thread) runs blocks of it.
#ifndef ASCENDC_SIM_RUNTIME_LAUNCH_JOB_H
#define ASCENDC_SIM_RUNTIME_LAUNCH_JOB_H

#include <stdint.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>

#include "ascendc_sim/launch.h"

namespace ascendc_sim {

struct LaunchJob {
  aclsimBlockFn fn = nullptr;
  void* ctx = nullptr;
  uint32_t blockDim = 0;
  uint32_t maxCores = 1;  // simulated cores that may work on it at once

  std::atomic<uint32_t> nextBlock{0};
  std::atomic<uint32_t> doneBlocks{0};
  std::atomic<uint32_t> cores{0};  // threads that joined
  std::atomic<bool> failed{false};

  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;  // all blocks done (under mu)
  std::string error;      // first error (under mu)

  void ReportError(const char* message);
  bool Exhausted() const { return nextBlock.load(std::memory_order_relaxed) >= blockDim; }
};

// Runs blocks of `job` on the calling thread until none is left (or the launch
// failed); the thread acts as one simulated AI core with its own unified buffer.
void RunBlocks(LaunchJob& job);

// Blocks until every block of `job` has finished.
void WaitJobDone(LaunchJob& job);

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_LAUNCH_JOB_H
