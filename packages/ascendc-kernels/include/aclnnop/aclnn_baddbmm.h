// out = beta * self + alpha * (batch1 @ batch2) (3-D batches; self broadcasts to [b, m, n];
// float32, float16, bfloat16; float32 accumulation, the bias added in the kernel).
#ifndef ASCENDC_SIM_ACLNN_BADDBMM_H
#define ASCENDC_SIM_ACLNN_BADDBMM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                                  const aclTensor* batch2, const aclScalar* beta,
                                                  const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBaddbmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
