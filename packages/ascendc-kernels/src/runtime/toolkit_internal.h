// CANN entry points outside its public acl headers that torch_npu links: the runtime's rt*
// kernel-binary functions (CANN's runtime/rt.h), declared with CANN's types. Defined in
// not_simulated.cpp.
#ifndef ASCENDC_SIM_RUNTIME_TOOLKIT_INTERNAL_H
#define ASCENDC_SIM_RUNTIME_TOOLKIT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t rtError_t;
typedef void* rtStream_t;
typedef struct tagRtDevBinary rtDevBinary_t;
typedef struct tagRtSmDesc rtSmDesc_t;

ACL_FUNC_VISIBILITY rtError_t rtDevBinaryRegister(const rtDevBinary_t* bin, void** handle);
ACL_FUNC_VISIBILITY rtError_t rtFunctionRegister(void* binHandle, const void* stubFunc, const char* stubName,
                                                 const void* kernelInfoExt, uint32_t funcMode);
ACL_FUNC_VISIBILITY rtError_t rtKernelLaunch(const void* stubFunc, uint32_t blockDim, void* args, uint32_t argsSize,
                                             rtSmDesc_t* smDesc, rtStream_t stream);
ACL_FUNC_VISIBILITY rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_RUNTIME_TOOLKIT_INTERNAL_H
