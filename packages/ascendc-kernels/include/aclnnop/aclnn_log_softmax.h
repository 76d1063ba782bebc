// out = log_softmax(self, dim); float32, float16, bfloat16; out has self's shape and dtype (or float32).
#ifndef ASCENDC_SIM_ACLNN_LOG_SOFTMAX_H
#define ASCENDC_SIM_ACLNN_LOG_SOFTMAX_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
