#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/PointwiseUtils.h"

#include <cstdint>
#include <limits>

#include <ATen/native/TypeProperties.h>

#include "npu/op_common/OpPreparation.h"

namespace op_plugin::utils {

c10::Scalar upper_bound(at::ScalarType dtype) {
  if (at::isFloatingType(dtype)) {
    return std::numeric_limits<double>::infinity();
  }
  switch (dtype) {
    case at::kByte: return static_cast<int64_t>(std::numeric_limits<uint8_t>::max());
    case at::kChar: return static_cast<int64_t>(std::numeric_limits<int8_t>::max());
    case at::kShort: return static_cast<int64_t>(std::numeric_limits<int16_t>::max());
    case at::kInt: return static_cast<int64_t>(std::numeric_limits<int32_t>::max());
    default: return std::numeric_limits<int64_t>::max();
  }
}

c10::Scalar lower_bound(at::ScalarType dtype) {
  if (at::isFloatingType(dtype)) {
    return -std::numeric_limits<double>::infinity();
  }
  switch (dtype) {
    case at::kByte: return static_cast<int64_t>(0);
    case at::kChar: return static_cast<int64_t>(std::numeric_limits<int8_t>::min());
    case at::kShort: return static_cast<int64_t>(std::numeric_limits<int16_t>::min());
    case at::kInt: return static_cast<int64_t>(std::numeric_limits<int32_t>::min());
    default: return std::numeric_limits<int64_t>::min();
  }
}

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

void check_clamp_inplace(const at::Tensor& self, at::ScalarType result_type) {
  TORCH_CHECK(result_type == self.scalar_type(), "result type ", result_type,
              " can't be cast to the desired output type ", self.scalar_type());
}

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

void check_clamp_tensor_inplace(const at::Tensor& self, const ClampTensorPlan& plan) {
  TORCH_CHECK(c10::canCast(plan.dtype, self.scalar_type()), "result type ", plan.dtype,
              " can't be cast to the desired output type ", self.scalar_type());
  TORCH_CHECK(c10::IntArrayRef(plan.size) == self.sizes(), "output with shape ", self.sizes(),
              " doesn't match the broadcast shape ", c10::IntArrayRef(plan.size));
}

void check_logical_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  const auto size = op_infer::broadcast_ops_npu_output_size(self, other);
  if (out.is_same(self) || out.is_same(other)) {
    TORCH_CHECK(out.sizes() == c10::IntArrayRef(size), "output with shape ", out.sizes(),
                " doesn't match the broadcast shape ", c10::IntArrayRef(size));
  }
  at_npu::native::OpPreparation::check_tensor({self, other}, out, at::kBool, size);
}

}  // namespace op_plugin::utils
