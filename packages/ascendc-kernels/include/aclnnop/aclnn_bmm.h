// out[i] = self[i] @ mat2[i] (3-D, equal batch sizes, same floating dtype: float32, float16,
// bfloat16; float32 accumulation). Transposed (transpose(1, 2)) operands are read as stored.
#ifndef ASCENDC_SIM_ACLNN_BMM_H
#define ASCENDC_SIM_ACLNN_BMM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnBmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
