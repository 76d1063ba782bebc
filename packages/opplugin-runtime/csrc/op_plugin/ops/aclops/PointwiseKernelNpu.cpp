// Binary pointwise ops on the acl_op path, one PointwiseOp row per op type: atan2 ("Atan2"),
// logaddexp/logaddexp2 ("LogAddExp" of base e / 2), xlogy ("Xlogy"), fmod ("Mod"), remainder
// ("FloorMod"), floor_divide and div's floor mode ("FloorDiv"), pow ("Pow"), bitwise_and/or/xor
// ("BitwiseAnd", "BitwiseOr", "BitwiseXor"; on bool "LogicalAnd", "LogicalOr", "NotEqual"), the
// shifts ("LeftShift", "RightShift"); besides: div's trunc mode ("RealDiv" then "Trunc"),
// logical_and/or/xor ("LogicalAnd", "LogicalOr", "NotEqual" on bool operands), clamp and clamp_max
// ("ClipByValueV2", an absent bound being the dtype's extreme; on bool "Maximum" and "Minimum"),
// rsub (sub's "Sub"/"Axpy" with the operands swapped), fill_ with a tensor value ("Fill"),
// linspace ("LinSpace"), logspace ("LogSpaceD", see logspace_out), and gcd, complex, polar on the host, as
// upstream's acl_op kernels run them.
// Most are the out= kernels of structured groups: PyTorch's meta function has checked and sized `out`.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <functional>
#include <vector>

#include <ATen/core/Tensor.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/complex.h>
#include <ATen/ops/logspace.h>
#include <ATen/ops/gcd.h>
#include <ATen/ops/polar.h>
#include <ATen/ops/result_type.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "op_plugin/ops/__lshift__.h"
#include "op_plugin/ops/__rshift__.h"
#include "op_plugin/ops/atan2.h"
#include "op_plugin/ops/bitwise_and.h"
#include "op_plugin/ops/bitwise_or.h"
#include "op_plugin/ops/bitwise_xor.h"
#include "op_plugin/ops/clamp.h"
#include "op_plugin/ops/clamp_max.h"
#include "op_plugin/ops/complex.h"
#include "op_plugin/ops/div.h"
#include "op_plugin/ops/fill.h"
#include "op_plugin/ops/floor_divide.h"
#include "op_plugin/ops/fmod.h"
#include "op_plugin/ops/gcd.h"
#include "op_plugin/ops/linspace.h"
#include "op_plugin/ops/logspace.h"
#include "op_plugin/ops/logaddexp.h"
#include "op_plugin/ops/logaddexp2.h"
#include "op_plugin/ops/logical_and.h"
#include "op_plugin/ops/logical_or.h"
#include "op_plugin/ops/logical_xor.h"
#include "op_plugin/ops/polar.h"
#include "op_plugin/ops/pow.h"
#include "op_plugin/ops/remainder.h"
#include "op_plugin/ops/rsub.h"
#include "op_plugin/ops/sub.h"
#include "op_plugin/ops/xlogy.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/BinaryOpUtils.h"
#include "op_plugin/utils/PointwiseUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::elementwise_acl_op_out;
using op_plugin::utils::scalar_operand;

// Which dtype an op computes in: the operands' common dtype, or for the floating-only ops that
// common dtype promoted to the default float dtype when it is integral or bool (as ATen does).
enum class Compute { kCommon, kFloating };

struct PointwiseOp {
  const char* name;      // the ATen op, for device messages
  const char* type;      // the acl_op type
  const char* bool_type;  // the type run on bool operands (nullptr: `type`)
  Compute compute;
  void (*attrs)(OpCommand&);  // the type's attributes (nullptr: none)
};

void log_add_exp_attrs(OpCommand& cmd) { cmd.Attr("base", -1.0f).Attr("scale", 1.0f).Attr("shift", 0.0f); }
void log_add_exp2_attrs(OpCommand& cmd) { cmd.Attr("base", 2.0f).Attr("scale", 1.0f).Attr("shift", 0.0f); }

