// out = beta * self + alpha * (mat1 @ mat2) (2-D mats; self broadcasts to [m, n]; same
// floating dtype: float32, float16, bfloat16; float32 accumulation, the bias added in the
// kernel). beta = 0 ignores self; alpha = 0 skips the product.
#ifndef ASCENDC_SIM_ACLNN_ADDMM_H
#define ASCENDC_SIM_ACLNN_ADDMM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1,
                                                  const aclTensor* mat2, const aclScalar* beta,
                                                  const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
