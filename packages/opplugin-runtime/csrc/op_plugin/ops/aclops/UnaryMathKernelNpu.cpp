// Unary elementwise ops on the acl_op path: exp, log, sqrt, rsqrt, reciprocal, tanh, sigmoid, silu ("Swish"),
// gelu ("GeluV2"), neg, relu, logical_not, pow.Tensor_Scalar ("Pow" with a constant exponent), clamp_min
// ("ClipByValueV2" for a scalar bound, "Maximum" for a tensor), tril ("Tril"), isneginf / isposinf ("Equal" to
// -inf / +inf); the math functions (one op type each: "Sin" ... "Log1p", log2 / log10 as "Log" with a base,
// exp2 as "Pow" of the constant 2), the roundings ("Ceil", "Floor", "Trunc", "Round"; integers are whole
// already), frac ("Trunc" then "Sub"), sign / sgn ("Sign"), sinc (composed), bitwise_not ("Invert",
// "LogicalNot" for bool) and nan_to_num ("NanToNum").
// Most are the out= kernels of structured groups: PyTorch's meta function has checked and sized `out`,
// and the functional and in-place variants reach them. Operands sharing an internal format run on
// their storage (op_plugin::utils::elementwise_acl_op_out).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <limits>
#include <string>

#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>
#include <c10/util/MathConstants.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/acos.h"
#include "op_plugin/ops/acosh.h"
#include "op_plugin/ops/asin.h"
#include "op_plugin/ops/asinh.h"
#include "op_plugin/ops/atan.h"
#include "op_plugin/ops/atanh.h"
#include "op_plugin/ops/bitwise_not.h"
#include "op_plugin/ops/ceil.h"
#include "op_plugin/ops/clamp_min.h"
#include "op_plugin/ops/cos.h"
#include "op_plugin/ops/cosh.h"
#include "op_plugin/ops/erf.h"
#include "op_plugin/ops/erfc.h"
#include "op_plugin/ops/erfinv.h"
#include "op_plugin/ops/exp.h"
#include "op_plugin/ops/exp2.h"
#include "op_plugin/ops/expm1.h"
#include "op_plugin/ops/floor.h"
#include "op_plugin/ops/frac.h"
#include "op_plugin/ops/gelu.h"
#include "op_plugin/ops/isneginf.h"
#include "op_plugin/ops/isposinf.h"
#include "op_plugin/ops/log.h"
#include "op_plugin/ops/log10.h"
#include "op_plugin/ops/log1p.h"
#include "op_plugin/ops/log2.h"
#include "op_plugin/ops/logical_not.h"
#include "op_plugin/ops/nan_to_num.h"
#include "op_plugin/ops/neg.h"
#include "op_plugin/ops/pow.h"
#include "op_plugin/ops/reciprocal.h"
#include "op_plugin/ops/relu.h"
#include "op_plugin/ops/round.h"
#include "op_plugin/ops/rsqrt.h"
#include "op_plugin/ops/sgn.h"
#include "op_plugin/ops/sigmoid.h"
#include "op_plugin/ops/sign.h"
#include "op_plugin/ops/silu.h"
#include "op_plugin/ops/sin.h"
#include "op_plugin/ops/sinc.h"
#include "op_plugin/ops/sinh.h"
#include "op_plugin/ops/sqrt.h"
#include "op_plugin/ops/tan.h"
#include "op_plugin/ops/tanh.h"
#include "op_plugin/ops/tril.h"
#include "op_plugin/ops/trunc.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/PointwiseUtils.h"
#include "op_plugin/utils/UnaryMathUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::elementwise_acl_op_out;
using op_plugin::utils::scalar_operand;
using op_plugin::utils::unary_float_dtype;
using op_plugin::utils::upper_bound;