constexpr PointwiseOp kAtan2{"atan2", "Atan2", nullptr, Compute::kFloating, nullptr};
constexpr PointwiseOp kLogAddExp{"logaddexp", "LogAddExp", nullptr, Compute::kFloating, log_add_exp_attrs};
constexpr PointwiseOp kLogAddExp2{"logaddexp2", "LogAddExp", nullptr, Compute::kFloating, log_add_exp2_attrs};
constexpr PointwiseOp kXlogy{"xlogy", "Xlogy", nullptr, Compute::kFloating, nullptr};
constexpr PointwiseOp kFmod{"fmod", "Mod", nullptr, Compute::kCommon, nullptr};
constexpr PointwiseOp kRemainder{"remainder", "FloorMod", nullptr, Compute::kCommon, nullptr};
constexpr PointwiseOp kFloorDivide{"floor_divide", "FloorDiv", nullptr, Compute::kCommon, nullptr};
constexpr PointwiseOp kPow{"pow", "Pow", nullptr, Compute::kCommon, nullptr};
constexpr PointwiseOp kBitwiseAnd{"bitwise_and", "BitwiseAnd", "LogicalAnd", Compute::kCommon, nullptr};
constexpr PointwiseOp kBitwiseOr{"bitwise_or", "BitwiseOr", "LogicalOr", Compute::kCommon, nullptr};
constexpr PointwiseOp kBitwiseXor{"bitwise_xor", "BitwiseXor", "NotEqual", Compute::kCommon, nullptr};
constexpr PointwiseOp kLeftShift{"__lshift__", "LeftShift", nullptr, Compute::kCommon, nullptr};
constexpr PointwiseOp kRightShift{"__rshift__", "RightShift", nullptr, Compute::kCommon, nullptr};

at::ScalarType compute_dtype(const PointwiseOp& op, at::ScalarType common) {
  if (op.compute == Compute::kFloating && !at::isFloatingType(common)) {
    return c10::typeMetaToScalarType(at::get_default_dtype());
  }
  return common;
}

// out <- op(self, other); one of them may be a 0-dim CPU scalar (a host constant).
at::Tensor& pointwise_out(const PointwiseOp& op, const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  c10_npu::NPUGuard guard(op_plugin::utils::binary_op_device(op.name, self, other));
  const at::ScalarType dtype = compute_dtype(op, at::result_type(self, other));
  const char* type = dtype == at::kBool && op.bool_type != nullptr ? op.bool_type : op.type;
  std::function<void(OpCommand&)> attrs = nullptr;
  if (op.attrs != nullptr) {
    attrs = op.attrs;
  }
  return elementwise_acl_op_out(type, {self, other}, dtype, dtype, out, attrs);
}

// op(self, other) in a new result of their broadcast shape and common dtype (ops that are not structured).
at::Tensor pointwise(const PointwiseOp& op, const at::Tensor& self, const at::Tensor& other) {
  const c10::Device device = op_plugin::utils::binary_op_device(op.name, self, other);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      op_infer::broadcast_ops_npu_output_size(self, other),
      at::TensorOptions().device(device).dtype(compute_dtype(op, at::result_type(self, other))));
  return pointwise_out(op, self, other, out);
}

// out <- trunc(self / other): the quotient in self's floating dtype (double for integers, exact
// below 2^53), rounded towards zero and cast to out's dtype.
at::Tensor& div_trunc_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  c10_npu::NPUGuard guard(op_plugin::utils::binary_op_device("div", self, other));
  const at::ScalarType common = at::result_type(self, other);
  const at::ScalarType dtype = at::isFloatingType(common) ? common : at::kDouble;
  at::Tensor quotient = OpPreparation::apply_tensor_without_format(out.sizes(), out.options().dtype(dtype));
  elementwise_acl_op_out("RealDiv", {self, other}, dtype, dtype, quotient);
  return elementwise_acl_op_out("Trunc", {quotient}, dtype, dtype, out);
}

// out <- logical `type` of self and other, both as bool.
at::Tensor& logical_out(const char* type, const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  op_plugin::utils::check_logical_out(self, other, out);
  c10_npu::NPUGuard guard(out.device());
  return elementwise_acl_op_out(type, {self, other}, at::kBool, at::kBool, out);
}

