// out = max(self, clipValueMin) elementwise (torch.clamp_min); NaN in self stays
// NaN. Computed in self's dtype, or float32 when self is integral and the bound
// floating (PyTorch's result type), then cast to out's dtype. Not for bool.
#ifndef ASCENDC_SIM_ACLNN_CLAMP_MIN_H
#define ASCENDC_SIM_ACLNN_CLAMP_MIN_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);
// selfRef = max(selfRef, clipValueMin); the result type must be selfRef's dtype.
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMinGetWorkspaceSize(aclTensor* selfRef,
                                                                     const aclScalar* clipValueMin,
                                                                     uint64_t* workspaceSize,
                                                                     aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMin(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
