// 2-D max pooling of self [N, C, H, W] or [C, H, W] (float32, float16, bfloat16,
// double): out (self's dtype) and indices (int64, h * W + w within the input plane,
// PyTorch's convention) of shape [..., OH, OW] with OH/OW from kernelSize, stride
// (empty: kernelSize), padding (at most half the kernel), dilation and ceilMode as in
// torch.nn.functional.max_pool2d. Padding never wins; NaN does.
#ifndef ASCENDC_SIM_ACLNN_MAX_POOL2D_WITH_INDICES_H
#define ASCENDC_SIM_ACLNN_MAX_POOL2D_WITH_INDICES_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool ceilMode, aclTensor* out, aclTensor* indices, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndices(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor, aclrtStream stream);
// gradInput (self's shape and dtype) = gradOutput added at indices (float32 accumulation).
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndicesBackward(void* workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
