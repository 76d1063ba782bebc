// out = self.index_add(dim, index, source, alpha=alpha): a copy of self (out may be
// self) whose slices index[k] along dim get alpha * source's slice k added, in index
// order. index 0-d/1-D int32/int64; source has self's shape except size(dim) =
// index.numel(); an index outside [0, self.size(dim)) fails the kernel.
#ifndef ASCENDC_SIM_ACLNN_INDEX_ADD_H
#define ASCENDC_SIM_ACLNN_INDEX_ADD_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                              const aclTensor* index, const aclTensor* source,
                                                              const aclScalar* alpha, aclTensor* out,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
