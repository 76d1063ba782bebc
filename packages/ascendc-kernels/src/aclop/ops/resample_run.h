// Shared by the acl_op types on the resampling kernels (padding, pooling): the description of a problem's
// planes and sizes, and the launch of a resampling problem from an input operand into an output operand,
// forward or backward.
#ifndef ASCENDC_SIM_ACLOP_OPS_RESAMPLE_RUN_H
#define ASCENDC_SIM_ACLOP_OPS_RESAMPLE_RUN_H

#include <vector>

#include "aclop/op_registry.h"
#include "kernels/resample_api.h"

namespace ascendc_sim {
namespace aclop {

// args' planes and axes for `shape`, which has one or two leading dimensions (C or N, C) before its `spatial`
// trailing ones (`name` in messages): those are the last axes, of output size their input size, the other
// axes identities of size 1.
aclError DescribeSpatial(OpContext& ctx, const std::vector<int64_t>& shape, int spatial, const char* name,
                         kernels::ResampleArgs* args);

// `shape` with its trailing sizes those of the non-identity axes' outputs.
std::vector<int64_t> Pooled(const std::vector<int64_t>& shape, const kernels::ResampleArgs& args);

// Fails with ACL_ERROR_INVALID_PARAM unless `t` (`name` in the message) has `shape`.
aclError ExpectShape(OpContext& ctx, const OpOperand& t, const char* name, const std::vector<int64_t>& shape);

// PyTorch's pooled size of `in`: ceil_mode keeps a last window that starts inside the input or the leading
// padding.
int64_t PooledSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceilMode);

// y = the resampling `args` (planes and axes set) of x, in x's dtype; the tap tables in a temporary.
aclError RunResampleForward(OpContext& ctx, kernels::ResampleArgs args, const OpOperand& x, const OpOperand& y);

// y = the adjoint of the resampling `args` applied to the gradient `grad`: accumulated in float32
// (float64 for double) and cast into y's dtype.
aclError RunResampleBackward(OpContext& ctx, kernels::ResampleArgs args, const OpOperand& grad, const OpOperand& y);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_OPS_RESAMPLE_RUN_H
