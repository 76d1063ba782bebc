// Simulator configuration, read once from the environment.
#ifndef ASCENDC_SIM_RUNTIME_CONFIG_H
#define ASCENDC_SIM_RUNTIME_CONFIG_H

#include <stdint.h>

#include <string>

namespace ascendc_sim {

struct SimConfig {
  int32_t deviceCount;   // ASCEND_SIM_DEVICE_COUNT, default 2
  uint64_t memoryBytes;  // ASCEND_SIM_MEMORY_MB per device, default 16384 MB
  uint32_t aivCoreNum;   // ASCEND_SIM_AICORE_NUM, default hardware_concurrency clamped to [1, 64]
  uint64_t ubBytes;      // ASCEND_SIM_UB_SIZE, default 192 KiB, rounded down to 32 bytes
  bool launchBlocking;   // ASCEND_LAUNCH_BLOCKING=1
  // ASCEND_SIM_FAULT_KERNEL: launches of the kernel with this name fail when they
  // run (fault injection for testing how errors of queued work surface); empty: none.
  std::string faultKernel;
  // ASCEND_SIM_SIMD: the widest host SIMD the cube and vector units may use:
  // 2 = AVX-512 (default: whatever the host has), 1 = AVX2, 0 = baseline.
  int32_t simdLimit;
  // ASCEND_SIM_SOC_NAME: the SoC part the devices report (aclrtGetSocName), one CANN knows, with
  // that part's AI core counts (aclGetDeviceCapability); default Ascend910B1. Kernels still run on
  // the aivCoreNum simulated cores: a launch of any block count runs its blocks on them.
  std::string socName;
  uint32_t socCubeCores;
  uint32_t socVectorCores;
};

// The SoC parts the simulator can report, with their cube (AI core) and vector core counts.
struct SocPart {
  const char* name;
  uint32_t cubeCores;
  uint32_t vectorCores;
};
extern const SocPart kSocParts[];
extern const size_t kSocPartCount;

const SimConfig& Config();

// The widest SIMD both the host and ASCEND_SIM_SIMD allow: 2 = AVX-512F, 1 = AVX2 with FMA, 0 = baseline.
int32_t HostSimdLevel();

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_CONFIG_H
