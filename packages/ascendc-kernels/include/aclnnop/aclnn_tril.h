// out = tril(self, diagonal) (torch.tril): for each matrix of the last two
// dimensions of self (at least 2-D), element (i, j) is kept where
// j <= i + diagonal, else zero. Any dtype (bool, integers, floats); out has
// self's shape and dtype. Any layout.
#ifndef ASCENDC_SIM_ACLNN_TRIL_H
#define ASCENDC_SIM_ACLNN_TRIL_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);
// selfRef = tril(selfRef, diagonal).
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceTrilGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
