// out = self @ vec (self 2-D [m, k], vec 1-D [k], out [m]; float32, float16, bfloat16;
// float32 accumulation). A transposed self (a t() view) is read as stored.
#ifndef ASCENDC_SIM_ACLNN_MV_H
#define ASCENDC_SIM_ACLNN_MV_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out,
                                                        int8_t cubeMathType, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
