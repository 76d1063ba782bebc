// out = torch.cat(tensors, dim): the tensors (any layout; 1-D empty ones are
// skipped, as in PyTorch) joined along dim into out, each converted to out's
// dtype. Every non-skipped tensor has out's rank and out's sizes except in dim.
#ifndef ASCENDC_SIM_ACLNN_CAT_H
#define ASCENDC_SIM_ACLNN_CAT_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
