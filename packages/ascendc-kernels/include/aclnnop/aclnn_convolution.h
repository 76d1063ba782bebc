// 2-D (and 1-D) convolution, not transposed: output [N, Cout, OH, OW] =
// conv(input [N, C, H, W], weight [Cout, C / groups, KH, KW]) + bias [Cout]
// (optional), with stride, padding and dilation of 2 (1-D: 1) values each.
// float32, float16, bfloat16; every operand of the input's dtype. Computed as
// im2col (im2col_custom) and a matrix product on the cube unit (matmul_custom);
// the bias is a column of the weight against a row of ones. cubeMathType as in aclnnMm.
#ifndef ASCENDC_SIM_ACLNN_CONVOLUTION_H
#define ASCENDC_SIM_ACLNN_CONVOLUTION_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolutionGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclIntArray* stride,
    const aclIntArray* padding, const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding,
    int64_t groups, aclTensor* output, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolution(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);
// The gradients of aclnnConvolution selected by outputMask (3 values: input,
// weight, bias; the unselected outputs may be null): gradInput = col2im(weight^T @
// gradOutput) (float32 accumulation), gradWeight = gradOutput @ im2col(input)^T summed
// over the batch, gradBias = gradOutput summed over batch and positions. biasSizes may be null.
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclIntArray* biasSizes,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
    const aclIntArray* outputPadding, int64_t groups, const aclBoolArray* outputMask, int8_t cubeMathType,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize,
                                                         aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
