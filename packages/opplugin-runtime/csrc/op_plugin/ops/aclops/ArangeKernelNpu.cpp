// arange.start_out on the acl_op path ("Range" of constant start, limit and delta: double for a floating
// out, int64 for an integral one, so the values are the op_api kernel's). Size, checks and the resize
// are op_plugin::utils::arange_resize_out's, shared with the op_api kernel.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/arange.h"
#include "op_plugin/utils/ArangeUtils.h"

namespace acl_op {

at::Tensor& arange_out(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::Tensor& out) {
  const int64_t size = op_plugin::utils::arange_resize_out(start, end, step, out);
  c10_npu::NPUGuard guard(out.device());
  if (size == 0) {
    return out;
  }
  const at::ScalarType constants = at::isFloatingType(out.scalar_type()) ? at::kDouble : at::kLong;
  at::Tensor result = out;
  const bool direct = at_npu::native::FormatHelper::IsOpInputBaseFormat(out);
  if (!direct) {
    result = at_npu::native::OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
  }
  at_npu::native::OpCommand cmd;
  cmd.Name("Range").Input(start, constants).Input(end, constants).Input(step, constants).Output(result).Run();
  if (!direct) {
    out.copy_(result);
  }
  return out;
}

}  // namespace acl_op
