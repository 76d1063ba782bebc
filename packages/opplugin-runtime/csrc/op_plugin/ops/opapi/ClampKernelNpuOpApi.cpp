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

namespace op_api {
namespace {

at::ScalarType clamp_result_type(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                                 const c10::optional<at::Scalar>& max) {
  TORCH_CHECK(!self.is_complex(), "clamp is not supported for complex types");
  TORCH_CHECK(min.has_value() || max.has_value(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  if (at::isFloatingType(self.scalar_type())) {
    return self.scalar_type();
  }
  at::native::ResultTypeState state = {};
  state = at::native::update_result_type_state(self, state);
  if (min.has_value()) state = at::native::update_result_type_state(*min, state);
  if (max.has_value()) state = at::native::update_result_type_state(*max, state);
  return at::native::result_type(state);
}

}  // namespace

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
  TORCH_CHECK(result_type == self.scalar_type(), "result type ", result_type,
              " can't be cast to the desired output type ", self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  EXEC_NPU_CMD(aclnnClamp, self, min, max, self);
  return self;
}

}  // namespace op_api

namespace op_api {
namespace {

// The operands' result type and broadcast shape (ATen's clamp.Tensor meta function).
struct ClampTensorPlan {
  at::ScalarType dtype;
  op_infer::SmallVector size;
};

ClampTensorPlan clamp_tensor_plan(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                                  const c10::optional<at::Tensor>& max) {
  const bool has_min = min.has_value() && min->defined();
  const bool has_max = max.has_value() && max->defined();
  TORCH_CHECK(has_min || has_max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  TORCH_CHECK(!self.is_complex(), "clamp is not supported for complex types");
  at::native::ResultTypeState state = {};
  state = at::native::update_result_type_state(self, state);
  op_infer::SmallVector size(self.sizes().begin(), self.sizes().end());
  for (const at::Tensor* bound : {has_min ? &*min : nullptr, has_max ? &*max : nullptr}) {
    if (bound == nullptr) continue;
    state = at::native::update_result_type_state(*bound, state);
    size = op_infer::broadcast_ops_npu_output_size(size, bound->sizes());
  }
  return {at::native::result_type(state), size};
}

}  // namespace

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
  TORCH_CHECK(c10::canCast(plan.dtype, self.scalar_type()), "result type ", plan.dtype,
              " can't be cast to the desired output type ", self.scalar_type());
  TORCH_CHECK(c10::IntArrayRef(plan.size) == self.sizes(), "output with shape ", self.sizes(),
              " doesn't match the broadcast shape ", c10::IntArrayRef(plan.size));
  c10_npu::NPUGuard guard(self.device());
  EXEC_NPU_CMD(aclnnClampTensor, self, min, max, self);
  return self;
}

}  // namespace op_api
