// out = layer_norm(input, normalizedShape, weight, bias, eps) over the last
// len(normalizedShape) dimensions; meanOut/rstdOut (optional) have input's
// leading dimensions followed by len(normalizedShape) ones. float32, float16,
// bfloat16; weight/bias (optional) have normalizedShape and input's dtype.
#ifndef ASCENDC_SIM_ACLNN_LAYER_NORM_H
#define ASCENDC_SIM_ACLNN_LAYER_NORM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input,
                                                               const aclIntArray* normalizedShape,
                                                               const aclTensor* weightOptional,
                                                               const aclTensor* biasOptional, double eps,
                                                               aclTensor* out, aclTensor* meanOutOptional,
                                                               aclTensor* rstdOutOptional, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