// out <- min(max(self, min), max) in `dtype`; an absent bound is the dtype's extreme.
at::Tensor& clip_out(const at::Tensor& self, const at::Tensor& min, const at::Tensor& max, at::ScalarType dtype,
                     at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  if (dtype == at::kBool) {  // "ClipByValueV2" takes numbers: bool clamps through "Maximum" and "Minimum"
    if (!min.defined()) {
      return elementwise_acl_op_out("Minimum", {self, max}, dtype, dtype, out);
    }
    if (!max.defined()) {
      return elementwise_acl_op_out("Maximum", {self, min}, dtype, dtype, out);
    }
    at::Tensor lower = OpPreparation::apply_tensor_without_format(out.sizes(), out.options().dtype(dtype));
    elementwise_acl_op_out("Maximum", {self, min}, dtype, dtype, lower);
    return elementwise_acl_op_out("Minimum", {lower, max}, dtype, dtype, out);
  }
  const at::Tensor lo = min.defined() ? min : scalar_operand(op_plugin::utils::lower_bound(dtype));
  const at::Tensor hi = max.defined() ? max : scalar_operand(op_plugin::utils::upper_bound(dtype));
  return elementwise_acl_op_out("ClipByValueV2", {self, lo, hi}, dtype, dtype, out);
}

at::Tensor& clip_scalar_out(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                            const c10::optional<at::Scalar>& max, at::ScalarType dtype, at::Tensor& out) {
  return clip_out(self, min.has_value() ? scalar_operand(*min) : at::Tensor(),
                  max.has_value() ? scalar_operand(*max) : at::Tensor(), dtype, out);
}

// self <- the op `type` whose inputs `add_inputs` adds; "Fill" and "LinSpace" write a dense
// base-format result, so another self gets the values through copy_.
at::Tensor& write_dense(at::Tensor& self, const char* type, const std::function<void(OpCommand&)>& add_inputs) {
  const bool dense = self.is_contiguous() && at_npu::native::FormatHelper::IsOpInputBaseFormat(self);
  at::Tensor result = dense ? self : OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  OpCommand cmd;
  cmd.Name(type);
  add_inputs(cmd);
  cmd.Output(result).Run();
  if (!dense) {
    self.copy_(result);
  }
  return self;
}

// self <- value (a 0-dim tensor: a CPU one is a host constant) through "Fill".
at::Tensor& fill_with(at::Tensor& self, const at::Tensor& value) {
  const std::vector<int64_t> dims = self.dim() == 0 ? std::vector<int64_t>{1} : self.sizes().vec();
  return write_dense(self, "Fill", [&](OpCommand& cmd) {
    cmd.Input(dims, at::kLong);
    op_plugin::utils::AddInputAs(cmd, value, self.scalar_type());
  });
}

at::Tensor optional_bound(const c10::optional<at::Tensor>& bound) {
  return bound.has_value() ? *bound : at::Tensor();
}

}  // namespace

at::Tensor& atan2_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kAtan2, self, other, out);
}

at::Tensor& logaddexp_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kLogAddExp, self, other, out);
}

at::Tensor& logaddexp2_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kLogAddExp2, self, other, out);
}

at::Tensor& xlogy_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kXlogy, self, other, out);
}

at::Tensor& fmod_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kFmod, self, other, out);
}

at::Tensor& remainder_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kRemainder, self, other, out);
}

at::Tensor remainder(const at::Scalar& self, const at::Tensor& other) {
  return pointwise(kRemainder, scalar_operand(self), other);
}

at::Tensor& pow_tensor_tensor_out(const at::Tensor& self, const at::Tensor& exponent, at::Tensor& out) {
  return pointwise_out(kPow, self, exponent, out);
}

at::Tensor& pow_scalar_out(const at::Scalar& self, const at::Tensor& exponent, at::Tensor& out) {
  return pointwise_out(kPow, scalar_operand(self), exponent, out);
}

at::Tensor& bitwise_and_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kBitwiseAnd, self, other, out);
}

at::Tensor& bitwise_or_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kBitwiseOr, self, other, out);
}

at::Tensor& bitwise_xor_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return pointwise_out(kBitwiseXor, self, other, out);
}

at::Tensor __lshift__(const at::Tensor& self, const at::Tensor& other) {
  return pointwise(kLeftShift, self, other);
}

at::Tensor __lshift__(const at::Tensor& self, const at::Scalar& other) {
  return pointwise(kLeftShift, self, scalar_operand(other));
}

at::Tensor __rshift__(const at::Tensor& self, const at::Tensor& other) {
  return pointwise(kRightShift, self, other);
}

