#include "npu/op_infer/InferDtype.h"

#include <ATen/native/TypeProperties.h>
#include <c10/core/DefaultDtype.h>
#include <c10/util/Exception.h>

#include "npu/core/CustomDType.h"

namespace op_infer {

at::ScalarType abs_out_dtype(const at::Tensor& self) {
  return at::isComplexType(self.scalar_type()) ? c10::toRealValueType(self.scalar_type()) : self.scalar_type();
}

at::ScalarType angle_out_dtype(const at::Tensor& self) {
  const at::ScalarType dtype = self.scalar_type();
  if (at::isComplexType(dtype)) {
    return c10::toRealValueType(dtype);
  }
  if (at::isIntegralType(dtype, /*includeBool=*/true)) {
    return c10::typeMetaToScalarType(c10::get_default_dtype());
  }
  return dtype;
}

at::ScalarType polar_out_dtype(const at::Tensor& abs, const at::Tensor& angle) {
  // The inputs ATen's polar accepts: both Half, Float or Double, and the same.
  const at::ScalarType abs_dtype = abs.scalar_type();
  const at::ScalarType angle_dtype = angle.scalar_type();
  auto has_complex = [](at::ScalarType t) { return t == at::kHalf || t == at::kFloat || t == at::kDouble; };
  TORCH_CHECK(has_complex(abs_dtype) && has_complex(angle_dtype),
              "polar: abs and angle must be Half, Float or Double tensors, but got ", abs_dtype, " and ",
              angle_dtype);
  TORCH_CHECK(abs_dtype == angle_dtype, "polar: abs and angle must have the same dtype, but got ", abs_dtype,
              " and ", angle_dtype);
  return c10::toComplexType(abs_dtype);
}

namespace {

// clamp's dtype from the promotion state of self and its bounds: complex is refused, as by ATen.
at::ScalarType ClampDtype(const at::native::ResultTypeState& state) {
  const at::ScalarType dtype = at::native::result_type(state);
  TORCH_CHECK(!at::isComplexType(dtype), "clamp: complex dtypes are not supported, but self and min/max promote to ",
              dtype);
  return dtype;
}

}  // namespace

at::ScalarType clamp_out_dtype(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                               const c10::optional<at::Tensor>& max) {
  const bool has_min = min.has_value() && min->defined();
  const bool has_max = max.has_value() && max->defined();
  TORCH_CHECK(has_min || has_max, "clamp: at least one of min and max must be given");
  at::native::ResultTypeState state = {};
  state = at::native::update_result_type_state(self, state);
  if (has_min) {
    state = at::native::update_result_type_state(*min, state);
  }
  if (has_max) {
    state = at::native::update_result_type_state(*max, state);
  }
  return ClampDtype(state);
}

at::ScalarType clamp_scalar_out_dtype(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                                      const c10::optional<at::Scalar>& max) {
  TORCH_CHECK(min.has_value() || max.has_value(), "clamp: at least one of min and max must be given");
  at::native::ResultTypeState state = {};
  state = at::native::update_result_type_state(self, state);
  if (min.has_value()) {
    state = at::native::update_result_type_state(*min, state);
  }
  if (max.has_value()) {
    state = at::native::update_result_type_state(*max, state);
  }
  return ClampDtype(state);
}

at::ScalarType npu_group_norm_silu_dst_type(const at::Tensor& input, const c10::optional<at::Tensor>& weight,
                                            const c10::optional<at::Tensor>& bias) {
  // Upstream lets weight (else bias) take part from Ascend950 on; the simulated SoC is an
  // Ascend910B, where the output has input's dtype.
  (void)weight;
  (void)bias;
  return input.scalar_type();
}

at::ScalarType npu_group_quant_dst_type(c10::optional<at::ScalarType> dst_dtype) {
  const at::ScalarType dtype = dst_dtype.value_or(at::kChar);
  TORCH_CHECK(dtype == at::kChar || dtype == at::kQInt8 || dtype == at::kQUInt4x2,
              "npu_group_quant: dst_dtype must be torch.int8, torch.qint8 or torch.quint4x2, but got ", dtype);
  // int4 results are packed eight to an int32.
  return dtype == at::kQUInt4x2 ? at::kInt : at::kChar;
}

at::ScalarType npu_moe_distribute_dispatch_setup_out_dtype(c10::optional<int64_t> y_dtype) {
  TORCH_CHECK(y_dtype.has_value(),
              "npu_moe_distribute_dispatch_setup: y_dtype must be given to derive the dtype of y from it");
  // torch_npu's dtype codes: a ScalarType's value, or 256 + CANN's aclDataType (c10_npu::DType).
  const int64_t code = *y_dtype;
  const bool known =
      c10_npu::IsCustomDType(code) || (code >= 0 && code < static_cast<int64_t>(at::ScalarType::NumOptions));
  TORCH_CHECK(known, "npu_moe_distribute_dispatch_setup: y_dtype ", code,
              " is neither a torch dtype nor a torch_npu dtype (256 + ACL data type)");
  try {
    return c10_npu::GetATenDType(code);
  } catch (const c10::Error& error) {
    TORCH_CHECK(false, "npu_moe_distribute_dispatch_setup: y_dtype ", code, ": ", error.what_without_backtrace());
  }
}

}  // namespace op_infer
