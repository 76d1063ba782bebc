// out [numWeights, grad.size(-1)] = the gradient of embedding's weight:
// out[w] = sum of the rows of grad (viewed as [indices.numel(), dim]) whose index is w,
// except paddingIdx; scaleGradByFreq divides each row by the count of its index.
// grad and out float32, float16 or bfloat16 (accumulated in float32); indices int32/int64
// with every value in [0, numWeights) (checked when the kernel runs).
#ifndef ASCENDC_SIM_ACLNN_EMBEDDING_DENSE_BACKWARD_H
#define ASCENDC_SIM_ACLNN_EMBEDDING_DENSE_BACKWARD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(
    const aclTensor* grad, const aclTensor* indices, uint64_t numWeights, int64_t paddingIdx, bool scaleGradByFreq,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingDenseBackward(void* workspace, uint64_t workspaceSize,
                                                            aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
