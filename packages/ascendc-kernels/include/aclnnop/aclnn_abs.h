// out = |self|; out has self's shape.
#ifndef ASCENDC_SIM_ACLNN_ABS_H
#define ASCENDC_SIM_ACLNN_ABS_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAbs(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
