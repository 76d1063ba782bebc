// Kernel launch: aclsimLaunchKernel queues a launch task; when it runs, the
// blocks execute on the device's simulated AI cores. Also the in-block
// thread-locals (block index/count, unified buffer) behind the aclsim* calls.
#include <stdio.h>
#include <stdlib.h>

#include <chrono>
#include <exception>
#include <memory>
#include <string>

#include "acl/acl_rt.h"
#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "common/error.h"
#include "runtime/config.h"
#include "runtime/core_pool.h"
#include "runtime/device.h"
#include "runtime/device_settings.h"
#include "runtime/launch_job.h"
#include "runtime/launch_origin.h"
#include "runtime/prof.h"
#include "runtime/spin.h"
#include "runtime/stream.h"

namespace ascendc_sim {
namespace {

constexpr uint32_t kMaxBlockDim = 65535;
constexpr std::chrono::microseconds kJoinSpin(200);

struct BlockState {
  uint32_t idx = 0;
  uint32_t num = 1;
  LaunchJob* job = nullptr;
};

thread_local BlockState tls_block;

// The calling thread's unified buffer (one per simulated core thread).
struct UnifiedBuffer {
  uint8_t* data = nullptr;
  uint64_t size = 0;
  ~UnifiedBuffer() { free(data); }
  void Ensure() {
    if (data != nullptr) return;
    size = Config().ubBytes;
    data = static_cast<uint8_t*>(aligned_alloc(64, (size + 63) / 64 * 64));
  }
};

thread_local UnifiedBuffer tls_ub;

// The cube-side local memories of the calling thread's core (allocated on first use).
struct CubeMemories {
  static constexpr uint64_t kBytes[4] = {512u << 10, 64u << 10, 64u << 10, 128u << 10};  // L1, L0A, L0B, L0C
  uint8_t* data[4] = {};
  ~CubeMemories() {
    for (uint8_t* p : data) free(p);
  }
  uint8_t* Get(int index) {
    if (data[index] == nullptr) data[index] = static_cast<uint8_t*>(aligned_alloc(64, kBytes[index]));
    return data[index];
  }
};

thread_local CubeMemories tls_cube;

void RunOneBlock(LaunchJob& job, uint32_t idx) {
  tls_block.idx = idx;
  try {
    job.fn(job.ctx);
  } catch (const KernelTrap&) {
    // already reported
  } catch (const std::exception& e) {
    job.ReportError(StrFormat("block %u raised an exception: %s", idx, e.what()).c_str());
  } catch (...) {
    job.ReportError(StrFormat("block %u raised an unknown exception", idx).c_str());
  }
}

// Counts a kernel's run in its device's utilization.
class KernelTime {
 public:
  explicit KernelTime(Device& device) : device_(device) { device_.BeginKernel(); }
  ~KernelTime() { device_.EndKernel(); }
  KernelTime(const KernelTime&) = delete;
  KernelTime& operator=(const KernelTime&) = delete;

 private:
  Device& device_;
};

class LaunchTask final : public Task {
 public:
  LaunchTask(const char* name, uint32_t blockDim, aclsimBlockFn fn, void* ctx, aclsimCtxDestroyFn destroy,
             const char* origin)
      : name_(name), origin_(origin != nullptr ? origin : ""), blockDim_(blockDim), fn_(fn), ctx_(ctx),
        destroy_(destroy), profiled_(ProfRecording()), correlationId_(profiled_ ? ProfCorrelationId() : 0) {}

  ~LaunchTask() override {
    if (destroy_ != nullptr) destroy_(ctx_);
  }

  aclError Run(Stream& stream, std::string* message) override {
    KernelTime busy(*FindDevice(stream.device()));
    const uint64_t timeoutUs = OpExecuteTimeoutUs();
    if (timeoutUs != 0) return ExecuteWithin(timeoutUs, stream, message);
    if (!profiled_) return Execute(stream, message);
    return ExecuteProfiled(stream, message);
  }

