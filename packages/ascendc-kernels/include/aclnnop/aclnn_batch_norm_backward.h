// The gradients of aclnnBatchNorm: training uses saveMean/saveInvstd, eval
// runningMean/runningVar (with eps); outputMask (3 bools) selects gradInput,
// gradWeight, gradBias (C each; an unselected one may be null).
#ifndef ASCENDC_SIM_ACLNN_BATCH_NORM_BACKWARD_H
#define ASCENDC_SIM_ACLNN_BATCH_NORM_BACKWARD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean,
    const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training, double eps,
    const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
