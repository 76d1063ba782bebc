// Batch normalization over dimension 1 of an (N, C, *) input (float32, float16,
// bfloat16), as torch's native_batch_norm: training normalizes with the batch
// statistics, writes saveMean/saveInvstd (float C, may be null or empty) and, when
// runningMean/runningVar are given, updates them in place with momentum (unbiased
// variance); eval uses runningMean/runningVar. weight, bias: C or null.
#ifndef ASCENDC_SIM_ACLNN_BATCH_NORM_H
#define ASCENDC_SIM_ACLNN_BATCH_NORM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                               const aclTensor* bias, aclTensor* runningMean,
                                                               aclTensor* runningVar, bool training, double momentum,
                                                               double eps, aclTensor* output, aclTensor* saveMean,
                                                               aclTensor* saveInvstd, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
