// selfRef[...] = src[...]: any strides on both sides, src broadcast to selfRef's
// shape, dtype converted to selfRef's dtype. Both on the same device.
#ifndef ASCENDC_SIM_ACLNN_COPY_H
#define ASCENDC_SIM_ACLNN_COPY_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
