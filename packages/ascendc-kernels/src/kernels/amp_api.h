// Host entry points of the mixed-precision kernels (GradScaler's steps): the non-finite check
// with unscaling of one gradient, and the loss-scale update.
#ifndef ASCENDC_SIM_KERNELS_AMP_API_H
#define ASCENDC_SIM_KERNELS_AMP_API_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {
namespace kernels {

// y = x * invScale[0] over n dense elements of `dtype` (float, float16, bfloat16, double; y may
// be x); foundInf[0] (float) becomes 1 when any x is an infinity or NaN, else it is not written.
ASCENDC_SIM_INTERNAL_API aclError LaunchNonFiniteCheckAndUnscale(aclDataType dtype, const void* x, void* y,
                                                                 uint64_t n, const float* invScale,
                                                                 float* foundInf, aclrtStream stream);

struct AmpUpdateScaleArgs {
  const float* scale = nullptr;           // the current loss scale
  const int32_t* growthTracker = nullptr;  // unskipped steps since the last change
  const float* foundInf = nullptr;        // non-zero: this step's gradients were not finite
  float* updatedScale = nullptr;          // may be scale
  int32_t* updatedGrowthTracker = nullptr;  // may be growthTracker
  double growthFactor = 2.0;
  double backoffFactor = 0.5;
  int64_t growthInterval = 2000;
};

// One scalar step: after a non-finite step the scale is multiplied by backoffFactor and the tracker
// reset; otherwise the tracker counts the step and, on reaching growthInterval, the scale is
// multiplied by growthFactor (kept when that overflows) and the tracker reset.
ASCENDC_SIM_INTERNAL_API aclError LaunchAmpUpdateScale(const AmpUpdateScaleArgs& args, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_AMP_API_H
