// out = torch.matmul(self, other): 1-D x 1-D (dot), 2-D x 1-D, 1-D x 2-D, 2-D x
// 2-D and batched (broadcast batch dimensions); float32, float16, bfloat16.
#ifndef ASCENDC_SIM_ACLNN_MATMUL_H
#define ASCENDC_SIM_ACLNN_MATMUL_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                            aclTensor* out, int8_t cubeMathType,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
