// out = self / (1 - prob) where self's bit in `mask` (aclnnDropoutGenMask's layout) is 1,
// else 0; prob = 1 zeroes everything (float, float16, bfloat16; out has self's shape and dtype).
#ifndef ASCENDC_SIM_ACLNN_DROPOUT_DO_MASK_H
#define ASCENDC_SIM_ACLNN_DROPOUT_DO_MASK_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor* self, const aclTensor* mask,
                                                                   double prob, aclTensor* out,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutDoMask(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
