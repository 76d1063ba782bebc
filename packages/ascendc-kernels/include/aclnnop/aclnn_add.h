// out = self + alpha * other, with broadcasting and type promotion to out's dtype.
#ifndef ASCENDC_SIM_ACLNN_ADD_H
#define ASCENDC_SIM_ACLNN_ADD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                         const aclScalar* alpha, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
// selfRef += alpha * other
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                                const aclScalar* alpha, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
