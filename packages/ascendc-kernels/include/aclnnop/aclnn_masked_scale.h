// out = self * mask * scale (self/out: float, float16, bfloat16 and, in this simulator, double, of one shape; mask: UINT8,
// INT8, FLOAT16 or FLOAT of self's shape), rounded to self's dtype after each product.
#ifndef ASCENDC_SIM_ACLNN_MASKED_SCALE_H
#define ASCENDC_SIM_ACLNN_MASKED_SCALE_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaskedScaleGetWorkspaceSize(const aclTensor* self, const aclTensor* mask,
                                                                 float scale, aclTensor* out,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaskedScale(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
