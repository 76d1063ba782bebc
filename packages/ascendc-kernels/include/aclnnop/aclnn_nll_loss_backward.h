// gradInput (self's shape) = the gradient of aclnnNLLLoss: -weight[t] * gradOutput
// (per row for reduction none, else the 0-D gradOutput, divided by totalWeight for
// mean) at each row's target, 0 elsewhere and on rows with target == ignoreIndex.
#ifndef ASCENDC_SIM_ACLNN_NLL_LOSS_BACKWARD_H
#define ASCENDC_SIM_ACLNN_NLL_LOSS_BACKWARD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                                     const aclTensor* target, const aclTensor* weight,
                                                                     int64_t reduction, int64_t ignoreIndex,
                                                                     const aclTensor* totalWeight,
                                                                     aclTensor* gradInput, uint64_t* workspaceSize,
                                                                     aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                     aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
