// out = self @ mat2 (2-D, same floating dtype: float32, float16, bfloat16).
// cubeMathType (0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32)
// is accepted; the simulator's cube always accumulates in float32.
#ifndef ASCENDC_SIM_ACLNN_MM_H
#define ASCENDC_SIM_ACLNN_MM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                        int8_t cubeMathType, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
