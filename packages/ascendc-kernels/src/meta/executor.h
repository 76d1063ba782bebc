// The launch phase shared by all aclnn APIs.
#ifndef ASCENDC_SIM_META_EXECUTOR_H
#define ASCENDC_SIM_META_EXECUTOR_H

#include "common/visibility.h"
#include "meta/acl_meta_types.h"

namespace ascendc_sim {

// Checks the workspace and the devices of the executor's memory against the
// stream, enqueues its steps on `stream` and consumes the executor. When a
// check fails before anything was queued the executor is left to the caller
// (aclDestroyAclOpExecutor); once steps are being queued it is always consumed.
// A fresh (empty) executor of `api`, recycled from the calling thread's pool
// when one is there; give it back with ReleaseExecutor (LaunchExecutor and
// aclDestroyAclOpExecutor do).
ASCENDC_SIM_INTERNAL_API aclOpExecutor* AcquireExecutor(const char* api);
ASCENDC_SIM_INTERNAL_API void ReleaseExecutor(aclOpExecutor* executor);

ASCENDC_SIM_INTERNAL_API aclnnStatus LaunchExecutor(const char* api, void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_META_EXECUTOR_H
