// out = all(self != 0) over the dimensions `dim` (all of them when dim is
// empty), kept as size 1 when keepdim (torch.all). Any dtype; NaN counts as
// true; the all of no elements is true. out is bool or uint8 (torch 2.1 keeps
// uint8 for a uint8 self); any layout.
#ifndef ASCENDC_SIM_ACLNN_ALL_H
#define ASCENDC_SIM_ACLNN_ALL_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
