// CANN's profiling sessions (acl/acl_prof.h) and the profiler's reporting interface
// (toolchain/prof_api.h) on the simulator's recorder (ascendc_sim/prof.h).
//
// A session is one aclprofStart .. aclprofStop: it turns recording on, tells the registered
// modules, and at its stop waits for its devices' queued work, takes every kernel record and
// report, and writes them to simulator_profile_<pid>_<n>.json in the aclprofInit directory.
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "acl/acl_prof.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/prof.h"
#include "runtime/stream.h"
#include "toolchain/prof_api.h"

struct aclprofConfig {
  std::vector<uint32_t> devices;
  aclprofAicoreMetrics metrics;
  uint64_t dataTypes;
};

namespace ascendc_sim {
namespace {

struct ProfilerState {
  std::mutex mu;
  bool initialized = false;
  std::string resultDir;
  uint32_t storageLimitMb = 0;  // 0: none
  const aclprofConfig* running = nullptr;
  std::vector<uint32_t> runningDevices;
  uint64_t runningDataTypes = 0;
  uint32_t sessions = 0;
  std::map<uint32_t, ProfCommandHandle> modules;
  std::unordered_map<uint64_t, std::string> names;  // MsprofGetHashId's strings
};

ProfilerState& State() {
  static auto* state = new ProfilerState();  // reports may come from threads running at exit
  return *state;
}

uint32_t ThreadId() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

// Creates `path` and its missing parents; false (errno set) on failure.
bool MakeDirectories(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/') continue;
    const std::string prefix = path.substr(0, i);
    if (mkdir(prefix.c_str(), 0750) != 0 && errno != EEXIST) return false;
  }
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Tells every registered module of `command`, outside the state's lock (a handler may report).
void NotifyModules(uint32_t command, uint64_t dataTypes, const std::vector<uint32_t>& devices,
                   const std::string& path, uint32_t storageLimitMb, const std::vector<ProfCommandHandle>& handlers) {
  if (handlers.empty()) return;
  auto handle = std::make_unique<MsprofCommandHandle>();
  memset(handle.get(), 0, sizeof(MsprofCommandHandle));
  handle->profSwitch = dataTypes;
  handle->type = command;
  handle->devNums = static_cast<uint32_t>(std::min<size_t>(devices.size(), MSPROF_MAX_DEV_NUM));
  std::copy_n(devices.begin(), handle->devNums, handle->devIdList);
  handle->params.pathLen = static_cast<uint32_t>(std::min<size_t>(path.size(), PATH_LEN_MAX));
  memcpy(handle->params.path, path.data(), handle->params.pathLen);
  handle->params.storageLimit = storageLimitMb;
  for (ProfCommandHandle handler : handlers) {
    handler(PROF_CTRL_SWITCH, handle.get(), static_cast<uint32_t>(sizeof(MsprofCommandHandle)));
  }
}

std::vector<ProfCommandHandle> Handlers(const ProfilerState& state) {
  std::vector<ProfCommandHandle> out;
  for (const auto& entry : state.modules) out.push_back(entry.second);
  return out;
}

std::string NameOf(uint64_t id) {
  ProfilerState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  auto it = state.names.find(id);
  return it == state.names.end() ? std::string() : it->second;
}

void CopyName(char (&dst)[ACLSIM_PROF_NAME_LEN], const std::string& name) {
  const size_t n = std::min(name.size(), sizeof(dst) - 1);
  memcpy(dst, name.data(), n);
  dst[n] = '\0';
}

// ---- the result file

void AppendJsonString(std::string* out, const char* text) {
  out->push_back('"');
  for (const char* p = text; *p != '\0'; ++p) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      *out += StrFormat("\\u%04x", c);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

std::string KernelJson(const aclsimKernelRecord& r) {
  std::string out = "{\"name\": ";
  AppendJsonString(&out, r.name);
  out += ", \"origin\": ";
  AppendJsonString(&out, r.origin);
  out += StrFormat(", \"device\": %d, \"stream\": %llu, \"block_dim\": %u, \"thread\": %llu, \"correlation\": %llu, "
                   "\"start_ns\": %lld, \"end_ns\": %lld}",
                   r.deviceId, static_cast<unsigned long long>(r.stream), r.blockDim,
                   static_cast<unsigned long long>(r.threadId), static_cast<unsigned long long>(r.correlationId),
                   static_cast<long long>(r.startNs), static_cast<long long>(r.endNs));
  return out;
}

std::string ReportJson(const aclsimReportRecord& r) {
  static const char* const kKinds[] = {"api", "compact", "additional", "mark"};
  std::string out = StrFormat("{\"kind\": \"%s\", \"name\": ", r.kind < 4 ? kKinds[r.kind] : "unknown");
  AppendJsonString(&out, r.name);
  out += StrFormat(", \"level\": %u, \"type\": %u, \"thread\": %u, \"item_id\": %llu, \"device\": %d, "
                   "\"start_ns\": %lld, \"end_ns\": %lld, \"data\": \"",
                   r.level, r.type, r.threadId, static_cast<unsigned long long>(r.itemId), r.deviceId,
                   static_cast<long long>(r.startNs), static_cast<long long>(r.endNs));
  for (uint32_t i = 0; i < r.dataLength && i < ACLSIM_REPORT_DATA_LEN; ++i) out += StrFormat("%02x", r.data[i]);
  return out + "\"}";
}

// Writes what was recorded since the session started; false (errno set) when the file fails.
bool WriteResults(const std::string& path, const std::vector<uint32_t>& devices, uint64_t dataTypes,
                  aclprofAicoreMetrics metrics) {
  std::string text = "{\"format\": \"ascendc-sim-profile\", \"version\": 1, \"devices\": [";
  for (size_t i = 0; i < devices.size(); ++i) text += StrFormat("%s%u", i == 0 ? "" : ", ", devices[i]);
  text += StrFormat("], \"data_type_config\": %llu, \"aicore_metrics\": %d,\n \"kernels\": [",
                    static_cast<unsigned long long>(dataTypes), static_cast<int>(metrics));
  std::vector<aclsimKernelRecord> kernels(256);
  bool first = true;
  for (size_t n; (n = aclsimProfTakeRecords(kernels.data(), kernels.size())) > 0;) {
    for (size_t i = 0; i < n; ++i) {
      if (std::find(devices.begin(), devices.end(), static_cast<uint32_t>(kernels[i].deviceId)) == devices.end()) {
        continue;
      }
      text += (first ? "\n  " : ",\n  ") + KernelJson(kernels[i]);
      first = false;
    }
    if (n < kernels.size()) break;
  }
  text += "],\n \"reports\": [";
  std::vector<aclsimReportRecord> reports(64);
  first = true;
  for (size_t n; (n = aclsimProfTakeReports(reports.data(), reports.size())) > 0;) {
    for (size_t i = 0; i < n; ++i) {
      text += (first ? "\n  " : ",\n  ") + ReportJson(reports[i]);
      first = false;
    }
    if (n < reports.size()) break;
  }
  text += "]}\n";
  FILE* file = fopen(path.c_str(), "w");
  if (file == nullptr) return false;
  const bool written = fwrite(text.data(), 1, text.size(), file) == text.size();
  return fclose(file) == 0 && written;
}

// A mark: its time is when its stream reaches it.
class MarkTask final : public Task {
 public:
  explicit MarkTask(const aclsimReportRecord& record) : record_(record) {}
  aclError Run(Stream&, std::string*) override {
    record_.startNs = record_.endNs = ProfNowNs();
    ProfAppendReport(record_);
    return ACL_SUCCESS;
  }

 private:
  aclsimReportRecord record_;
};

// A record of a report's common header (the profiler's reports share their first fields).
template <typename Report>
aclsimReportRecord RecordOf(const Report& report, aclsimReportKind kind) {
  aclsimReportRecord record{};
  record.kind = kind;
  record.level = report.level;
  record.type = report.type;
  record.threadId = report.threadId;
  record.deviceId = -1;
  return record;
}

int32_t ReportHeader(uint16_t magic, const char* api) {
  if (magic != MSPROF_REPORT_DATA_MAGIC_NUM) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "%s: magic number 0x%x is not MSPROF_REPORT_DATA_MAGIC_NUM", api, magic);
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  return MSPROF_ERROR_NONE;
}

}  // namespace
}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

