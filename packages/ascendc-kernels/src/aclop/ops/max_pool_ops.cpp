// acl_op types MaxPool3DWithArgmaxV2, MaxPool3DGradWithArgmax, AdaptiveMaxPool2d and AdaptiveMaxPool2dGrad
// (declared in abi/aclop/max_pool.decl) on the resampling kernels the aclnn max pooling entry points
// launch: the window maximum (values and int64 plane offsets) and the plane scatter-add of the gradient.
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/resample_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

namespace k = kernels;

// The max-window problem of `shape` (N, C, D, H, W or C, D, H, W) for the 3-D window attributes shared by
// MaxPool3DWithArgmaxV2 and MaxPool3DGradWithArgmax.
template <typename Attrs>
aclError WindowProblem(OpContext& ctx, const std::vector<int64_t>& shape, const Attrs& attrs, k::ResampleArgs* args) {
  if (attrs.data_format != "NCDHW") {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "data_format '%s' is not supported (NCDHW is)",
                    attrs.data_format.c_str());
  }
  if (attrs.ksize.size() != 3 || attrs.strides.size() != 3 || attrs.pads.size() != 3 || attrs.dilation.size() != 3) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM,
                    "ksize %s, strides %s, pads %s and dilation %s must hold 3 values (d, h, w)",
                    ShapeToString(attrs.ksize).c_str(), ShapeToString(attrs.strides).c_str(),
                    ShapeToString(attrs.pads).c_str(), ShapeToString(attrs.dilation).c_str());
  }
  aclError rc = DescribeSpatial(ctx, shape, 3, "input x", args);
  if (rc != ACL_SUCCESS) return rc;
  for (size_t i = 0; i < 3; ++i) {
    k::ResampleAxis& ax = args->axis[i];
    const int64_t kernel = attrs.ksize[i], stride = attrs.strides[i], pad = attrs.pads[i], dil = attrs.dilation[i];
    if (kernel < 1 || stride < 1 || dil < 1 || pad < 0 || pad > kernel / 2) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM,
                      "window %lld, stride %lld, padding %lld and dilation %lld are not a valid window",
                      static_cast<long long>(kernel), static_cast<long long>(stride), static_cast<long long>(pad),
                      static_cast<long long>(dil));
    }
    ax.rule = k::AxisRule::kMaxWindow;
    ax.kernel = kernel;
    ax.stride = stride;
    ax.pad = pad;
    ax.dilation = dil;
    ax.out = PooledSize(ax.in, kernel, pad, stride, dil, attrs.ceil_mode);
    if (ax.out < 1) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "the pooled size of input x %s is too small",
                      ShapeToString(shape).c_str());
    }
  }
  return ACL_SUCCESS;
}

// y, argmax = the window maxima of x for `args` (axes set); an int32 argmax is cast from the kernel's int64.
aclError RunWindowMax(OpContext& ctx, k::ResampleArgs args, const OpOperand& x, const OpOperand& y,
                      const OpOperand& argmax) {
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  if (n == 0) return ACL_SUCCESS;
  args.dtype = x.dtype();
  args.op = ctx.type().c_str();
  args.x = x.data;
  args.y = y.data;
  void* indices = argmax.data;
  aclError rc = ACL_SUCCESS;
  if (argmax.dtype() != ACL_INT64 && (rc = ctx.AllocTemp(n * sizeof(int64_t), &indices)) != ACL_SUCCESS) return rc;
  if ((rc = k::LaunchWindowMax(args, indices, ctx.stream())) != ACL_SUCCESS) return rc;
  if (argmax.dtype() == ACL_INT64) return ACL_SUCCESS;
  return k::LaunchCast(ACL_INT64, indices, argmax.dtype(), argmax.data, n, ctx.stream());
}

// out (`shape`, its planes `planes`) = grad added at argmax (grad's shape) within each plane, accumulated in
// float32 (float64 for double) and cast into out's dtype.
aclError RunScatterAdd(OpContext& ctx, int64_t planes, const OpOperand& grad, const OpOperand& argmax,
                       const OpOperand& out) {
  const uint64_t n = static_cast<uint64_t>(out.Numel()), count = static_cast<uint64_t>(grad.Numel());
  if (n == 0) return ACL_SUCCESS;
  const aclDataType dtype = grad.dtype(), accumulate = k::ResampleAccumulateType(dtype);
  k::PlaneScatterArgs args;
  args.mode = k::PlaneScatterMode::kAdd;
  args.dtype = dtype;
  args.planes = planes;
  args.count = planes == 0 ? 0 : static_cast<int64_t>(count) / planes;
  args.inner = planes == 0 ? 0 : static_cast<int64_t>(n) / planes;
  args.op = ctx.type().c_str();
  args.x = grad.data;
  args.indices = argmax.data;
  args.y = out.data;
  aclError rc = ACL_SUCCESS;
  if (argmax.dtype() != ACL_INT64) {  // the kernel reads int64 offsets
    void* wide = nullptr;
    if ((rc = ctx.AllocTemp(count * sizeof(int64_t), &wide)) != ACL_SUCCESS) return rc;
    if ((rc = k::LaunchCast(argmax.dtype(), argmax.data, ACL_INT64, wide, count, ctx.stream())) != ACL_SUCCESS) {
      return rc;
    }
    args.indices = wide;
  }
  if (accumulate != dtype && (rc = ctx.AllocTemp(n * DataTypeSize(accumulate), &args.y)) != ACL_SUCCESS) return rc;
  if ((rc = k::LaunchPlaneScatter(args, ctx.stream())) != ACL_SUCCESS) return rc;
  if (accumulate == dtype) return ACL_SUCCESS;
  return k::LaunchCast(accumulate, args.y, dtype, out.data, n, ctx.stream());
}

}  // namespace

