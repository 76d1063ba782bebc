// out = (self == -inf) elementwise (torch.isneginf). Any dtype: integer and
// bool inputs are never -inf (out all false). out is bool with self's shape;
// any layout.
#ifndef ASCENDC_SIM_ACLNN_ISNEGINF_H
#define ASCENDC_SIM_ACLNN_ISNEGINF_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnIsNegInfGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIsNegInf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