// out <- type(self) computed in the floating dtype self promotes to.
at::Tensor& unary_float_out(const char* type, const at::Tensor& self, at::Tensor& out,
                            const std::function<void(OpCommand&)>& attrs = nullptr) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = unary_float_dtype(self);
  return elementwise_acl_op_out(type, {self}, dtype, dtype, out, attrs);
}

// out <- type(self) in self's dtype.
at::Tensor& unary_same_out(const char* type, const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  return elementwise_acl_op_out(type, {self}, self.scalar_type(), self.scalar_type(), out);
}

// Exp's and Log's attributes for `base` (-1: e) in CANN's base ** (scale * x + shift) and
// log_base(scale * x + shift), with scale 1 and shift 0.
std::function<void(OpCommand&)> with_base(float base) {
  return [base](OpCommand& cmd) { cmd.Attr("base", base).Attr("scale", 1.0f).Attr("shift", 0.0f); };
}

// ceil, floor, trunc, round: an integral or bool self is whole already and is copied (as the op_api path).
at::Tensor& rounding_out(const char* type, const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  if (!at::isFloatingType(self.scalar_type())) {
    return out.copy_(self);
  }
  return unary_same_out(type, self, out);
}

void check_round_decimals(const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "round: with decimals, self must be a floating tensor, got ",
              self.scalar_type());
}

// out <- self == value (an infinity); an integral or bool self (never infinite) compares as float.
at::Tensor& equals_infinity_out(const at::Tensor& self, double value, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = at::isFloatingType(self.scalar_type()) ? self.scalar_type() : at::kFloat;
  return elementwise_acl_op_out("Equal", {self, scalar_operand(value)}, dtype, at::kBool, out);
}

}  // namespace

at::Tensor& exp_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Exp", self, out, with_base(-1));
}
at::Tensor& log_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Log", self, out, with_base(-1));
}

at::Tensor& sqrt_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Sqrt", self, out); }
at::Tensor& rsqrt_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Rsqrt", self, out); }
at::Tensor& reciprocal_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Reciprocal", self, out);
}
at::Tensor& tanh_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Tanh", self, out); }
at::Tensor& sigmoid_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Sigmoid", self, out); }

at::Tensor& silu_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Swish", self, out, [](OpCommand& cmd) { cmd.Attr("scale", 1.0f); });
}

at::Tensor& gelu_out(const at::Tensor& self, c10::string_view approximate, at::Tensor& out) {
  TORCH_CHECK(approximate == "none" || approximate == "tanh", "gelu: approximate must be 'none' or 'tanh', got '",
              approximate, "'");
  const std::string mode(approximate.data(), approximate.size());
  return unary_float_out("GeluV2", self, out, [&mode](OpCommand& cmd) { cmd.Attr("approximate", mode.c_str()); });
}

at::Tensor& neg_out(const at::Tensor& self, at::Tensor& out) { return unary_same_out("Neg", self, out); }

at::Tensor relu(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = op_plugin::utils::apply_result(self.sizes(), self.options(),
                                                     op_plugin::utils::elementwise_internal_format({self}));
  return unary_same_out("Relu", self, result);
}

at::Tensor& relu_(at::Tensor& self) { return unary_same_out("Relu", self, self); }

at::Tensor& logical_not_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, out.scalar_type(), self.sizes());
  return elementwise_acl_op_out("LogicalNot", {self}, at::kBool, at::kBool, out);
}

at::Tensor& pow_out(const at::Tensor& self, const at::Scalar& exponent, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = at::result_type(self, exponent);
  return elementwise_acl_op_out("Pow", {self, scalar_operand(exponent)}, dtype, dtype, out);
}

at::Tensor& clamp_min_out(const at::Tensor& self, const at::Scalar& min, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = at::result_type(self, min);
  return elementwise_acl_op_out("ClipByValueV2", {self, scalar_operand(min), scalar_operand(upper_bound(dtype))},
                                dtype, dtype, out);
}

at::Tensor& clamp_min_(at::Tensor& self, const at::Scalar& min) { return clamp_min_out(self, min, self); }

