#include "npu/observe/NPUActivityProfiler.h"

#include "npu/core/TorchCompat.h"

#if NPU_HAS_PRIVATEUSE1_PROFILER

// kineto's metadata helpers format with fmt, whose compiled part libtorch does not export.
#ifndef FMT_HEADER_ONLY
#define FMT_HEADER_ONLY 1
#endif
#ifndef USE_KINETO
#define USE_KINETO 1  // torch's wheels are built with kineto; its headers guard on this
#endif

#include <torch/csrc/profiler/standalone/privateuse1_profiler.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <IActivityProfiler.h>
#include <libkineto.h>

#include "ascendc_sim/prof.h"

namespace at_npu::native {
namespace {

using libkineto::ActivityType;

// Correlation ids pushed by kineto for the ops being profiled on this thread.
thread_local std::vector<uint64_t> tls_correlation_stack;

std::vector<aclsimKernelRecord> TakeAllRecords() {
  std::vector<aclsimKernelRecord> out;
  aclsimKernelRecord chunk[64];
  for (;;) {
    const size_t n = aclsimProfTakeRecords(chunk, 64);
    out.insert(out.end(), chunk, chunk + n);
    if (n < 64) {
      return out;
    }
  }
}

class NPUActivityProfilerSession final : public libkineto::IActivityProfilerSession {
 public:
  NPUActivityProfilerSession() = default;
  ~NPUActivityProfilerSession() override {
    if (recording_) {
      aclsimProfStop();
    }
  }

  void start() override {
    TakeAllRecords();  // drop anything left from an earlier session
    recording_ = aclsimProfStart() == ACL_SUCCESS;
    status_ = libkineto::TraceStatus::RECORDING;
  }

  void stop() override {
    if (recording_) {
      aclsimProfStop();
      recording_ = false;
    }
    records_ = TakeAllRecords();
    status_ = libkineto::TraceStatus::PROCESSING;
  }

  std::vector<std::string> errors() override { return {}; }

  void processTrace(libkineto::ActivityLogger& logger) override { processTrace(logger, nullptr, 0, 0); }

  void processTrace(libkineto::ActivityLogger& logger, libkineto::getLinkedActivityCallback getLinkedActivity,
                    int64_t /*startTime*/, int64_t /*endTime*/) override {
    buffer_ = std::make_unique<libkineto::CpuTraceBuffer>();
    int64_t first = 0;
    int64_t last = 0;
    for (const aclsimKernelRecord& record : records_) {
      first = first == 0 ? record.startNs : std::min(first, record.startNs);
      last = std::max(last, record.endNs);
    }
    buffer_->span = libkineto::TraceSpan(first, last, "npu");
    buffer_->gpuOpCount = static_cast<int>(records_.size());
    for (const aclsimKernelRecord& record : records_) {
      const int32_t resource = ResourceId(record.deviceId, record.stream);
      auto activity = std::make_unique<libkineto::GenericTraceActivity>(buffer_->span, ActivityType::CONCURRENT_KERNEL,
                                                                        std::string(record.name));
      activity->startTime = record.startNs;
      activity->endTime = record.endNs;
      activity->device = record.deviceId;
      activity->resource = resource;
      activity->threadId = static_cast<int32_t>(record.threadId);
      activity->id = static_cast<int32_t>(record.correlationId);
      if (getLinkedActivity && record.correlationId != 0) {
        activity->linked = getLinkedActivity(static_cast<int32_t>(record.correlationId));
      }
      activity->addMetadataQuoted("origin", record.origin);
      activity->addMetadata("device", record.deviceId);
      activity->addMetadata("stream", resource);
      activity->addMetadata("blocks", record.blockDim);
      activity->addMetadata("correlation", record.correlationId);
      buffer_->activities.push_back(std::move(activity));
    }
    for (const auto& activity : buffer_->activities) {
      activity->log(logger);  // logger.handleGenericActivity(*activity)
    }
    status_ = libkineto::TraceStatus::READY;
  }

  std::unique_ptr<libkineto::DeviceInfo> getDeviceInfo() override { return nullptr; }

  std::vector<libkineto::ResourceInfo> getResourceInfos() override {
    std::vector<libkineto::ResourceInfo> infos;
    for (const auto& [key, id] : resources_) {
      infos.push_back(libkineto::ResourceInfo{id, id, key.first, "NPU stream " + std::to_string(id)});
    }
    return infos;
  }

  std::unique_ptr<libkineto::CpuTraceBuffer> getTraceBuffer() override { return std::move(buffer_); }

  void pushCorrelationId(uint64_t id) override {
    tls_correlation_stack.push_back(id);
    aclsimProfSetCorrelationId(id);
  }

  void popCorrelationId() override {
    if (!tls_correlation_stack.empty()) {
      tls_correlation_stack.pop_back();
    }
    aclsimProfSetCorrelationId(tls_correlation_stack.empty() ? 0 : tls_correlation_stack.back());
  }

 private:
  // Streams get small ids per device in order of appearance (1, 2, ...).
  int32_t ResourceId(int32_t device, uint64_t stream) {
    const auto key = std::make_pair(device, stream);
    auto it = resources_.find(key);
    if (it == resources_.end()) {
      it = resources_.emplace(key, static_cast<int32_t>(resources_.size() + 1)).first;
    }
    return it->second;
  }

  bool recording_ = false;
  std::vector<aclsimKernelRecord> records_;
  std::map<std::pair<int32_t, uint64_t>, int32_t> resources_;
  std::unique_ptr<libkineto::CpuTraceBuffer> buffer_;
};

class NPUActivityProfiler final : public libkineto::IActivityProfiler {
 public:
  const std::string& name() const override { return name_; }

  const std::set<ActivityType>& availableActivities() const override { return activities_; }

  std::unique_ptr<libkineto::IActivityProfilerSession> configure(const std::set<ActivityType>& activity_types,
                                                                 const libkineto::Config& /*config*/) override {
    if (activity_types.count(ActivityType::CONCURRENT_KERNEL) == 0) {
      return nullptr;  // no device activity asked for (e.g. activities=[CPU])
    }
    return std::make_unique<NPUActivityProfilerSession>();
  }

  std::unique_ptr<libkineto::IActivityProfilerSession> configure(int64_t /*ts_ms*/, int64_t /*duration_ms*/,
                                                                 const std::set<ActivityType>& activity_types,
                                                                 const libkineto::Config& config) override {
    return configure(activity_types, config);
  }

 private:
  std::string name_{"npu"};
  std::set<ActivityType> activities_{ActivityType::CONCURRENT_KERNEL};
};

}  // namespace

REGISTER_PRIVATEUSE1_PROFILER(NPUActivityProfiler);

bool DeviceActivityProfilerAvailable() {
  return true;
}

}  // namespace at_npu::native

#else  // !NPU_HAS_PRIVATEUSE1_PROFILER

namespace at_npu::native {

bool DeviceActivityProfilerAvailable() {
  return false;
}

}  // namespace at_npu::native

#endif