at::Tensor __rshift__(const at::Tensor& self, const at::Scalar& other) {
  return pointwise(kRightShift, self, scalar_operand(other));
}

at::Tensor floor_divide(const at::Tensor& self, const at::Tensor& other) {
  return pointwise(kFloorDivide, self, other);
}

at::Tensor& floor_divide_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  OpPreparation::check_tensor({self, other}, out, at::result_type(self, other),
                              op_infer::broadcast_ops_npu_output_size(self, other));
  return pointwise_out(kFloorDivide, self, other, out);
}

at::Tensor& floor_divide_(at::Tensor& self, const at::Tensor& other) {
  op_plugin::utils::check_inplace(self, other, at::result_type(self, other));
  return pointwise_out(kFloorDivide, self, other, self);
}

at::Tensor& div_out_mode(const at::Tensor& self, const at::Tensor& other,
                         c10::optional<c10::string_view> rounding_mode, at::Tensor& out) {
  if (!rounding_mode.has_value()) {
    return div_out(self, other, out);
  }
  if (*rounding_mode == "floor") {
    return pointwise_out(kFloorDivide, self, other, out);
  }
  return div_trunc_out(self, other, out);
}

at::Tensor rsub(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const at::ScalarType dtype = at::result_type(self, other);
  op_plugin::utils::alpha_check(dtype, alpha);
  const c10::Device device = op_plugin::utils::binary_op_device("rsub", self, other);
  at::Tensor out = OpPreparation::apply_tensor_without_format(op_infer::broadcast_ops_npu_output_size(self, other),
                                                              at::TensorOptions().device(device).dtype(dtype));
  return sub_out(other, self, alpha, out);  // other - alpha * self
}

at::Tensor& logical_and_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return logical_out("LogicalAnd", self, other, out);
}

at::Tensor& logical_or_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return logical_out("LogicalOr", self, other, out);
}

at::Tensor& logical_xor_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return logical_out("NotEqual", self, other, out);
}

at::Tensor& clamp_out(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                      const c10::optional<at::Scalar>& max, at::Tensor& out) {
  const at::ScalarType dtype = op_plugin::utils::clamp_result_type(self, min, max);
  OpPreparation::check_tensor({self}, out, dtype, self.sizes());
  return clip_scalar_out(self, min, max, dtype, out);
}

at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Scalar>& min, const c10::optional<at::Scalar>& max) {
  const at::ScalarType dtype = op_plugin::utils::clamp_result_type(self, min, max);
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(dtype));
  return clip_scalar_out(self, min, max, dtype, out);
}

at::Tensor& clamp_(at::Tensor& self, const c10::optional<at::Scalar>& min, const c10::optional<at::Scalar>& max) {
  const at::ScalarType dtype = op_plugin::utils::clamp_result_type(self, min, max);
  op_plugin::utils::check_clamp_inplace(self, dtype);
  return clip_scalar_out(self, min, max, dtype, self);
}

at::Tensor& clamp_out(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                      const c10::optional<at::Tensor>& max, at::Tensor& out) {
  const auto plan = op_plugin::utils::clamp_tensor_plan(self, min, max);
  OpPreparation::check_tensor({self}, out, plan.dtype, plan.size);
  return clip_out(self, optional_bound(min), optional_bound(max), plan.dtype, out);
}

at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Tensor>& min, const c10::optional<at::Tensor>& max) {
  const auto plan = op_plugin::utils::clamp_tensor_plan(self, min, max);
  at::Tensor out = OpPreparation::apply_tensor_without_format(plan.size, self.options().dtype(plan.dtype));
  return clip_out(self, optional_bound(min), optional_bound(max), plan.dtype, out);
}

at::Tensor& clamp_(at::Tensor& self, const c10::optional<at::Tensor>& min, const c10::optional<at::Tensor>& max) {
  const auto plan = op_plugin::utils::clamp_tensor_plan(self, min, max);
  op_plugin::utils::check_clamp_tensor_inplace(self, plan);
  return clip_out(self, optional_bound(min), optional_bound(max), plan.dtype, self);
}

at::Tensor& clamp_max_out(const at::Tensor& self, const at::Scalar& max, at::Tensor& out) {
  return clip_out(self, at::Tensor(), scalar_operand(max), at::result_type(self, max), out);
}