extern "C" {

// ---- sessions

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  if (profilerResultPath == nullptr || length == 0 || length > PATH_LEN_MAX ||
      strnlen(profilerResultPath, length + 1) != length) {
    return RaiseError(ACL_ERROR_INVALID_PARAM,
                      "aclprofInit: the result path must be a string of the given length, 1 to %d bytes", PATH_LEN_MAX);
  }
  const std::string path(profilerResultPath, length);
  ascendc_sim::ProfilerState& state = ascendc_sim::State();
  std::vector<ProfCommandHandle> handlers;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    if (state.initialized) {
      return RaiseError(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit: profiling is already initialised (to %s)",
                        state.resultDir.c_str());
    }
    if (!ascendc_sim::MakeDirectories(path)) {
      return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofInit: cannot create the result directory %s: %s",
                        path.c_str(), strerror(errno));
    }
    state.initialized = true;
    state.resultDir = path;
    handlers = ascendc_sim::Handlers(state);
  }
  ascendc_sim::NotifyModules(PROF_COMMANDHANDLE_TYPE_INIT, 0, {}, path, 0, handlers);
  return ACL_SUCCESS;
}

aclError aclprofFinalize() {
  ascendc_sim::ProfilerState& state = ascendc_sim::State();
  std::vector<ProfCommandHandle> handlers;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    if (!state.initialized) return RaiseError(ACL_ERROR_PROF_NOT_RUN, "aclprofFinalize: aclprofInit was not called");
    if (state.running != nullptr) {
      return RaiseError(ACL_ERROR_PROF_API_CONFLICT, "aclprofFinalize: a session is running; call aclprofStop first");
    }
    state.initialized = false;
    path.swap(state.resultDir);
    handlers = ascendc_sim::Handlers(state);
  }
  ascendc_sim::NotifyModules(PROF_COMMANDHANDLE_TYPE_FINALIZE, 0, {}, path, 0, handlers);
  return ACL_SUCCESS;
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
  if (deviceIdList == nullptr || deviceNums == 0 || deviceNums > MSPROF_MAX_DEV_NUM) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: give 1 to %d devices", MSPROF_MAX_DEV_NUM);
    return nullptr;
  }
  if (aicoreEvents != nullptr) {
    RaiseError(ACL_ERROR_PROF_MODULES_UNSUPPORTED,
               "aclprofCreateConfig: AI Core events are not supported by the simulator (pass null)");
    return nullptr;
  }
  if (!(aicoreMetrics >= ACL_AICORE_ARITHMETIC_UTILIZATION && aicoreMetrics <= ACL_AICORE_MEMORY_ACCESS) &&
      aicoreMetrics != ACL_AICORE_NONE) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: %d is not an aclprofAicoreMetrics value",
               static_cast<int>(aicoreMetrics));
    return nullptr;
  }
  std::vector<uint32_t> devices(deviceIdList, deviceIdList + deviceNums);
  for (uint32_t device : devices) {
    if (device >= static_cast<uint32_t>(ascendc_sim::DeviceCount())) {
      RaiseError(ACL_ERROR_INVALID_DEVICE, "aclprofCreateConfig: device %u does not exist (%d devices)", device,
                 ascendc_sim::DeviceCount());
      return nullptr;
    }
  }
  return new aclprofConfig{std::move(devices), aicoreMetrics, dataTypeConfig};
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  if (profilerConfig == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofDestroyConfig: config is null");
  ascendc_sim::ProfilerState& state = ascendc_sim::State();
  std::lock_guard<std::mutex> lock(state.mu);
  if (state.running == profilerConfig) {
    return RaiseError(ACL_ERROR_PROF_API_CONFLICT, "aclprofDestroyConfig: the config's session is running");
  }
  delete profilerConfig;
  return ACL_SUCCESS;
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
  if (config == nullptr || configLength == 0 || strnlen(config, configLength + 1) != configLength) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofSetConfig: the value must be a string of the given length");
  }
  const std::string value(config, configLength);
  ascendc_sim::ProfilerState& state = ascendc_sim::State();
  switch (configType) {
    case ACL_PROF_STORAGE_LIMIT: {
      // "<n>MB", as CANN takes it
      char* end = nullptr;
      const unsigned long mb = strtoul(value.c_str(), &end, 10);
      if (end == value.c_str() || strcmp(end, "MB") != 0 || mb == 0 || mb > UINT32_MAX) {
        return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofSetConfig: storage limit '%s' is not '<n>MB'",
                          value.c_str());
      }
      std::lock_guard<std::mutex> lock(state.mu);
      state.storageLimitMb = static_cast<uint32_t>(mb);
      return ACL_SUCCESS;
    }
    case ACL_PROF_PATH: {
      std::lock_guard<std::mutex> lock(state.mu);
      if (!ascendc_sim::MakeDirectories(value)) {
        return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofSetConfig: cannot create the result directory %s: %s",
                          value.c_str(), strerror(errno));
      }
      state.resultDir = value;
      return ACL_SUCCESS;
    }
    default:
      if (configType > ACL_PROF_ARGS_MIN && configType < ACL_PROF_ARGS_MAX) {
        return RaiseError(ACL_ERROR_PROF_MODULES_UNSUPPORTED,
                          "aclprofSetConfig: config type %d samples hardware the simulator does not model",
                          static_cast<int>(configType));
      }
      return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofSetConfig: %d is not an aclprofConfigType value",
                        static_cast<int>(configType));
  }
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  if (profilerConfig == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofStart: config is null");
  ascendc_sim::ProfilerState& state = ascendc_sim::State();
  std::vector<ProfCommandHandle> handlers;
  std::string path;
  uint32_t storageLimit = 0;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    if (!state.initialized) return RaiseError(ACL_ERROR_PROF_NOT_RUN, "aclprofStart: aclprofInit was not called");
    if (state.running != nullptr) {
      return RaiseError(ACL_ERROR_PROF_ALREADY_RUN, "aclprofStart: a session is already running");
    }
    state.running = profilerConfig;
    state.runningDevices = profilerConfig->devices;
    state.runningDataTypes = profilerConfig->dataTypes;
    aclsimProfStart();
    handlers = ascendc_sim::Handlers(state);
    path = state.resultDir;
    storageLimit = state.storageLimitMb;
  }
  ascendc_sim::NotifyModules(PROF_COMMANDHANDLE_TYPE_START, profilerConfig->dataTypes, profilerConfig->devices, path,
                             storageLimit, handlers);
  return ACL_SUCCESS;
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  if (profilerConfig == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofStop: config is null");
  ascendc_sim::ProfilerState& state = ascendc_sim::State();
  std::vector<ProfCommandHandle> handlers;
  std::string dir;
  uint32_t session = 0;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    if (state.running == nullptr) return RaiseError(ACL_ERROR_PROF_NOT_RUN, "aclprofStop: no session is running");
    if (state.running != profilerConfig) {
      return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofStop: the running session was started with another config");
    }
    handlers = ascendc_sim::Handlers(state);
    dir = state.resultDir;
    session = ++state.sessions;
  }
  ascendc_sim::NotifyModules(PROF_COMMANDHANDLE_TYPE_STOP, profilerConfig->dataTypes, profilerConfig->devices, dir, 0,
                             handlers);
  for (uint32_t device : profilerConfig->devices) ascendc_sim::FindDevice(static_cast<int32_t>(device))->WaitIdle();
  {
    std::lock_guard<std::mutex> lock(state.mu);
    state.running = nullptr;
    aclsimProfStop();
  }
  const std::string path = ascendc_sim::StrFormat("%s/simulator_profile_%d_%u.json", dir.c_str(),
                                                  static_cast<int>(getpid()), session);
  if (!ascendc_sim::WriteResults(path, profilerConfig->devices, profilerConfig->dataTypes,
                                 profilerConfig->metrics)) {
    return RaiseError(ACL_ERROR_WRITE_FILE, "aclprofStop: cannot write %s: %s", path.c_str(), strerror(errno));
  }
  return ACL_SUCCESS;
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
  if (msg == nullptr || msgLen == 0 || strnlen(msg, msgLen + 1) != msgLen) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclprofMarkEx: the message must be a string of the given length");
  }
  ascendc_sim::Stream* target = nullptr;
  if (aclError err = ascendc_sim::ResolveStream(stream, "aclprofMarkEx", &target); err != ACL_SUCCESS) return err;
  if (!ascendc_sim::ProfRecording()) return ACL_SUCCESS;  // nothing records: the mark has no session to go to
  aclsimReportRecord record{};
  record.kind = ACLSIM_REPORT_MARK;
  record.threadId = ascendc_sim::ThreadId();
  record.deviceId = target->device();
  ascendc_sim::CopyName(record.name, std::string(msg, msgLen));
  return target->Submit(std::make_unique<ascendc_sim::MarkTask>(record));
}

