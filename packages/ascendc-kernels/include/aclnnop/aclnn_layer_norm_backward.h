// The gradients of aclnnLayerNorm from the forward's mean and rstd: outputMask (3 bools) selects gradInputOut, gradWeightOut (needs weight), gradBiasOut; unselected outputs may be null.
#ifndef ASCENDC_SIM_ACLNN_LAYER_NORM_BACKWARD_H
#define ASCENDC_SIM_ACLNN_LAYER_NORM_BACKWARD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* mean,
    const aclTensor* rstd, const aclTensor* weightOptional, const aclTensor* biasOptional, const aclBoolArray* outputMask,
    aclTensor* gradInputOut, aclTensor* gradWeightOut, aclTensor* gradBiasOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
