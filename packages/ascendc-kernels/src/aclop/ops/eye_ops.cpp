// acl_op identity matrices (declared in abi/aclop/eye.decl): Eye fills y with zeros, then copies a run of
// ones onto the diagonal (a view of y with stride num_columns + 1).
#include <algorithm>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

aclError RunEye(OpContext& ctx, const EyeAttrs& attrs) {
  const OpOperand& y = ctx.outputs[0];
  if (!attrs.batch_shape.empty()) return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "a batch_shape is not supported");
  const int64_t rows = attrs.num_rows;
  const int64_t cols = attrs.num_columns < 0 ? rows : attrs.num_columns;
  if (rows < 0) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "num_rows %lld is negative", static_cast<long long>(rows));
  if (y.dtype() != attrs.dtype) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has data type %s, attribute dtype says %s",
                    DataTypeName(y.dtype()), DataTypeName(attrs.dtype));
  }
  const std::vector<int64_t> expected = {rows, cols};
  if (y.shape() != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected %s", ShapeToString(y.shape()).c_str(),
                    ShapeToString(expected).c_str());
  }
  const uint64_t n = static_cast<uint64_t>(rows * cols);
  if (n == 0) return ACL_SUCCESS;
  aclError rc = kernels::LaunchFill(y.dtype(), y.data, n, kernels::ScalarValue::Integral(0), ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t diagonal = static_cast<uint64_t>(std::min(rows, cols));
  void* ones = nullptr;
  if ((rc = ctx.AllocTemp(diagonal * DataTypeSize(y.dtype()), &ones)) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchFill(y.dtype(), ones, diagonal, kernels::ScalarValue::Integral(1), ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  kernels::ViewCopyArgs v;
  v.ndim = 1;
  v.shape[0] = static_cast<int64_t>(diagonal);
  v.src.data = ones;
  v.src.dtype = y.dtype();
  v.src.strides[0] = 1;
  v.dst.data = y.data;
  v.dst.dtype = y.dtype();
  v.dst.strides[0] = cols + 1;
  return kernels::LaunchViewCopy(v, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
