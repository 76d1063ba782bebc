// acl_op selections from sorted rows (declared in abi/aclop/sort_select.decl): TopKV2 on the sort
// kernel (sort_custom). x is cast to the kernel's compute type as rows of its last dimension; the
// int64 indices and compute-type values are cast to the outputs.
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "kernels/reduce_dim_api.h"

namespace ascendc_sim {
namespace aclop {

aclError RunTopKV2(OpContext& ctx, const TopKV2Attrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& values = ctx.outputs[0];
  const OpOperand& indices = ctx.outputs[1];
  const std::vector<int64_t>& shape = x.shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (rank == 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x must have at least one dimension");
  if (attrs.dim != -1 && attrs.dim != rank - 1) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "dim %lld: only the last dimension is supported",
                    static_cast<long long>(attrs.dim));
  }
  std::vector<int64_t> k;
  aclError rc = ConstantInts(ctx, 1, "k", &k);
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t cols = static_cast<uint64_t>(shape.back());
  if (k.size() != 1 || k[0] < 0 || static_cast<uint64_t>(k[0]) > cols) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input k must hold one value in [0, %llu]",
                    static_cast<unsigned long long>(cols));
  }
  std::vector<int64_t> expected = shape;
  expected.back() = k[0];
  for (const OpOperand* out : {&values, &indices}) {
    if (out->shape() != expected) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output of shape %s, expected %s", ShapeToString(out->shape()).c_str(),
                      ShapeToString(expected).c_str());
    }
  }
  const uint64_t n = static_cast<uint64_t>(x.Numel());
  const uint64_t selected = static_cast<uint64_t>(values.Numel());
  if (selected == 0) return ACL_SUCCESS;
  const aclDataType compute = kernels::DimReduceComputeType(x.dtype());
  void* dense = nullptr;
  void* picked = nullptr;
  void* index = nullptr;
  rc = ctx.AllocTemp(n * DataTypeSize(compute), &dense);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(selected * DataTypeSize(compute), &picked);
  if (rc == ACL_SUCCESS) rc = ctx.AllocTemp(selected * sizeof(int64_t), &index);
  if (rc == ACL_SUCCESS) rc = kernels::LaunchCast(x.dtype(), x.data, compute, dense, n, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  kernels::SortArgs args;
  args.select = kernels::SortSelect::kTopk;
  args.dtype = compute;
  args.x = dense;
  args.values = picked;
  args.indices = index;
  args.rows = n / cols;
  args.cols = cols;
  args.k = static_cast<uint64_t>(k[0]);
  args.descending = attrs.largest;
  if ((rc = kernels::LaunchSort(args, ctx.stream())) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchCast(compute, picked, values.dtype(), values.data, selected, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return kernels::LaunchCast(ACL_INT64, index, indices.dtype(), indices.data, selected, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
