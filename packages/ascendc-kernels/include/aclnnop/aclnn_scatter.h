// Scatter along dim into out = a copy of self (out may be self):
//   aclnnScatter:      out at index = src (reduce 0) or += src (reduce 1)
//   aclnnScatterValue: out at index = value (reduce 0) or += value (reduce 1)
//   aclnnScatterAdd:   out at index += src
// index int32/int64 with self's rank, index.size(d) <= src.size(d) and (d != dim)
// <= self.size(d); an index outside [0, self.size(dim)) fails the kernel. src and
// out have self's dtype; every dtype but complex.
#ifndef ASCENDC_SIM_ACLNN_SCATTER_H
#define ASCENDC_SIM_ACLNN_SCATTER_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                             const aclTensor* index, const aclTensor* src,
                                                             int64_t reduce, aclTensor* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatter(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                                  const aclTensor* index, const aclScalar* value,
                                                                  int64_t reduce, aclTensor* out,
                                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterValue(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                  aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                                const aclTensor* index, const aclTensor* src,
                                                                aclTensor* out, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
