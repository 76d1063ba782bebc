// acl_op type ShuffleChannel (declared in abi/aclop/shuffle.decl): one strided copy of view_copy_custom
// reading x as (N, group, C / group, rest) in the order (N, C / group, group, rest).
#include <vector>

#include "aclop/declared_ops.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

aclError RunShuffleChannel(OpContext& ctx, const ShuffleChannelAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  const std::vector<int64_t>& shape = x.shape();
  aclError rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  if (shape.size() < 3) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x of shape %s must have at least 3 dimensions",
                    ShapeToString(shape).c_str());
  }
  const int64_t n = shape[0], c = shape[1], g = attrs.group;
  if (g < 1 || c % g != 0) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "group %lld must be positive and divide the %lld channels",
                    static_cast<long long>(g), static_cast<long long>(c));
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  int64_t rest = 1;
  for (size_t d = 2; d < shape.size(); ++d) rest *= shape[d];
  const int64_t perGroup = c / g;
  kernels::ViewCopyArgs args;
  args.ndim = 4;  // in y's order: N, C / group, group, rest
  const int64_t sizes[4] = {n, perGroup, g, rest};
  const int64_t srcStrides[4] = {c * rest, rest, perGroup * rest, 1};
  const int64_t dstStrides[4] = {c * rest, g * rest, rest, 1};
  for (int i = 0; i < 4; ++i) {
    args.shape[i] = sizes[i];
    args.src.strides[i] = srcStrides[i];
    args.dst.strides[i] = dstStrides[i];
  }
  args.src.data = x.data;
  args.src.dtype = x.dtype();
  args.dst.data = y.data;
  args.dst.dtype = y.dtype();
  return kernels::LaunchViewCopy(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
