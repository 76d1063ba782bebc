// acl_op type PRelu (declared in abi/aclop/prelu.decl): the weight laid out densely in x's shape (a view
// copy), then mul_custom, gts_custom and select_custom of the elementwise kernel.
#include <vector>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// The shape `weight` takes against x: per channel (C, 1, ...) for a 1-D weight of x's channel count,
// else itself with leading 1s (numpy broadcasting); false when it does not broadcast to x.
bool WeightShape(const std::vector<int64_t>& x, const std::vector<int64_t>& weight, std::vector<int64_t>* out) {
  if (weight.size() > x.size()) return false;
  out->assign(x.size(), 1);
  if (weight.size() == 1 && x.size() >= 2 && weight[0] == x[1]) {
    (*out)[1] = weight[0];
    return true;
  }
  for (size_t i = 0; i < weight.size(); ++i) (*out)[x.size() - weight.size() + i] = weight[i];
  for (size_t d = 0; d < x.size(); ++d) {
    if ((*out)[d] != 1 && (*out)[d] != x[d]) return false;
  }
  return true;
}

}  // namespace

aclError RunPRelu(OpContext& ctx, const PReluAttrs&) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& weight = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& shape = x.shape();
  std::vector<int64_t> laid;
  if (!WeightShape(shape, weight.shape(), &laid) || shape.size() > static_cast<size_t>(kernels::kMaxViewDims)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input weight of shape %s fits neither x %s's channels nor its shape",
                    ShapeToString(weight.shape()).c_str(), ShapeToString(shape).c_str());
  }
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  if (n == 0) return ACL_SUCCESS;
  const aclDataType dtype = x.dtype();
  const size_t bytes = n * DataTypeSize(dtype);
  void* w = nullptr;
  void* product = nullptr;
  void* positive = nullptr;
  void* mask = nullptr;
  if ((rc = ctx.AllocTemp(bytes, &w)) != ACL_SUCCESS) return rc;
  if ((rc = ctx.AllocTemp(bytes, &product)) != ACL_SUCCESS) return rc;
  if ((rc = ctx.AllocTemp(n, &positive)) != ACL_SUCCESS) return rc;
  if ((rc = ctx.AllocTemp(bytes, &mask)) != ACL_SUCCESS) return rc;
  kernels::ViewCopyArgs copy;  // the weight in x's shape: stride 0 along its dimensions of size 1
  copy.ndim = static_cast<int32_t>(shape.size());
  int64_t srcStride = 1, dstStride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    copy.shape[k] = shape[k];
    copy.src.strides[k] = laid[k] == 1 ? 0 : srcStride;
    srcStride *= laid[k];
    copy.dst.strides[k] = dstStride;
    dstStride *= shape[k];
  }
  copy.src.data = weight.data;
  copy.src.dtype = dtype;
  copy.dst.data = w;
  copy.dst.dtype = dtype;
  const kernels::ScalarValue none = kernels::ScalarValue::Floating(0.0);
  if ((rc = kernels::LaunchViewCopy(copy, ctx.stream())) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchElementwise(kernels::EwOp::kMul, dtype, x.data, w, product, n, none, ctx.stream());
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchElementwise(kernels::EwOp::kGtScalar, dtype, x.data, nullptr, positive, n, none, ctx.stream());
  }
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(ACL_BOOL, positive, dtype, mask, n, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  kernels::EwArgs args;
  args.op = kernels::EwOp::kWhere;
  args.dtype = dtype;
  args.x[0] = mask;
  args.x[1] = x.data;
  args.x[2] = product;
  args.y = y.data;
  args.n = n;
  return kernels::LaunchElementwise(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
