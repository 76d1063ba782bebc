// out = torch.gather(self, dim, index): out (index's shape, self's dtype) takes
// self at index along dim. index int32/int64 with self's rank, index.size(d) <=
// self.size(d) for d != dim; an index outside [0, self.size(dim)) fails the kernel.
#ifndef ASCENDC_SIM_ACLNN_GATHER_H
#define ASCENDC_SIM_ACLNN_GATHER_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                            const aclTensor* index, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGather(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
