// acl_op type MatMulV2: y = op(x1) @ op(x2), op = transpose when the bool
// attribute transpose_x1 / transpose_x2 is set (default false); 2-D, float32,
// float16, bfloat16, base formats. Transposed operands are first made dense by
// the view_copy kernel; the product runs on the cube kernel matmul_custom.
#include "aclop/op_registry.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

constexpr std::initializer_list<aclDataType> kMatmulTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// `data` ([cols, rows] dense) transposed into a dense [rows, cols] temporary.
aclError Transposed(OpContext& ctx, aclDataType dtype, void* data, int64_t rows, int64_t cols, void** out) {
  aclError rc = ctx.AllocTemp(static_cast<size_t>(rows * cols) * DataTypeSize(dtype), out);
  if (rc != ACL_SUCCESS || rows * cols == 0) return rc;
  kernels::ViewCopyArgs args;
  args.ndim = 2;
  args.shape[0] = rows;
  args.shape[1] = cols;
  args.src.data = data;
  args.src.dtype = dtype;
  args.src.strides[0] = 1;
  args.src.strides[1] = rows;
  args.dst.data = *out;
  args.dst.dtype = dtype;
  args.dst.strides[0] = cols;
  args.dst.strides[1] = 1;
  return kernels::LaunchViewCopy(args, ctx.stream());
}

aclError RunMatMulV2(OpContext& ctx) {
  const OpOperand& x1 = ctx.inputs[0];
  const OpOperand& x2 = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireDtypeIn(x1, "input x1", kMatmulTypes);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameDtype(x1, "input x1", x2, "input x2");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameDtype(x1, "input x1", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  bool t1 = false, t2 = false;
  if ((rc = ctx.GetOptionalBoolAttr("transpose_x1", false, &t1)) != ACL_SUCCESS) return rc;
  if ((rc = ctx.GetOptionalBoolAttr("transpose_x2", false, &t2)) != ACL_SUCCESS) return rc;
  if (x1.shape().size() != 2 || x2.shape().size() != 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "inputs x1 %s and x2 %s must be 2-D", ShapeToString(x1.shape()).c_str(),
                    ShapeToString(x2.shape()).c_str());
  }
  const int64_t m = t1 ? x1.shape()[1] : x1.shape()[0];
  const int64_t k = t1 ? x1.shape()[0] : x1.shape()[1];
  const int64_t k2 = t2 ? x2.shape()[1] : x2.shape()[0];
  const int64_t n = t2 ? x2.shape()[0] : x2.shape()[1];
  if (k != k2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM,
                    "x1 %s (transpose_x1=%d) and x2 %s (transpose_x2=%d) have different reduction sizes %lld and %lld",
                    ShapeToString(x1.shape()).c_str(), t1 ? 1 : 0, ShapeToString(x2.shape()).c_str(), t2 ? 1 : 0,
                    static_cast<long long>(k), static_cast<long long>(k2));
  }
  if (y.shape() != std::vector<int64_t>{m, n}) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected [%lld, %lld]",
                    ShapeToString(y.shape()).c_str(), static_cast<long long>(m), static_cast<long long>(n));
  }
  if (m * n == 0) return ACL_SUCCESS;
  void* a = x1.data;
  void* b = x2.data;
  if (t1 && (rc = Transposed(ctx, x1.dtype(), x1.data, m, k, &a)) != ACL_SUCCESS) return rc;
  if (t2 && (rc = Transposed(ctx, x2.dtype(), x2.data, k, n, &b)) != ACL_SUCCESS) return rc;
  kernels::MatmulArgs args;
  args.dtype = y.dtype();
  args.m = m;
  args.n = n;
  args.k = k;
  args.a = a;
  args.b = b;
  args.c = y.data;
  return kernels::LaunchMatmul(args, ctx.stream());
}

const OpRegistrar kRegistrar{
    {"MatMulV2", 2, 1, FormatPolicy::kBaseOnly, &RunMatMulV2},
};

}  // namespace
}  // namespace aclop
}  // namespace ascendc_sim
