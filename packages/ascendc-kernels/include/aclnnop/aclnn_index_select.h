// out = self.index_select(dim, index): the slices of self along dim picked by
// index (1-D or 0-d, int32 or int64, every value in [0, self.size(dim)); an
// out-of-range value fails the kernel when it runs). out has self's dtype and
// self's shape with size(dim) = index.numel(). Every dtype but complex.
#ifndef ASCENDC_SIM_ACLNN_INDEX_SELECT_H
#define ASCENDC_SIM_ACLNN_INDEX_SELECT_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                                 const aclTensor* index, aclTensor* out,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexSelect(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
