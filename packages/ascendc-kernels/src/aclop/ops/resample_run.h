// Shared by the acl_op types on the resampling kernels (padding, pooling): the launch of a resampling
// problem from an input operand into an output operand, forward or backward.
#ifndef ASCENDC_SIM_ACLOP_OPS_RESAMPLE_RUN_H
#define ASCENDC_SIM_ACLOP_OPS_RESAMPLE_RUN_H

#include "aclop/op_registry.h"
#include "kernels/resample_api.h"

namespace ascendc_sim {
namespace aclop {

// y = the resampling `args` (planes and axes set) of x, in x's dtype; the tap tables in a temporary.
aclError RunResampleForward(OpContext& ctx, kernels::ResampleArgs args, const OpOperand& x, const OpOperand& y);

// y = the adjoint of the resampling `args` applied to the gradient `grad`: accumulated in float32
// (float64 for double) and cast into y's dtype.
aclError RunResampleBackward(OpContext& ctx, kernels::ResampleArgs args, const OpOperand& grad, const OpOperand& y);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_OPS_RESAMPLE_RUN_H
