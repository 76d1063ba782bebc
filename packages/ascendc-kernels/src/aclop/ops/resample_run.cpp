// The resampling acl_op types' shared launches (resample_run.h).
#include "aclop/ops/resample_run.h"

#include "common/dtype.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

aclError RunResampleForward(OpContext& ctx, kernels::ResampleArgs args, const OpOperand& x, const OpOperand& y) {
  if (y.Numel() == 0) return ACL_SUCCESS;
  args.dtype = x.dtype();
  args.op = ctx.type().c_str();
  args.x = x.data;
  args.y = y.data;
  const aclError rc = ctx.AllocTemp(kernels::ResampleTapsBytes(args), &args.taps);
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchResample(args, ctx.stream());
}

aclError RunResampleBackward(OpContext& ctx, kernels::ResampleArgs args, const OpOperand& grad, const OpOperand& y) {
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  if (n == 0) return ACL_SUCCESS;
  const aclDataType dtype = grad.dtype();
  const aclDataType accumulate = kernels::ResampleAccumulateType(dtype);
  args.dtype = dtype;
  args.op = ctx.type().c_str();
  args.x = grad.data;
  args.y = y.data;
  aclError rc = ACL_SUCCESS;
  if (accumulate != dtype) {  // a float16/bfloat16 result is cast from the float32 accumulation
    rc = ctx.AllocTemp(n * DataTypeSize(accumulate), &args.y);
    if (rc != ACL_SUCCESS) return rc;
  }
  if ((rc = ctx.AllocTemp(kernels::ResampleTapsBytes(args), &args.taps)) != ACL_SUCCESS) return rc;
  if ((rc = kernels::LaunchResampleBackward(args, ctx.stream())) != ACL_SUCCESS) return rc;
  if (accumulate == dtype) return ACL_SUCCESS;
  return kernels::LaunchCast(accumulate, args.y, dtype, y.data, n, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
