// out = a dropout bit mask for a tensor of `shape`: UINT8, 1-D, align(numel, 128) / 8
// bytes; bit k of byte j belongs to element 8j + k and is 1 (keep) with probability
// 1 - prob; the padding bits are 0. Counter-based like aclnnInplaceUniform.
#ifndef ASCENDC_SIM_ACLNN_DROPOUT_GEN_MASK_H
#define ASCENDC_SIM_ACLNN_DROPOUT_GEN_MASK_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMaskGetWorkspaceSize(const aclIntArray* shape, double prob,
                                                                    int64_t seed, int64_t offset, aclTensor* out,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMask(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
