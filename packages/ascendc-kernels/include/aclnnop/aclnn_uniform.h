// selfRef[...] = uniform values in [from, to) (float, float16, bfloat16, double; any layout).
// Counter-based: element i (row-major over selfRef's view) draws Philox4x32-10 block
// {counter: i, offset; key: seed}, so equal (seed, offset) give equal values.
#ifndef ASCENDC_SIM_ACLNN_UNIFORM_H
#define ASCENDC_SIM_ACLNN_UNIFORM_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor* selfRef, double from, double to,
                                                                    uint64_t seed, uint64_t offset,
                                                                    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceUniform(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
