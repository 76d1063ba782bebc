// Device activity for torch.profiler: while a torch.profiler session with
// ProfilerActivity.PrivateUse1 runs, the simulator records every kernel it
// executes (ascendc_sim/prof.h) and this profiler turns the records into kineto
// kernel activities (CONCURRENT_KERNEL, which torch reports as PrivateUse1
// device events) with device and stream ids, durations, and a link to the CPU
// op (the innermost profiled op on the launching thread) that launched them.
//
// Registered with torch's PrivateUse1ProfilerRegistry (REGISTER_PRIVATEUSE1_PROFILER)
// where the torch release has it (NPU_HAS_PRIVATEUSE1_PROFILER, see TorchCompat.h).
#pragma once

namespace at_npu::native {

// True when this build registers the device-activity profiler with torch.
bool DeviceActivityProfilerAvailable();

}  // namespace at_npu::native