at::Tensor& clamp_max_tensor_out(const at::Tensor& self, const at::Tensor& max, at::Tensor& out) {
  return clip_out(self, at::Tensor(), max, at::result_type(self, max), out);
}

at::Tensor& gcd_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  // CANN has no gcd op type: ATen's CPU kernel computes it, as upstream's acl_op kernel does.
  out.copy_(at::gcd(self.cpu(), other.cpu()));
  return out;
}

at::Tensor& fill_(at::Tensor& self, const at::Tensor& value) {
  op_plugin::utils::check_fill_value(self, value);
  c10_npu::NPUGuard guard(self.device());
  return self.numel() == 0 ? self : fill_with(self, value);
}

at::Tensor& linspace_out(const at::Scalar& start, const at::Scalar& end, int64_t steps, at::Tensor& out) {
  op_plugin::utils::linspace_check_resize("linspace", steps, out);
  c10_npu::NPUGuard guard(out.device());
  if (steps == 0) {
    return out;
  }
  if (steps == 1) {  // one step is start itself (the spacing would divide by zero)
    return fill_with(out, scalar_operand(start));
  }
  const at::ScalarType dtype = out.scalar_type();
  if (op_plugin::utils::linspace_in_float(dtype)) {
    at::Tensor values = OpPreparation::apply_tensor_without_format({steps}, out.options().dtype(at::kFloat));
    acl_op::linspace_out(op_plugin::utils::linspace_bound(start, dtype), op_plugin::utils::linspace_bound(end, dtype),
                         steps, values);
    out.copy_(values);
    return out;
  }
  // start and end in double: integral and double results come out as CPU's
  return write_dense(out, "LinSpace", [&](OpCommand& cmd) {
    cmd.Input(start, at::kDouble).Input(end, at::kDouble).Input(c10::IntArrayRef{steps}, at::kInt);
  });
}

// float16 and float32 with a base a float holds: "LogSpaceD" as upstream runs it (positions 0, 1, ... from
// "Range"; start, end and base float attributes: start and end are stored in the dtype on CPU as well).
// CANN has no logspace op type for other dtypes, and a float attribute would round another base: those run
// ATen's CPU kernel on the host, as upstream's acl_op kernels run the ops CANN lacks.
at::Tensor& logspace_out(const at::Scalar& start, const at::Scalar& end, int64_t steps, double base,
                         at::Tensor& out) {
  op_plugin::utils::linspace_check_resize("logspace", steps, out);
  op_plugin::utils::check_logspace_bounds(start, end, steps, out.scalar_type());
  c10_npu::NPUGuard guard(out.device());
  if (steps == 0) {
    return out;
  }
  const at::ScalarType dtype = out.scalar_type();
  if ((dtype == at::kHalf || dtype == at::kFloat) && static_cast<double>(static_cast<float>(base)) == base) {
    const at::Tensor positions = at::arange(steps, out.options());
    return write_dense(out, "LogSpaceD", [&](OpCommand& cmd) {
      cmd.Input(positions)
          .Attr("start", static_cast<float>(start.toDouble()))
          .Attr("end", static_cast<float>(end.toDouble()))
          .Attr("steps", steps)
          .Attr("base", static_cast<float>(base))
          .Attr("dtype", static_cast<int64_t>(dtype == at::kHalf ? 0 : 1));
    });
  }
  out.copy_(at::logspace(start, end, steps, base, at::TensorOptions().dtype(dtype)));
  return out;
}

at::Tensor& complex_out(const at::Tensor& real, const at::Tensor& imag, at::Tensor& out) {
  op_plugin::utils::check_complex_parts(real, imag, out);
  // CANN has no op type that builds complex values: ATen's CPU kernel does, as upstream's acl_op kernel.
  const at::Tensor result = at::complex(real.cpu(), imag.cpu());
  at::native::resize_output(out, result.sizes());
  out.copy_(result);
  return out;
}

at::Tensor& polar_out(const at::Tensor& abs, const at::Tensor& angle, at::Tensor& out) {
  op_plugin::utils::check_complex_parts(abs, angle, out);
  // as complex_out: on the host, as upstream's acl_op kernel runs it
  const at::Tensor result = at::polar(abs.cpu(), angle.cpu());
  at::native::resize_output(out, result.sizes());
  out.copy_(result);
  return out;
}

}  // namespace acl_op