// ---- the reporting interface

uint64_t MsprofSysCycleTime(void) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

uint64_t MsprofGetHashId(const char* hashInfo, size_t length) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (size_t i = 0; hashInfo != nullptr && i < length; ++i) {
    hash ^= static_cast<unsigned char>(hashInfo[i]);
    hash *= 1099511628211ull;
  }
  if (hashInfo != nullptr) {
    ascendc_sim::ProfilerState& state = ascendc_sim::State();
    std::lock_guard<std::mutex> lock(state.mu);
    state.names.emplace(hash, std::string(hashInfo, length));
  }
  return hash;
}

int32_t MsprofRegisterCallback(uint32_t moduleId, ProfCommandHandle handle) {
  if (handle == nullptr) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "MsprofRegisterCallback: module %u's handle is null", moduleId);
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  ascendc_sim::ProfilerState& state = ascendc_sim::State();
  std::vector<uint32_t> devices;
  uint64_t dataTypes = 0;
  std::string path;
  bool running = false;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    state.modules[moduleId] = handle;
    running = state.running != nullptr;
    devices = state.runningDevices;
    dataTypes = state.runningDataTypes;
    path = state.resultDir;
  }
  if (running) ascendc_sim::NotifyModules(PROF_COMMANDHANDLE_TYPE_START, dataTypes, devices, path, 0, {handle});
  return MSPROF_ERROR_NONE;
}

