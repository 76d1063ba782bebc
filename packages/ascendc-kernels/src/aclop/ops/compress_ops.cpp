// acl_op types NonZero and MaskedSelect (compress_custom) and UniqueWithCountsAndSorting
// (unique_custom), declared in abi/aclop/compress.decl. Each reports the sizes its kernels
// produce (OpContext::ReportOutputShape), which aclopCompileAndExecuteV2 writes into the
// output descriptors once the kernels have run.
#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

aclError RequireShape(OpContext& ctx, const OpOperand& t, const char* name, const std::vector<int64_t>& expected,
                      const char* what) {
  if (t.shape() == expected) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, expected %s (%s)", name, ShapeToString(t.shape()).c_str(),
                  ShapeToString(expected).c_str(), what);
}

// Compacts `args.n` elements under the dense bool `mask` into y, and reports y's size as
// [the count of true elements, trailing...].
aclError Compress(OpContext& ctx, kernels::CompressArgs args, const void* mask, std::vector<int64_t> trailing) {
  void* counts = nullptr;
  aclError rc = ctx.AllocTemp((kernels::kCompressMaxBlocks + 1) * sizeof(int64_t), &counts);
  if (rc != ACL_SUCCESS) return rc;
  const int64_t* total = static_cast<const int64_t*>(counts) + kernels::CompressTotalSlot(args.n);
  if (args.n == 0) {
    rc = kernels::LaunchFill(ACL_INT64, const_cast<int64_t*>(total), 1, kernels::ScalarValue::Integral(0), ctx.stream());
  } else {
    args.mask = mask;
    args.out = ctx.outputs[0].data;
    args.counts = counts;
    rc = kernels::LaunchCompress(args, ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  ctx.ReportOutputShape(0, total, std::move(trailing));
  return ACL_SUCCESS;
}

}  // namespace

aclError RunNonZero(OpContext& ctx, const NonZeroAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  if (attrs.transpose) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "transpose = true (y as [rank, count]) is not supported");
  }
  const int64_t rank = static_cast<int64_t>(x.shape().size());
  if (rank > kernels::kMaxViewDims) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "x has %lld dimensions, at most %d are supported",
                    static_cast<long long>(rank), kernels::kMaxViewDims);
  }
  aclError rc = RequireShape(ctx, ctx.outputs[0], "output y", {x.Numel(), rank}, "x's element count by its rank");
  if (rc != ACL_SUCCESS) return rc;
  kernels::CompressArgs args;
  args.mode = kernels::CompressMode::kCoordinates;
  args.n = x.Numel();
  args.limit = args.n;
  args.ndim = static_cast<int32_t>(rank);
  for (int64_t d = 0; d < rank; ++d) args.shape[d] = x.shape()[static_cast<size_t>(d)];
  void* mask = nullptr;
  if (args.n > 0) {
    // x != 0 as a bool tile (a cast to bool is exactly that, NaN included).
    rc = ctx.AllocTemp(static_cast<size_t>(args.n), &mask);
    if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(x.dtype(), x.data, ACL_BOOL, mask, args.n, ctx.stream());
    if (rc != ACL_SUCCESS) return rc;
  }
  return Compress(ctx, args, mask, {rank});
}

aclError RunMaskedSelect(OpContext& ctx, const MaskedSelectAttrs&) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& mask = ctx.inputs[1];
  std::vector<int64_t> shape;
  if (!BroadcastShapes(x.shape(), mask.shape(), &shape)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "x %s and mask %s do not broadcast", ShapeToString(x.shape()).c_str(),
                    ShapeToString(mask.shape()).c_str());
  }
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  aclError rc = RequireShape(ctx, ctx.outputs[0], "output y", {n}, "the broadcast element count");
  if (rc != ACL_SUCCESS) return rc;
  kernels::CompressArgs args;
  args.mode = kernels::CompressMode::kValues;
  args.dtype = x.dtype();
  args.n = n;
  args.limit = n;
  args.op = "MaskedSelect";
  void* m = nullptr;
  if (n > 0) {
    void* values = nullptr;
    if ((rc = ctx.BroadcastInput(0, shape, &values)) != ACL_SUCCESS) return rc;
    if ((rc = ctx.BroadcastInput(1, shape, &m)) != ACL_SUCCESS) return rc;
    args.values = values;
  }
  return Compress(ctx, args, m, {});
}

aclError RunUniqueWithCountsAndSorting(OpContext& ctx, const UniqueWithCountsAndSortingAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  const OpOperand& idx = ctx.outputs[1];
  const OpOperand& count = ctx.outputs[2];
  const int64_t n = x.Numel();
  aclError rc = RequireShape(ctx, y, "output y", {n}, "x's element count");
  if (rc == ACL_SUCCESS && attrs.return_inverse) rc = RequireShape(ctx, idx, "output idx", x.shape(), "x's shape");
  if (rc == ACL_SUCCESS && attrs.return_counts) rc = RequireShape(ctx, count, "output count", {n}, "x's element count");
  if (rc != ACL_SUCCESS) return rc;
  void* total = nullptr;
  if ((rc = ctx.AllocTemp(sizeof(int64_t), &total)) != ACL_SUCCESS) return rc;
  if (n == 0) {
    rc = kernels::LaunchFill(ACL_INT64, total, 1, kernels::ScalarValue::Integral(0), ctx.stream());
  } else {
    kernels::UniqueArgs args;
    args.dtype = x.dtype();
    args.n = n;
    args.consecutive = false;  // sorted, whatever `sorted` asks: any order is a valid unsorted result
    args.x = x.data;
    args.y = y.data;
    args.inverse = attrs.return_inverse ? idx.data : nullptr;
    args.counts = attrs.return_counts ? count.data : nullptr;
    if ((rc = ctx.AllocTemp(static_cast<size_t>(n) * sizeof(int64_t), &args.order)) != ACL_SUCCESS) return rc;
    args.total = total;
    rc = kernels::LaunchUnique(args, ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  ctx.ReportOutputShape(0, static_cast<const int64_t*>(total), {});
  if (attrs.return_counts) ctx.ReportOutputShape(2, static_cast<const int64_t*>(total), {});
  return ACL_SUCCESS;
}

}  // namespace aclop
}  // namespace ascendc_sim
