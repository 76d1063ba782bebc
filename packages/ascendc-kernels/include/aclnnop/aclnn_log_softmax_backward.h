// out = gradOutput - exp(output) * sum(gradOutput, dim) (output: the log_softmax result); float32, float16, bfloat16.
#ifndef ASCENDC_SIM_ACLNN_LOG_SOFTMAX_BACKWARD_H
#define ASCENDC_SIM_ACLNN_LOG_SOFTMAX_BACKWARD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
