// Kernel launch on the simulated device: the part of the toolkit that a
// bisheng-compiled `kernel<<<blockDim, l2ctrl, stream>>>(args)` or a generated
// ACLRT_LAUNCH_KERNEL(name)(blockDim, stream, args...) would do on hardware.
//
// A launch is queued on `stream`. When it runs, the simulator executes blocks
// 0..blockDim-1 on its simulated AI cores (host threads), each block with its
// own unified buffer; a block reads its index with aclsimGetBlockIdx().
#ifndef ASCENDC_SIM_LAUNCH_H
#define ASCENDC_SIM_LAUNCH_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs one block of a kernel. `ctx` is the launch's argument pack.
typedef void (*aclsimBlockFn)(void* ctx);
typedef void (*aclsimCtxDestroyFn)(void* ctx);

// Queues `blockDim` blocks of `fn` on `stream`. The simulator owns `ctx` from
// here on and calls `destroy(ctx)` (if not null) after the last block ran.
// (A refused launch - an error returned here - has already destroyed ctx.)
ACL_FUNC_VISIBILITY aclError aclsimLaunchKernel(const char* kernelName, uint32_t blockDim, aclrtStream stream,
                                               aclsimBlockFn fn, void* ctx, aclsimCtxDestroyFn destroy);

// Inside a block: its index and the launch's block count.
ACL_FUNC_VISIBILITY uint32_t aclsimGetBlockIdx(void);
ACL_FUNC_VISIBILITY uint32_t aclsimGetBlockNum(void);
// Inside a block: the current AI core's unified buffer and its size in bytes.
ACL_FUNC_VISIBILITY void* aclsimGetUnifiedBuffer(uint64_t* size);
// Inside a block: fails the running launch with `msg`; remaining blocks are
// skipped and the error surfaces at the next synchronising call on the stream.
ACL_FUNC_VISIBILITY void aclsimReportKernelError(const char* msg);
// Number of simulated vector (AIV) cores of the current device; tiling derives
// block counts from it. ASCEND_SIM_AICORE_NUM overrides the default.
ACL_FUNC_VISIBILITY uint32_t aclsimGetCoreNumAiv(void);
// Unified buffer bytes per core (ASCEND_SIM_UB_SIZE, default 192 KiB).
ACL_FUNC_VISIBILITY uint64_t aclsimGetUbSize(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_LAUNCH_H