 private:
  aclError ExecuteProfiled(Stream& stream, std::string* message) {
    aclsimKernelRecord record{};
    record.startNs = ProfNowNs();
    const aclError rc = Execute(stream, message);
    record.endNs = ProfNowNs();
    snprintf(record.name, sizeof(record.name), "%s", name_.c_str());
    snprintf(record.origin, sizeof(record.origin), "%s", origin_.c_str());
    record.deviceId = stream.device();
    record.blockDim = blockDim_;
    record.stream = reinterpret_cast<uint64_t>(&stream);
    record.correlationId = correlationId_;
    ProfAppend(record);
    return rc;
  }

  // Runs the kernel (profiled or not); one that ran longer than the op execute timeout fails its
  // stream once it has finished (the host function is not interrupted).
  aclError ExecuteWithin(uint64_t timeoutUs, Stream& stream, std::string* message) {
    const auto start = std::chrono::steady_clock::now();
    const aclError rc = profiled_ ? ExecuteProfiled(stream, message) : Execute(stream, message);
    const auto elapsedUs = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count());
    if (rc != ACL_SUCCESS || elapsedUs <= timeoutUs) return rc;
    *message = StrFormat("kernel '%s' ran %llu us, longer than the op execute timeout of %llu us", name_.c_str(),
                         static_cast<unsigned long long>(elapsedUs), static_cast<unsigned long long>(timeoutUs));
    return ACL_ERROR_RT_AICORE_TIMEOUT;
  }

  aclError Execute(Stream& stream, std::string* message) {
    const bool faulted = !Config().faultKernel.empty() && Config().faultKernel == name_;
    if (blockDim_ == 1 || faulted) {  // runs here, on this thread: no shared job needed
      LaunchJob job;
      job.fn = fn_;
      job.ctx = ctx_;
      job.blockDim = blockDim_;
      job.maxCores = 1;
      if (faulted) {
        job.ReportError("fault injected by ASCEND_SIM_FAULT_KERNEL");  // no block runs
      } else {
        RunBlocks(job);
      }
      return Finish(job, message);
    }
    auto job = std::make_shared<LaunchJob>();
    job->fn = fn_;
    job->ctx = ctx_;
    job->blockDim = blockDim_;
    CorePool& cores = FindDevice(stream.device())->Cores();
    job->maxCores = cores.size();
    cores.Run(job);
    return Finish(*job, message);
  }

  aclError Finish(LaunchJob& job, std::string* message) {
    if (destroy_ != nullptr) {
      destroy_(ctx_);
      destroy_ = nullptr;
    }
    if (!job.failed.load(std::memory_order_acquire)) return ACL_SUCCESS;
    std::lock_guard<std::mutex> lock(job.mu);
    if (origin_.empty()) {
      *message = StrFormat("kernel '%s' failed: %s", name_.c_str(), job.error.c_str());
    } else {
      *message = StrFormat("kernel '%s' (launched by %s) failed: %s", name_.c_str(), origin_.c_str(),
                           job.error.c_str());
    }
    return ACL_ERROR_RT_AICORE_EXCEPTION;
  }

  std::string name_;
  std::string origin_;
  uint32_t blockDim_;
  aclsimBlockFn fn_;
  void* ctx_;
  aclsimCtxDestroyFn destroy_;
  bool profiled_;           // recording was on at launch
  uint64_t correlationId_;  // the launching thread's correlation id
};

thread_local const char* tls_launch_origin = nullptr;

}  // namespace

void LaunchJob::ReportError(const char* message) {
  std::lock_guard<std::mutex> lock(mu);
  if (!failed.load(std::memory_order_relaxed)) {
    error = message != nullptr ? message : "";
    failed.store(true, std::memory_order_release);
  }
}

