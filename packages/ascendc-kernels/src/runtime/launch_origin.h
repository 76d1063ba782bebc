// Names the API (e.g. "aclnnAdd", "aclopCompileAndExecute(Add)") on whose
// behalf the calling thread launches kernels, so a kernel failure reported at
// synchronisation says where the kernel came from.
#ifndef ASCENDC_SIM_RUNTIME_LAUNCH_ORIGIN_H
#define ASCENDC_SIM_RUNTIME_LAUNCH_ORIGIN_H

#include "common/visibility.h"

namespace ascendc_sim {

class ASCENDC_SIM_INTERNAL_API ScopedLaunchOrigin {
 public:
  explicit ScopedLaunchOrigin(const char* origin);  // `origin` must outlive the scope
  ~ScopedLaunchOrigin();
  ScopedLaunchOrigin(const ScopedLaunchOrigin&) = delete;
  ScopedLaunchOrigin& operator=(const ScopedLaunchOrigin&) = delete;

 private:
  const char* previous_;
};

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_LAUNCH_ORIGIN_H
