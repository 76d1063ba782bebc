// eye.out / eye.m_out on the acl_op path: "Eye" (num_rows, num_columns and the data type as attributes)
// writes the identity; a bool out is written as int32 first (Eye takes no bool). Checks and resizing are
// the op_api kernel's (op_plugin/utils/PointwiseUtils.h).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/eye.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/PointwiseUtils.h"

namespace acl_op {

at::Tensor& eye_out(int64_t n, int64_t m, at::Tensor& out) {
  op_plugin::utils::eye_check_resize(n, m, out);
  c10_npu::NPUGuard guard(out.device());
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    const bool as_int = result.scalar_type() == at::kBool;
    at::Tensor eye = as_int ? at_npu::native::OpPreparation::apply_tensor_without_format(
                                  result.sizes(), result.options().dtype(at::kInt))
                            : result;
    at_npu::native::OpCommand cmd;
    cmd.Name("Eye").Output(eye).Attr("num_rows", n).Attr("num_columns", m).Attr("dtype", eye.scalar_type()).Run();
    if (as_int) {
      result.copy_(eye);
    }
  });
}

at::Tensor& eye_out(int64_t n, at::Tensor& out) { return acl_op::eye_out(n, n, out); }

}  // namespace acl_op