void RunBlocks(LaunchJob& job) {
  const BlockState saved = tls_block;
  tls_block.num = job.blockDim;
  tls_block.job = &job;
  tls_ub.Ensure();
  for (;;) {
    const uint32_t idx = job.nextBlock.fetch_add(1, std::memory_order_relaxed);
    if (idx >= job.blockDim) break;
    if (!job.failed.load(std::memory_order_relaxed)) RunOneBlock(job, idx);  // after a failure: skipped
    if (job.doneBlocks.fetch_add(1, std::memory_order_acq_rel) + 1 == job.blockDim) {
      std::lock_guard<std::mutex> lock(job.mu);
      job.finished = true;
      job.cv.notify_all();
    }
  }
  tls_block = saved;
}

void WaitJobDone(LaunchJob& job) {
  if (SpinUntil([&] { return job.doneBlocks.load(std::memory_order_acquire) >= job.blockDim; }, kJoinSpin)) return;
  std::unique_lock<std::mutex> lock(job.mu);
  job.cv.wait(lock, [&] { return job.finished; });
}

ScopedLaunchOrigin::ScopedLaunchOrigin(const char* origin) : previous_(tls_launch_origin) {
  tls_launch_origin = origin;
}

ScopedLaunchOrigin::~ScopedLaunchOrigin() { tls_launch_origin = previous_; }

}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

extern "C" {

aclError aclsimLaunchKernel(const char* kernelName, uint32_t blockDim, aclrtStream stream, aclsimBlockFn fn,
                            void* ctx, aclsimCtxDestroyFn destroy) {
  const char* name = kernelName != nullptr ? kernelName : "<unnamed>";
  auto reject = [&](aclError code) {
    if (destroy != nullptr) destroy(ctx);  // the simulator owns ctx even when the launch is refused
    return code;
  };
  if (fn == nullptr) {
    return reject(RaiseError(ACL_ERROR_INVALID_PARAM, "aclsimLaunchKernel: kernel '%s' has a null block function",
                             name));
  }
  if (blockDim == 0 || blockDim > ascendc_sim::kMaxBlockDim) {
    return reject(RaiseError(ACL_ERROR_INVALID_PARAM, "aclsimLaunchKernel: kernel '%s': blockDim %u is outside [1, %u]",
                             name, blockDim, ascendc_sim::kMaxBlockDim));
  }
  ascendc_sim::Stream* target = nullptr;
  const aclError rc = ascendc_sim::ResolveStream(stream, "aclsimLaunchKernel", &target);
  if (rc != ACL_SUCCESS) return reject(rc);
  return target->Submit(std::make_unique<ascendc_sim::LaunchTask>(name, blockDim, fn, ctx, destroy,
                                                                  ascendc_sim::tls_launch_origin));
}

uint32_t aclsimGetBlockIdx(void) { return ascendc_sim::tls_block.idx; }

uint32_t aclsimGetBlockNum(void) { return ascendc_sim::tls_block.num; }

void* aclsimGetUnifiedBuffer(uint64_t* size) {
  ascendc_sim::tls_ub.Ensure();
  if (size != nullptr) *size = ascendc_sim::tls_ub.size;
  return ascendc_sim::tls_ub.data;
}

void* aclsimGetLocalMemory(aclsimLocalMemory kind, uint64_t* size) {
  if (kind == ACLSIM_MEM_UB) return aclsimGetUnifiedBuffer(size);
  const int index = static_cast<int>(kind) - 1;
  if (index < 0 || index >= 4) {
    if (size != nullptr) *size = 0;
    return nullptr;
  }
  if (size != nullptr) *size = ascendc_sim::CubeMemories::kBytes[index];
  return ascendc_sim::tls_cube.Get(index);
}

void aclsimReportKernelError(const char* msg) {
  ascendc_sim::LaunchJob* job = ascendc_sim::tls_block.job;
  if (job == nullptr) {
    ascendc_sim::SetRecentError(msg != nullptr ? msg : "kernel error outside of a kernel launch");
    return;
  }
  job->ReportError(msg);
}

uint32_t aclsimGetCoreNumAiv(void) { return ascendc_sim::Config().aivCoreNum; }

uint64_t aclsimGetUbSize(void) { return ascendc_sim::Config().ubBytes; }

}  // extern "C"
