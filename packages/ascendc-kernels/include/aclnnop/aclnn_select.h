// Selection: where and masked_fill over the generic elementwise kernel.
#ifndef ASCENDC_SIM_ACLNN_SELECT_H
#define ASCENDC_SIM_ACLNN_SELECT_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
// out = condition ? self : other (condition bool; all broadcast; self/other promoted)
ACL_FUNC_VISIBILITY aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self, const aclTensor* other, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSWhere(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// selfRef = mask ? value : selfRef (mask bool, broadcast to selfRef)
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask, const aclScalar* value,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedFillScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// the same with a 0-dim device tensor value
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask, const aclTensor* value,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedFillTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
