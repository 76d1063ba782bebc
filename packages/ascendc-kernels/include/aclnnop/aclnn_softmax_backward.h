// gradInput = output * (gradOutput - sum(gradOutput * output, dim)); float32, float16, bfloat16.
#ifndef ASCENDC_SIM_ACLNN_SOFTMAX_BACKWARD_H
#define ASCENDC_SIM_ACLNN_SOFTMAX_BACKWARD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim, aclTensor* gradInput,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
