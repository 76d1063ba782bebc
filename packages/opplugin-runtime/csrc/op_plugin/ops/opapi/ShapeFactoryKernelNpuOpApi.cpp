// flip and roll (aclnnFlip, aclnnRoll: view-copies of the input through reversed
// strides or shifted blocks), eye.out / eye.m_out (aclnnEye) and linspace.out /
// logspace.out (aclnnLinspace / aclnnLogSpace) on the op_api path, with CPU's checks
// and resizing. flip.out and roll.out are composite over these; torch.eye, linspace
// and logspace (the factories) are composite over the out= kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/eye.h"
#include "op_plugin/ops/flip.h"
#include "op_plugin/ops/linspace.h"
#include "op_plugin/ops/logspace.h"
#include "op_plugin/ops/roll.h"
#include "op_plugin/utils/PointwiseUtils.h"
#include "op_plugin/utils/RearrangeUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

}  // namespace

at::Tensor flip(const at::Tensor& self, at::IntArrayRef dims) {
  op_plugin::utils::check_flip_dims(self, dims);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnFlip, self, dims, out);
  return out;
}

at::Tensor roll(const at::Tensor& self, at::IntArrayRef shifts, at::IntArrayRef dims) {
  op_plugin::utils::check_roll_args(self, shifts, dims);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnRoll, self, shifts, dims, out);
  return out;
}

at::Tensor& eye_out(int64_t n, int64_t m, at::Tensor& out) {
  op_plugin::utils::eye_check_resize(n, m, out);
  c10_npu::NPUGuard guard(out.device());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnEye, n, m, out);
  return out;
}

at::Tensor& eye_out(int64_t n, at::Tensor& out) { return op_api::eye_out(n, n, out); }

at::Tensor& linspace_out(const at::Scalar& start, const at::Scalar& end, int64_t steps, at::Tensor& out) {
  op_plugin::utils::linspace_check_resize("linspace", steps, out);
  c10_npu::NPUGuard guard(out.device());
  const at::ScalarType dtype = out.scalar_type();
  if (steps > 0 && op_plugin::utils::linspace_in_float(dtype)) {
    at::Tensor values = OpPreparation::apply_tensor_without_format({steps}, out.options().dtype(at::kFloat));
    op_api::linspace_out(op_plugin::utils::linspace_bound(start, dtype), op_plugin::utils::linspace_bound(end, dtype),
                         steps, values);
    out.copy_(values);
    return out;
  }
  if (steps > 0) EXEC_NPU_CMD(aclnnLinspace, start, end, steps, out);
  return out;
}

at::Tensor& logspace_out(const at::Scalar& start, const at::Scalar& end, int64_t steps, double base,
                         at::Tensor& out) {
  op_plugin::utils::linspace_check_resize("logspace", steps, out);
  op_plugin::utils::check_logspace_bounds(start, end, steps, out.scalar_type());
  c10_npu::NPUGuard guard(out.device());
  if (steps > 0) EXEC_NPU_CMD(aclnnLogSpace, start, end, steps, base, out);
  return out;
}

}  // namespace op_api
