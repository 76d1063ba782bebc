#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/PointwiseUtils.h"

#include <cstdint>
#include <limits>

#include <ATen/Dispatch.h>
#include <ATen/native/TypeProperties.h>

#include "npu/op_common/OpPreparation.h"
#include "npu/version.h"
#include "op_plugin/utils/RearrangeUtils.h"

// torch >= 2.15: CPU's linspace of float16 and bfloat16 computes in float and rounds once.
#define NPU_LINSPACE_16BIT_IN_FLOAT VERSION_BETWEEN(V2R15, VERSION_NEWEST)

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

void check_fill_value(const at::Tensor& self, const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
              " dimensions.");
  TORCH_CHECK(!self.is_complex(), "fill_: complex tensors are not supported on npu");
}

void eye_check_resize(int64_t n, int64_t m, at::Tensor& out) {
  TORCH_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  TORCH_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  check_not_complex("eye", out);
  if (!out.sizes().equals({n, m})) {
    out.resize_({n, m});
  }
}

void linspace_check_resize(const char* op, int64_t steps, at::Tensor& out) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  TORCH_CHECK(out.scalar_type() != at::kBool && !out.is_complex(), op, ": out of dtype ", out.scalar_type(),
              " is not supported on npu");
  if (!out.sizes().equals({steps})) out.resize_({steps});
}

bool linspace_in_float(at::ScalarType dtype) {
  return NPU_LINSPACE_16BIT_IN_FLOAT && (dtype == at::kHalf || dtype == at::kBFloat16);
}

at::Scalar linspace_bound(const at::Scalar& bound, at::ScalarType dtype) {
  return AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, dtype, "linspace", [&] {
    return at::Scalar(static_cast<double>(bound.to<scalar_t>()));
  });
}

void check_logspace_bounds(const at::Scalar& start, const at::Scalar& end, int64_t steps, at::ScalarType dtype) {
  if (steps < 2) return;
  AT_DISPATCH_ALL_TYPES_AND2(at::kHalf, at::kBFloat16, dtype, "logspace", [&] {
    (void)start.to<scalar_t>();
    (void)end.to<scalar_t>();
  });
}

void check_complex_parts(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out) {
  TORCH_CHECK((a.scalar_type() == at::kFloat || a.scalar_type() == at::kDouble || a.scalar_type() == at::kHalf) &&
                  (b.scalar_type() == at::kFloat || b.scalar_type() == at::kDouble ||
                   b.scalar_type() == at::kHalf),
              "Expected both inputs to be Half, Float or Double tensors but got ", a.scalar_type(), " and ",
              b.scalar_type());
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "Expected object of scalar type ", a.scalar_type(),
              " but got scalar type ", b.scalar_type(), " for second argument");
  TORCH_CHECK(out.scalar_type() == c10::toComplexType(a.scalar_type()), "Expected object of scalar type ",
              c10::toComplexType(a.scalar_type()), " but got scalar type ", out.scalar_type(),
              " for argument 'out'");
  TORCH_CHECK(a.scalar_type() != at::kHalf, "complex: Half parts are not supported on npu");
}

}  // namespace op_plugin::utils
