// Reads the ASCEND_SIM_* / ASCEND_LAUNCH_BLOCKING environment once.
#include "runtime/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <thread>

namespace ascendc_sim {

// The Atlas A2 training parts (CANN's platform files give each its AI core and vector core counts).
const SocPart kSocParts[] = {
    {"Ascend910B1", 24, 48},
    {"Ascend910B2", 24, 48},
    {"Ascend910B3", 20, 40},
    {"Ascend910B4", 20, 40},
};
const size_t kSocPartCount = sizeof(kSocParts) / sizeof(kSocParts[0]);

namespace {

const SocPart& ReadSocPart() {
  const char* text = getenv("ASCEND_SIM_SOC_NAME");
  if (text == nullptr || *text == '\0') return kSocParts[0];
  for (size_t i = 0; i < kSocPartCount; ++i) {
    if (strcmp(text, kSocParts[i].name) == 0) return kSocParts[i];
  }
  std::string known;
  for (size_t i = 0; i < kSocPartCount; ++i) known += std::string(i == 0 ? "" : ", ") + kSocParts[i].name;
  fprintf(stderr, "[ascendc-sim] ignoring ASCEND_SIM_SOC_NAME=%s (the simulated parts are %s); using %s\n", text,
          known.c_str(), kSocParts[0].name);
  return kSocParts[0];
}

// An integer in [lo, hi] from `name`, or `fallback` (with a warning when set but invalid).
int64_t EnvInt(const char* name, int64_t fallback, int64_t lo, int64_t hi) {
  const char* text = getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long long value = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || value < lo || value > hi) {
    fprintf(stderr, "[ascendc-sim] ignoring %s=%s (expected an integer in [%lld, %lld]); using %lld\n", name, text,
            static_cast<long long>(lo), static_cast<long long>(hi), static_cast<long long>(fallback));
    return fallback;
  }
  return value;
}

SimConfig ReadConfig() {
  SimConfig c;
  c.deviceCount = static_cast<int32_t>(EnvInt("ASCEND_SIM_DEVICE_COUNT", 2, 1, 64));
  c.memoryBytes = static_cast<uint64_t>(EnvInt("ASCEND_SIM_MEMORY_MB", 16384, 1, int64_t{1} << 24)) << 20;
  const int64_t hw = std::clamp<int64_t>(static_cast<int64_t>(std::thread::hardware_concurrency()), 1, 64);
  c.aivCoreNum = static_cast<uint32_t>(EnvInt("ASCEND_SIM_AICORE_NUM", hw, 1, 64));
  const int64_t ub = EnvInt("ASCEND_SIM_UB_SIZE", 192 * 1024, 256, int64_t{64} << 20);
  c.ubBytes = static_cast<uint64_t>(ub) / 32 * 32;
  const char* blocking = getenv("ASCEND_LAUNCH_BLOCKING");
  c.launchBlocking = blocking != nullptr && blocking[0] == '1' && blocking[1] == '\0';
  const char* simd = getenv("ASCEND_SIM_SIMD");
  const std::string simdName = simd != nullptr ? simd : "";
  c.simdLimit = simdName == "baseline" ? 0 : simdName == "avx2" ? 1 : 2;
  const char* fault = getenv("ASCEND_SIM_FAULT_KERNEL");
  if (fault != nullptr) c.faultKernel = fault;
  const SocPart& soc = ReadSocPart();
  c.socName = soc.name;
  c.socCubeCores = soc.cubeCores;
  c.socVectorCores = soc.vectorCores;
  return c;
}

}  // namespace

const SimConfig& Config() {
  static const SimConfig config = ReadConfig();
  return config;
}

int32_t HostSimdLevel() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  const int32_t limit = Config().simdLimit;
  if (limit >= 2 && __builtin_cpu_supports("avx512f")) return 2;
  if (limit >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 1;
#endif
  return 0;
}

}  // namespace ascendc_sim
