// selfRef[...] = 1 with probability prob, else 0 (selfRef: any dtype, any layout).
// aclnnInplaceBernoulli: one probability (a floating or integral aclScalar in [0, 1]);
// aclnnInplaceBernoulliTensor: per-element probabilities (a floating tensor that
// broadcasts to selfRef). Counter-based like aclnnInplaceUniform.
#ifndef ASCENDC_SIM_ACLNN_BERNOULLI_H
#define ASCENDC_SIM_ACLNN_BERNOULLI_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* prob,
                                                                      int64_t seed, int64_t offset,
                                                                      uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulli(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulliTensorGetWorkspaceSize(const aclTensor* selfRef,
                                                                            const aclTensor* prob, int64_t seed,
                                                                            int64_t offset, uint64_t* workspaceSize,
                                                                            aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulliTensor(void* workspace, uint64_t workspaceSize,
                                                            aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