at::Tensor& clamp_min_tensor_out(const at::Tensor& self, const at::Tensor& min, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = at::result_type(self, min);
  return elementwise_acl_op_out("Maximum", {self, min}, dtype, dtype, out);
}

at::Tensor& tril_out(const at::Tensor& self, int64_t diagonal, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  return elementwise_acl_op_out("Tril", {self}, self.scalar_type(), self.scalar_type(), out,
                                [diagonal](OpCommand& cmd) { cmd.Attr("diagonal", diagonal); }, false);
}

at::Tensor& isneginf_out(const at::Tensor& self, at::Tensor& out) {
  return equals_infinity_out(self, -std::numeric_limits<double>::infinity(), out);
}

at::Tensor& isposinf_out(const at::Tensor& self, at::Tensor& out) {
  return equals_infinity_out(self, std::numeric_limits<double>::infinity(), out);
}

// The math functions of one floating argument: an integral self computes in the default float dtype.
at::Tensor& sin_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Sin", self, out); }
at::Tensor& cos_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Cos", self, out); }
at::Tensor& tan_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Tan", self, out); }
at::Tensor& asin_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Asin", self, out); }
at::Tensor& acos_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Acos", self, out); }
at::Tensor& atan_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Atan", self, out); }
at::Tensor& sinh_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Sinh", self, out); }
at::Tensor& cosh_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Cosh", self, out); }
at::Tensor& asinh_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Asinh", self, out); }
at::Tensor& acosh_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Acosh", self, out); }
at::Tensor& atanh_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Atanh", self, out); }
at::Tensor& erf_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Erf", self, out); }
at::Tensor& erfc_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Erfc", self, out); }
at::Tensor& erfinv_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Erfinv", self, out); }
at::Tensor& expm1_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Expm1", self, out); }
at::Tensor& log1p_out(const at::Tensor& self, at::Tensor& out) { return unary_float_out("Log1p", self, out); }
at::Tensor& log2_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Log", self, out, with_base(2));
}
at::Tensor& log10_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Log", self, out, with_base(10));
}

at::Tensor& exp2_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = unary_float_dtype(self);
  return elementwise_acl_op_out("Pow", {scalar_operand(2), self}, dtype, dtype, out);
}

at::Tensor& ceil_out(const at::Tensor& self, at::Tensor& out) { return rounding_out("Ceil", self, out); }
at::Tensor& floor_out(const at::Tensor& self, at::Tensor& out) { return rounding_out("Floor", self, out); }
at::Tensor& trunc_out(const at::Tensor& self, at::Tensor& out) { return rounding_out("Trunc", self, out); }
at::Tensor& round_out(const at::Tensor& self, at::Tensor& out) { return rounding_out("Round", self, out); }

at::Tensor& round_out(const at::Tensor& self, int64_t decimals, at::Tensor& out) {
  check_round_decimals(self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), self.sizes());
  return elementwise_acl_op_out("Round", {self}, self.scalar_type(), self.scalar_type(), out,
                                [decimals](OpCommand& cmd) { cmd.Attr("decimals", decimals); });
}

at::Tensor round(const at::Tensor& self, int64_t decimals) {
  check_round_decimals(self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = op_plugin::utils::apply_result(self.sizes(), self.options(),
                                                     op_plugin::utils::elementwise_internal_format({self}));
  return acl_op::round_out(self, decimals, result);
}

at::Tensor& round_(at::Tensor& self, int64_t decimals) { return acl_op::round_out(self, decimals, self); }

// frac(x) = x - trunc(x): exact for every magnitude, where a cast through an integer type overflows.
at::Tensor& frac_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = unary_float_dtype(self);
  at::Tensor whole = op_plugin::utils::apply_result(self.sizes(), self.options().dtype(dtype),
                                                    op_plugin::utils::elementwise_internal_format({self, out}));
  elementwise_acl_op_out("Trunc", {self}, dtype, dtype, whole);
  return elementwise_acl_op_out("Sub", {self, whole}, dtype, dtype, out);
}

