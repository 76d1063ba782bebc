// out = nll_loss(self, target, weight, reduction, ignoreIndex) as torch's
// nll_loss_forward: self N x C (or C), target int64/int32/uint8/int8/int16 of N
// (or 0-D), weight C or null; reduction 0 none (out: N), 1 mean, 2 sum (out 0-D);
// totalWeightOut (0-D) the weight of the counted targets (0 for none).
// float32, float16, bfloat16. A target outside [0, C) fails the kernel.
#ifndef ASCENDC_SIM_ACLNN_NLL_LOSS_H
#define ASCENDC_SIM_ACLNN_NLL_LOSS_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                             const aclTensor* weight, int64_t reduction,
                                                             int64_t ignoreIndex, aclTensor* out,
                                                             aclTensor* totalWeightOut, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