int32_t MsprofReportApi(uint32_t nonPersistantFlag, const struct MsprofApi* api) {
  (void)nonPersistantFlag;  // the simulator keeps every report until a session takes it
  if (api == nullptr) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "MsprofReportApi: the report is null");
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  if (int32_t err = ascendc_sim::ReportHeader(api->magicNumber, "MsprofReportApi"); err != MSPROF_ERROR_NONE) {
    return err;
  }
  if (!ascendc_sim::ProfRecording()) return MSPROF_ERROR_NONE;
  aclsimReportRecord record = ascendc_sim::RecordOf(*api, ACLSIM_REPORT_API);
  record.itemId = api->itemId;
  const int64_t offset = ascendc_sim::ProfSteadyToRealtimeNs();
  record.startNs = static_cast<int64_t>(api->beginTime) + offset;
  record.endNs = static_cast<int64_t>(api->endTime) + offset;
  ascendc_sim::CopyName(record.name, ascendc_sim::NameOf(api->itemId));
  ascendc_sim::ProfAppendReport(record);
  return MSPROF_ERROR_NONE;
}

int32_t MsprofReportCompactInfo(uint32_t nonPersistantFlag, const VOID_PTR data, uint32_t length) {
  (void)nonPersistantFlag;
  if (data == nullptr || length != sizeof(MsprofCompactInfo)) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "MsprofReportCompactInfo: the report must be a MsprofCompactInfo (%zu bytes)",
               sizeof(MsprofCompactInfo));
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  const auto* info = static_cast<const MsprofCompactInfo*>(data);
  if (int32_t err = ascendc_sim::ReportHeader(info->magicNumber, "MsprofReportCompactInfo"); err != MSPROF_ERROR_NONE) {
    return err;
  }
  if (!ascendc_sim::ProfRecording()) return MSPROF_ERROR_NONE;
  aclsimReportRecord record = ascendc_sim::RecordOf(*info, ACLSIM_REPORT_COMPACT);
  record.startNs = record.endNs = static_cast<int64_t>(info->timeStamp) + ascendc_sim::ProfSteadyToRealtimeNs();
  record.dataLength = MSPROF_COMPACT_INFO_DATA_LENGTH;
  memcpy(record.data, info->data.info, MSPROF_COMPACT_INFO_DATA_LENGTH);
  if (info->level == MSPROF_REPORT_NODE_LEVEL && info->type == MSPROF_REPORT_NODE_BASIC_INFO_TYPE) {
    record.itemId = info->data.nodeBasicInfo.opName;
    ascendc_sim::CopyName(record.name, ascendc_sim::NameOf(record.itemId));
  }
  ascendc_sim::ProfAppendReport(record);
  return MSPROF_ERROR_NONE;
}