// sign of bool is the identity (as CPU's).
at::Tensor& sign_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  if (self.scalar_type() == at::kBool) {
    return out.copy_(self);
  }
  return unary_same_out("Sign", self, out);
}

at::Tensor& sgn_out(const at::Tensor& self, at::Tensor& out) {
  TORCH_CHECK(!self.is_complex(), "sgn: a complex self is not supported on the acl_op path (the op_api path "
              "takes it), got ", self.scalar_type());
  return acl_op::sign_out(self, out);
}

// sinc(x) = sin(pi x) / (pi x), 1 at x = 0: "Mul", "Sin", "RealDiv", then "MaskedFill" where "Equal" to 0.
at::Tensor& sinc_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = unary_float_dtype(self);
  const c10::TensorOptions options = self.options().dtype(dtype);
  at::Tensor scaled = OpPreparation::apply_tensor_without_format(self.sizes(), options);
  elementwise_acl_op_out("Mul", {self, scalar_operand(c10::pi<double>)}, dtype, dtype, scaled);
  at::Tensor sine = OpPreparation::apply_tensor_without_format(self.sizes(), options);
  elementwise_acl_op_out("Sin", {scaled}, dtype, dtype, sine);
  at::Tensor ratio = OpPreparation::apply_tensor_without_format(self.sizes(), options);
  elementwise_acl_op_out("RealDiv", {sine, scaled}, dtype, dtype, ratio);
  at::Tensor at_zero = OpPreparation::apply_tensor_without_format(self.sizes(), options.dtype(at::kBool));
  elementwise_acl_op_out("Equal", {self, scalar_operand(0)}, dtype, at::kBool, at_zero);
  if (ratio.numel() != 0) {
    OpCommand cmd;
    cmd.Name("MaskedFill").Input(ratio).Input(at_zero).Input(c10::Scalar(1), dtype).Output(ratio).Run();
  }
  return out.copy_(ratio);
}

// ~x: "Invert" on the integral types, "LogicalNot" on bool.
at::Tensor& bitwise_not_out(const at::Tensor& self, at::Tensor& out) {
  const at::ScalarType dtype = self.scalar_type();
  TORCH_CHECK(at::isIntegralType(dtype, /*includeBool=*/true),
              "bitwise_not: self must be an integral or bool tensor, got ", dtype);
  c10_npu::NPUGuard guard(self.device());
  return elementwise_acl_op_out(dtype == at::kBool ? "LogicalNot" : "Invert", {self}, dtype, dtype, out);
}

// An integral or bool self has no NaN or infinity: it is copied.
at::Tensor& nan_to_num_out(const at::Tensor& self, c10::optional<double> nan, c10::optional<double> posinf,
                           c10::optional<double> neginf, at::Tensor& out) {
  const op_plugin::utils::NanToNumValues values = op_plugin::utils::nan_to_num_values(self, nan, posinf, neginf, out);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), self.sizes());
  if (!at::isFloatingType(self.scalar_type())) {
    return out.copy_(self);
  }
  return elementwise_acl_op_out("NanToNum", {self}, self.scalar_type(), self.scalar_type(), out,
                                [&values](OpCommand& cmd) {
                                  cmd.Attr("nan", values.nan).Attr("posinf", values.posinf).Attr("neginf",
                                                                                                 values.neginf);
                                });
}

at::Tensor nan_to_num(const at::Tensor& self, c10::optional<double> nan, c10::optional<double> posinf,
                      c10::optional<double> neginf) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = op_plugin::utils::apply_result(self.sizes(), self.options(),
                                                     op_plugin::utils::elementwise_internal_format({self}));
  return acl_op::nan_to_num_out(self, nan, posinf, neginf, result);
}

}  // namespace acl_op
