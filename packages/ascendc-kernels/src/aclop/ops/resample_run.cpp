// The resampling acl_op types' shared launches (resample_run.h).
#include "aclop/ops/resample_run.h"

#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

namespace k = kernels;

aclError DescribeSpatial(OpContext& ctx, const std::vector<int64_t>& shape, int spatial, const char* name,
                         k::ResampleArgs* args) {
  const size_t rank = shape.size(), n = static_cast<size_t>(spatial);
  if (rank != n + 1 && rank != n + 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s of shape %s must be %zu-D or %zu-D", name,
                    ShapeToString(shape).c_str(), n + 1, n + 2);
  }
  args->planes = 1;
  for (size_t d = 0; d + n < rank; ++d) args->planes *= shape[d];
  for (int a = 0; a < k::kResampleAxes; ++a) {
    args->axis[a] = k::ResampleAxis();
    const int s = a - (k::kResampleAxes - spatial);
    if (s >= 0) args->axis[a].in = args->axis[a].out = shape[rank - n + static_cast<size_t>(s)];
  }
  return ACL_SUCCESS;
}

std::vector<int64_t> Pooled(const std::vector<int64_t>& shape, const k::ResampleArgs& args) {
  std::vector<int64_t> out = shape;
  for (int a = 0; a < k::kResampleAxes && static_cast<size_t>(a) < out.size(); ++a) {
    if (args.axis[k::kResampleAxes - 1 - a].rule != k::AxisRule::kIdentity) {
      out[out.size() - 1 - static_cast<size_t>(a)] = args.axis[k::kResampleAxes - 1 - a].out;
    }
  }
  return out;
}

aclError ExpectShape(OpContext& ctx, const OpOperand& t, const char* name, const std::vector<int64_t>& shape) {
  if (t.shape() == shape) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, expected %s", name, ShapeToString(t.shape()).c_str(),
                  ShapeToString(shape).c_str());
}

int64_t PooledSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceilMode) {
  const int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1 + (ceilMode ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceilMode && (out - 1) * stride >= in + pad) --out;
  return out;
}

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