int32_t MsprofReportAdditionalInfo(uint32_t nonPersistantFlag, const VOID_PTR data, uint32_t length) {
  (void)nonPersistantFlag;
  if (data == nullptr || length != sizeof(MsprofAdditionalInfo)) {
    RaiseError(ACL_ERROR_INVALID_PARAM,
               "MsprofReportAdditionalInfo: the report must be a MsprofAdditionalInfo (%zu bytes)",
               sizeof(MsprofAdditionalInfo));
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  const auto* info = static_cast<const MsprofAdditionalInfo*>(data);
  if (int32_t err = ascendc_sim::ReportHeader(info->magicNumber, "MsprofReportAdditionalInfo");
      err != MSPROF_ERROR_NONE) {
    return err;
  }
  if (info->dataLen > MSPROF_ADDTIONAL_INFO_DATA_LENGTH) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "MsprofReportAdditionalInfo: dataLen %u exceeds %d bytes", info->dataLen,
               MSPROF_ADDTIONAL_INFO_DATA_LENGTH);
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  if (!ascendc_sim::ProfRecording()) return MSPROF_ERROR_NONE;
  aclsimReportRecord record = ascendc_sim::RecordOf(*info, ACLSIM_REPORT_ADDITIONAL);
  record.startNs = record.endNs = static_cast<int64_t>(info->timeStamp) + ascendc_sim::ProfSteadyToRealtimeNs();
  record.dataLength = info->dataLen;
  memcpy(record.data, info->data, info->dataLen);
  ascendc_sim::ProfAppendReport(record);
  return MSPROF_ERROR_NONE;
}

}  // extern "C"
