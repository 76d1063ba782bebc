// out = self.sum(dims, keepDims, dtype): dims empty reduces every dimension;
// self float32, float16, bfloat16; dtype (== out's dtype) one of those.
#ifndef ASCENDC_SIM_ACLNN_REDUCE_SUM_H
#define ASCENDC_SIM_ACLNN_REDUCE_SUM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                                               bool keepDims, aclDataType dtype, aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