aclError RunMaxPool3DWithArgmaxV2(OpContext& ctx, const MaxPool3DWithArgmaxV2Attrs& attrs) {
  const OpOperand &x = ctx.inputs[0], &y = ctx.outputs[0], &argmax = ctx.outputs[1];
  if (attrs.dtype != 3 && attrs.dtype != 9) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute dtype %lld must be 3 (int32) or 9 (int64)",
                    static_cast<long long>(attrs.dtype));
  }
  const aclDataType indexType = attrs.dtype == 3 ? ACL_INT32 : ACL_INT64;
  if (argmax.dtype() != indexType) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output argmax of dtype %s does not match attribute dtype %lld (%s)",
                    DataTypeName(argmax.dtype()), static_cast<long long>(attrs.dtype), DataTypeName(indexType));
  }
  k::ResampleArgs args;
  aclError rc = WindowProblem(ctx, x.shape(), attrs, &args);
  const std::vector<int64_t> shape = Pooled(x.shape(), args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, y, "output y", shape);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, argmax, "output argmax", shape);
  if (rc != ACL_SUCCESS) return rc;
  return RunWindowMax(ctx, args, x, y, argmax);
}

aclError RunMaxPool3DGradWithArgmax(OpContext& ctx, const MaxPool3DGradWithArgmaxAttrs& attrs) {
  const OpOperand &x = ctx.inputs[0], &grad = ctx.inputs[1], &argmax = ctx.inputs[2], &y = ctx.outputs[0];
  k::ResampleArgs args;
  aclError rc = WindowProblem(ctx, x.shape(), attrs, &args);
  const std::vector<int64_t> shape = Pooled(x.shape(), args);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, grad, "input grad", shape);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, argmax, "input argmax", shape);
  if (rc == ACL_SUCCESS) rc = ExpectShape(ctx, y, "output y", x.shape());
  if (rc != ACL_SUCCESS) return rc;
  return RunScatterAdd(ctx, args.planes, grad, argmax, y);
}

aclError RunAdaptiveMaxPool2d(OpContext& ctx, const AdaptiveMaxPool2dAttrs& attrs) {
  const OpOperand &x = ctx.inputs[0], &y = ctx.outputs[0], &argmax = ctx.outputs[1];
  k::ResampleArgs args;
  aclError rc = DescribeSpatial(ctx, x.shape(), 2, "input x", &args);
  if (rc != ACL_SUCCESS) return rc;
  bool valid = attrs.output_size.size() == 2;
  for (size_t i = 0; valid && i < 2; ++i) valid = attrs.output_size[i] >= 0;
  if (!valid) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute output_size %s must hold two sizes (H, W)",
                    ShapeToString(attrs.output_size).c_str());
  }
  for (int i = 0; i < 2; ++i) {
    k::ResampleAxis& ax = args.axis[k::kResampleAxes - 2 + i];
    ax.rule = k::AxisRule::kAdaptive;
    ax.out = attrs.output_size[static_cast<size_t>(i)];
    if (ax.in == 0 && ax.out > 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x has an empty spatial dimension");
  }
  const std::vector<int64_t> shape = Pooled(x.shape(), args);
  if ((rc = ExpectShape(ctx, y, "output y", shape)) != ACL_SUCCESS) return rc;
  if ((rc = ExpectShape(ctx, argmax, "output argmax", shape)) != ACL_SUCCESS) return rc;
  return RunWindowMax(ctx, args, x, y, argmax);
}

aclError RunAdaptiveMaxPool2dGrad(OpContext& ctx, const AdaptiveMaxPool2dGradAttrs&) {
  const OpOperand &grad = ctx.inputs[0], &x = ctx.inputs[1], &argmax = ctx.inputs[2], &xGrad = ctx.outputs[0];
  k::ResampleArgs args;
  aclError rc = DescribeSpatial(ctx, x.shape(), 2, "input x", &args);
  if (rc != ACL_SUCCESS) return rc;
  const size_t rank = x.shape().size();
  bool sameLead = grad.shape().size() == rank;
  for (size_t d = 0; sameLead && d + 2 < rank; ++d) sameLead = grad.shape()[d] == x.shape()[d];
  if (!sameLead) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input y_grad of shape %s does not pool input x of shape %s",
                    ShapeToString(grad.shape()).c_str(), ShapeToString(x.shape()).c_str());
  }
  if ((rc = ExpectShape(ctx, argmax, "input argmax", grad.shape())) != ACL_SUCCESS) return rc;
  if ((rc = ExpectShape(ctx, xGrad, "output x_grad", x.shape())) != ACL_SUCCESS) return rc;
  return RunScatterAdd(ctx, args.planes, grad, argmax, xGrad);
}

}  // namespace aclop
}  // namespace ascendc_sim
