// selfRef[...] = value (any layout, including non-contiguous views).
#ifndef ASCENDC_SIM_ACLNN_FILL_SCALAR_H
#define ASCENDC_SIM_ACLNN_FILL_SCALAR_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                                       uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFillScalar(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);
// selfRef[...] = 0
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceZero(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
