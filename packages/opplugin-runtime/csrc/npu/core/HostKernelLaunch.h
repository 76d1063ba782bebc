// Launching a host-compiled kernel (a function the host compiler built, such as one
// Inductor generated) as device work: queued on an npu stream through the simulator's
// launch entry point, run by the stream's worker in stream order, the host not waiting.
#pragma once

#include <cstdint>

#include "ascendc_sim/launch.h"

extern "C" {

// Queues `blockDim` blocks of `fn(ctx)` under `kernelName` on the calling thread's current
// stream of npu `device` (-1: the current device); `destroy(ctx)` runs after the last
// block (also when the launch is refused). Returns null on success, else a message naming
// the kernel and the reason, valid until the calling thread's next call. A plain C entry:
// generated kernel modules receive its address and call it without linking to torch.
const char* NpuLaunchHostKernel(const char* kernelName, int device, uint32_t blockDim, aclsimBlockFn fn, void* ctx,
                                aclsimCtxDestroyFn destroy);

}  // extern "C"
