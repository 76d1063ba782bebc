// out[i] = start + i * step for i < out.numel() (out 1-D, any dtype but bool and
// complex): computed in double for a floating out, in int64 for an integral one.
// out.numel() must be ceil((end - start) / step), step nonzero with the sign of end - start.
#ifndef ASCENDC_SIM_ACLNN_ARANGE_H
#define ASCENDC_SIM_ACLNN_ARANGE_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
ACL_FUNC_VISIBILITY aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                            const aclScalar* step, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnArange(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
