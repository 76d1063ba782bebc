// out = mean of self over dim (all dims when empty), keepDim; dtype: out's dtype (float32, float16, bfloat16).
#ifndef ASCENDC_SIM_ACLNN_MEAN_H
#define ASCENDC_SIM_ACLNN_MEAN_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMean(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
