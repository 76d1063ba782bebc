// acl_op running extremes (declared in abi/aclop/scan_extreme.decl): Cummax and Cummin on the scan kernel.
// x is copied with the scanned dimension last in the kernel's compute type; the values and int64 indices
// are copied back to x's layout in the outputs' dtypes.
#include <utility>

#include "aclop/declared_ops.h"
#include "aclop/ops/dim_last.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "kernels/reduce_dim_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// `out` (x's layout, its dtype) <- the rows x cols values of `dtype` at `scanned`.
aclError CopyBack(OpContext& ctx, const DimLast& plan, const void* scanned, aclDataType dtype, const OpOperand& out) {
  kernels::ViewCopyArgs back = plan.view;
  for (int32_t k = 0; k < back.ndim; ++k) std::swap(back.src.strides[k], back.dst.strides[k]);
  back.src.data = const_cast<void*>(scanned);
  back.src.dtype = dtype;
  back.dst.data = out.data;
  back.dst.dtype = out.dtype();
  return kernels::LaunchViewCopy(back, ctx.stream());
}

aclError RunScanExtreme(OpContext& ctx, kernels::ScanOp op, int64_t dim) {
  const OpOperand& x = ctx.inputs[0];
  for (const OpOperand* out : {&ctx.outputs[0], &ctx.outputs[1]}) {
    if (out->shape() != x.shape()) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output of shape %s, expected x's %s",
                      ShapeToString(out->shape()).c_str(), ShapeToString(x.shape()).c_str());
    }
  }
  DimLast plan;
  aclError rc = PlanDimLast(ctx, dim, true, &plan);
  if (rc != ACL_SUCCESS || plan.rows * plan.cols == 0) return rc;
  const uint64_t n = plan.rows * plan.cols;
  const aclDataType compute = kernels::DimReduceComputeType(x.dtype());
  void* dense = nullptr;
  void* values = nullptr;
  void* indices = nullptr;
  rc = CopyDimLast(ctx, plan, x, compute, &dense);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(n * DataTypeSize(compute), &values);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(n * sizeof(int64_t), &indices);
  if (rc != ACL_SUCCESS) return rc;
  kernels::ScanArgs args;
  args.op = op;
  args.dtype = compute;
  args.x = dense;
  args.y = values;
  args.idx = indices;
  args.rows = plan.rows;
  args.cols = plan.cols;
  if ((rc = kernels::LaunchScan(args, ctx.stream())) != ACL_SUCCESS) return rc;
  if ((rc = CopyBack(ctx, plan, values, compute, ctx.outputs[0])) != ACL_SUCCESS) return rc;
  return CopyBack(ctx, plan, indices, ACL_INT64, ctx.outputs[1]);
}

}  // namespace

aclError RunCummax(OpContext& ctx, const CummaxAttrs& attrs) {
  return RunScanExtreme(ctx, kernels::ScanOp::kCumMax, attrs.dim);
}

aclError RunCummin(OpContext& ctx, const CumminAttrs& attrs) {
  return RunScanExtreme(ctx, kernels::ScanOp::kCumMin, attrs.axis);
}

}  // namespace aclop
}  // namespace ascendc_sim
