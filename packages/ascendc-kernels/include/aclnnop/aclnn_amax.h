// out = self.amax(dim, keepDim): dim empty reduces every dimension; NaN wins;
// float32, float16, bfloat16 (out: self's dtype). Reducing a dimension of size 0 is an error.
#ifndef ASCENDC_SIM_ACLNN_AMAX_H
#define ASCENDC_SIM_ACLNN_AMAX_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                          aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
