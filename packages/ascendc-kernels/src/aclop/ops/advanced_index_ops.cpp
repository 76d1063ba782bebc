// acl_op types Index and IndexPutV2 (advanced_index_custom), declared in abi/aclop/advanced_index.decl.
#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// The kernel's mapping for x indexed as indexed_sizes (input `sizesInput`) says by the index inputs from
// `firstIndex` on, each made a dense int64 tensor; the result's shape in *shape.
aclError PlanIndex(OpContext& ctx, size_t sizesInput, size_t firstIndex, kernels::AdvancedIndexArgs* args,
                   std::vector<int64_t>* shape) {
  const OpOperand& x = ctx.inputs[0];
  std::vector<int64_t> masks;
  aclError rc = ConstantInts(ctx, sizesInput, "indexed_sizes", &masks);
  if (rc != ACL_SUCCESS) return rc;
  if (masks.size() > x.shape().size()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "indexed_sizes has %zu entries for a %zu-D x", masks.size(),
                    x.shape().size());
  }
  std::vector<int32_t> positions;
  for (size_t d = 0; d < masks.size(); ++d) {
    if (masks[d] != 0 && masks[d] != 1) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "indexed_sizes[%zu] is %lld; each entry is 0 or 1", d,
                      static_cast<long long>(masks[d]));
    }
    if (masks[d] == 1) positions.push_back(static_cast<int32_t>(d));
  }
  const size_t count = ctx.inputs.size() - firstIndex;
  if (positions.size() != count) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "indexed_sizes marks %zu indexed dimensions but %zu index tensors are "
                    "given", positions.size(), count);
  }
  const std::vector<int64_t>& broadcast = ctx.inputs[firstIndex].shape();
  for (size_t j = 1; j < count; ++j) {
    aclError same = ctx.RequireSameShape(ctx.inputs[firstIndex], "input indices0", ctx.inputs[firstIndex + j],
                                         StrFormat("input indices%zu", j).c_str());
    if (same != ACL_SUCCESS) return same;
  }
  args->dtype = x.dtype();
  if (!kernels::PlanAdvancedIndex(x.shape(), positions, broadcast, args, shape)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "the result would have more than %d dimensions",
                    kernels::kMaxViewDims);
  }
  int64_t n = 1;
  for (int64_t d : broadcast) n *= d;
  for (size_t j = 0; j < count; ++j) {
    const OpOperand& index = ctx.inputs[firstIndex + j];
    void* wide = index.data;
    if (index.dtype() != ACL_INT64 && n > 0) {
      if ((rc = ctx.AllocTemp(static_cast<size_t>(n) * sizeof(int64_t), &wide)) != ACL_SUCCESS) return rc;
      if ((rc = kernels::LaunchCast(index.dtype(), index.data, ACL_INT64, wide, n, ctx.stream())) != ACL_SUCCESS) {
        return rc;
      }
    }
    args->indices[j] = wide;
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError RunIndex(OpContext& ctx, const IndexAttrs&) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  kernels::AdvancedIndexArgs args;
  std::vector<int64_t> shape;
  aclError rc = PlanIndex(ctx, 1, 3, &args, &shape);
  if (rc != ACL_SUCCESS) return rc;
  if (y.shape() != shape) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, the indexing result is %s",
                    ShapeToString(y.shape()).c_str(), ShapeToString(shape).c_str());
  }
  if (y.Numel() == 0) return ACL_SUCCESS;
  if (x.Numel() == 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "x is empty: every index is out of bounds");
  args.self = x.data;
  args.out = y.data;
  args.op = "Index";
  return kernels::LaunchAdvancedIndex(args, ctx.stream());
}

aclError RunIndexPutV2(OpContext& ctx, const IndexPutV2Attrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& value = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  kernels::AdvancedIndexArgs args;
  std::vector<int64_t> shape;
  if ((rc = PlanIndex(ctx, 2, 4, &args, &shape)) != ACL_SUCCESS) return rc;
  if (value.shape() != shape) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input value has shape %s, the indexing result is %s",
                    ShapeToString(value.shape()).c_str(), ShapeToString(shape).c_str());
  }
  if ((rc = CopyUnlessSame(ctx, x, y)) != ACL_SUCCESS) return rc;
  if (value.Numel() == 0) return ACL_SUCCESS;
  if (x.Numel() == 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "x is empty: every index is out of bounds");
  args.put = true;
  args.accumulate = attrs.accumulate;
  args.self = y.data;
  args.values = value.data;
  args.op = "IndexPutV2";
  return kernels::LaunchAdvancedIndex(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
