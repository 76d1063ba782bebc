// The plans of dim_last.h: x's strides with the chosen dimensions' sizes and strides ordered last.
#include "aclop/ops/dim_last.h"

#include "common/dtype.h"
#include "common/error.h"

namespace ascendc_sim {
namespace aclop {

aclError PlanReducedLast(OpContext& ctx, const std::vector<bool>& reduced, bool keepDims, DimLast* plan) {
  const std::vector<int64_t>& shape = ctx.inputs[0].shape();
  const size_t rank = shape.size();
  if (rank > static_cast<size_t>(kernels::kMaxViewDims)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x has %zu dimensions; at most %d are supported", rank,
                    kernels::kMaxViewDims);
  }
  std::vector<int64_t> strides(rank);
  int64_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    strides[k] = stride;
    stride *= shape[k];
  }
  kernels::ViewCopyArgs& v = plan->view;
  for (int pass = 0; pass < 2; ++pass) {  // kept dimensions, then reduced ones
    for (size_t k = 0; k < rank; ++k) {
      if (reduced[k] != (pass == 1)) continue;
      (pass == 0 ? plan->rows : plan->cols) *= static_cast<uint64_t>(shape[k]);
      v.shape[v.ndim] = shape[k];
      v.src.strides[v.ndim++] = strides[k];
    }
  }
  for (size_t k = 0; k < rank; ++k) {
    if (!reduced[k]) {
      plan->expected.push_back(shape[k]);
    } else if (keepDims) {
      plan->expected.push_back(1);
    }
  }
  if (v.ndim == 0) {
    v.ndim = 1;
    v.shape[0] = 1;
  }
  int64_t dense = 1;
  for (int32_t k = v.ndim; k-- > 0;) {
    v.dst.strides[k] = dense;
    dense *= v.shape[k];
  }
  return ACL_SUCCESS;
}

aclError PlanDimLast(OpContext& ctx, int64_t dim, bool keepDims, DimLast* plan) {
  const int64_t rank = static_cast<int64_t>(ctx.inputs[0].shape().size());
  const int64_t span = rank == 0 ? 1 : rank;
  if (dim < -span || dim >= span) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "dimension %lld is out of range for a %lld-D x",
                    static_cast<long long>(dim), static_cast<long long>(rank));
  }
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  if (rank > 0) reduced[static_cast<size_t>(dim < 0 ? dim + rank : dim)] = true;
  return PlanReducedLast(ctx, reduced, keepDims, plan);
}

aclError CopyDimLast(OpContext& ctx, const DimLast& plan, const OpOperand& x, aclDataType compute, void** dense) {
  aclError rc = ctx.AllocTemp(plan.rows * plan.cols * DataTypeSize(compute), dense);
  if (rc != ACL_SUCCESS) return rc;
  kernels::ViewCopyArgs v = plan.view;
  v.src.data = x.data;
  v.src.dtype = x.dtype();
  v.dst.data = *dense;
  v.dst.dtype = compute;
  return kernels::LaunchViewCopy(v, ctx.stream());
}

aclError PlanAttrDims(OpContext& ctx, const std::vector<int64_t>& dims, bool emptyIsAll, bool keepDims,
                      DimLast* plan) {
  const int64_t rank = static_cast<int64_t>(ctx.inputs[0].shape().size());
  std::vector<bool> reduced(static_cast<size_t>(rank), emptyIsAll && dims.empty());
  for (const int64_t d : dims) {
    const int64_t wrapped = d < 0 ? d + rank : d;
    if (wrapped < 0 || wrapped >= rank || reduced[static_cast<size_t>(wrapped)]) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "dimension %lld is out of range for a %lld-D x or named twice",
                      static_cast<long long>(d), static_cast<long long>(rank));
    }
    reduced[static_cast<size_t>(wrapped)] = true;
  }
  aclError rc = PlanReducedLast(ctx, reduced, keepDims, plan);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  if (y.shape() != plan->expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(plan->expected).c_str());
  }
  return ACL_SUCCESS;
}

}  // namespace aclop
}  // namespace ascendc_sim
