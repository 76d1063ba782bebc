// arange.start_out on the op_api path (aclnnArange). torch.arange (the factory)
// is composite: empty + this kernel. Size, checks and the resize follow CPU's
// arange_out (op_plugin::utils::arange_resize_out, shared with the acl_op kernel).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/arange.h"
#include "op_plugin/utils/ArangeUtils.h"

namespace op_api {

at::Tensor& arange_out(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::Tensor& out) {
  const int64_t size = op_plugin::utils::arange_resize_out(start, end, step, out);
  c10_npu::NPUGuard guard(out.device());
  if (size > 0) EXEC_NPU_CMD(aclnnArange, start, end, step, out);
  return out;
}

}  // namespace op_api
