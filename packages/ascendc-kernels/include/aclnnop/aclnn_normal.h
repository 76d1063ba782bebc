// selfRef[...] = mean + std * N(0, 1) (float, float16, bfloat16, double; any layout; std >= 0).
// Counter-based like aclnnInplaceUniform (Box-Muller on element i's Philox block).
#ifndef ASCENDC_SIM_ACLNN_NORMAL_H
#define ASCENDC_SIM_ACLNN_NORMAL_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor* selfRef, float mean, float std,
                                                                   int64_t seed, int64_t offset,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNormal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
