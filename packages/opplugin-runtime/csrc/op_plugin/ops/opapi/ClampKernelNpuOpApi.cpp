// clamp with scalar bounds on the op_api path (aclnnClamp), with ATen's checks and type promotion:
// the bounds take part in it as Python numbers do (an integral self with a floating bound gives
// float32), and in-place clamping must keep self's dtype. The tensor-bound overloads and clamp_max
// are generated from their gen_opapi blocks in yaml/op_plugin_functions.yaml.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/native/TypeProperties.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/clamp.h"
#include "op_plugin/utils/PointwiseUtils.h"

namespace op_api {

using op_plugin::utils::clamp_result_type;
using op_plugin::utils::clamp_tensor_plan;
using op_plugin::utils::ClampTensorPlan;

at::Tensor& clamp_out(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                      const c10::optional<at::Scalar>& max, at::Tensor& out) {
  const at::ScalarType result_type = clamp_result_type(self, min, max);
  c10_npu::NPUGuard guard(self.device());
  at_npu::native::OpPreparation::check_tensor({self}, out, result_type, self.sizes());
  EXEC_NPU_CMD(aclnnClamp, self, min, max, out);
  return out;
}

at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Scalar>& min, const c10::optional<at::Scalar>& max) {
  const at::ScalarType result_type = clamp_result_type(self, min, max);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(
      self.sizes(), self.options().dtype(result_type));
  EXEC_NPU_CMD(aclnnClamp, self, min, max, out);
  return out;
}

at::Tensor& clamp_(at::Tensor& self, const c10::optional<at::Scalar>& min, const c10::optional<at::Scalar>& max) {
  const at::ScalarType result_type = clamp_result_type(self, min, max);
  op_plugin::utils::check_clamp_inplace(self, result_type);
  c10_npu::NPUGuard guard(self.device());
  EXEC_NPU_CMD(aclnnClamp, self, min, max, self);
  return self;
}

at::Tensor& clamp_out(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                      const c10::optional<at::Tensor>& max, at::Tensor& out) {
  const ClampTensorPlan plan = clamp_tensor_plan(self, min, max);
  c10_npu::NPUGuard guard(self.device());
  at_npu::native::OpPreparation::check_tensor({self}, out, plan.dtype, plan.size);
  EXEC_NPU_CMD(aclnnClampTensor, self, min, max, out);
  return out;
}

at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Tensor>& min, const c10::optional<at::Tensor>& max) {
  const ClampTensorPlan plan = clamp_tensor_plan(self, min, max);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out =
      at_npu::native::OpPreparation::apply_tensor_without_format(plan.size, self.options().dtype(plan.dtype));
  EXEC_NPU_CMD(aclnnClampTensor, self, min, max, out);
  return out;
}

at::Tensor& clamp_(at::Tensor& self, const c10::optional<at::Tensor>& min, const c10::optional<at::Tensor>& max) {
  const ClampTensorPlan plan = clamp_tensor_plan(self, min, max);
  op_plugin::utils::check_clamp_tensor_inplace(self, plan);
  c10_npu::NPUGuard guard(self.device());
  EXEC_NPU_CMD(aclnnClampTensor, self, min, max, self);
  return self;
}

}  // namespace op_api
