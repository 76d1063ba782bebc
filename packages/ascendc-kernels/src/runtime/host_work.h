// Host work queued on a stream like a kernel: it runs when the stream reaches it, after the
// work queued before it, and the work queued after it waits for it. A failure is the stream's
// error (what aclrtSynchronizeStream returns and names), as a failed kernel's is. libhccl queues
// its collectives this way: aclrtLaunchCallback's callbacks cannot fail their stream.
#ifndef ASCENDC_SIM_RUNTIME_HOST_WORK_H
#define ASCENDC_SIM_RUNTIME_HOST_WORK_H

#include <functional>
#include <string>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {

// Returns ACL_SUCCESS, or an error code with `*message` saying what failed.
using HostWork = std::function<aclError(std::string* message)>;

// Queues `work` on `stream` (null: the current device's default stream). On a bad stream sets
// the recent error (naming `api`) and returns its code; the work is then not queued.
ASCENDC_SIM_INTERNAL_API aclError SubmitHostWork(aclrtStream stream, const char* api, HostWork work);

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_HOST_WORK_H
