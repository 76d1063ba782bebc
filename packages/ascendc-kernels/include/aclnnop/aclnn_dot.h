// out (0-dim) = sum(self * tensor) over two 1-D tensors of the same size (float32,
// float16, bfloat16; float32 accumulation on the cube unit).
#ifndef ASCENDC_SIM_ACLNN_DOT_H
#define ASCENDC_SIM_ACLNN_DOT_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
