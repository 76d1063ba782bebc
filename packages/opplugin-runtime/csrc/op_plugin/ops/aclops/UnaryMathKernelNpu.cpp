// Unary elementwise ops on the acl_op path: exp, log, sqrt, rsqrt, reciprocal, tanh, sigmoid, silu ("Swish"),
// gelu ("GeluV2"), neg, relu, logical_not, pow.Tensor_Scalar ("Pow" with a constant exponent), clamp_min
// ("ClipByValueV2" for a scalar bound, "Maximum" for a tensor), tril ("Tril"), isneginf ("Equal" to -inf).
// Most are the out= kernels of structured groups: PyTorch's meta function has checked and sized `out`,
// and the functional and in-place variants reach them. Operands sharing an internal format run on
// their storage (op_plugin::utils::elementwise_acl_op_out).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <limits>
#include <string>

#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/clamp_min.h"
#include "op_plugin/ops/exp.h"
#include "op_plugin/ops/gelu.h"
#include "op_plugin/ops/isneginf.h"
#include "op_plugin/ops/log.h"
#include "op_plugin/ops/logical_not.h"
#include "op_plugin/ops/neg.h"
#include "op_plugin/ops/pow.h"
#include "op_plugin/ops/reciprocal.h"
#include "op_plugin/ops/relu.h"
#include "op_plugin/ops/rsqrt.h"
#include "op_plugin/ops/sigmoid.h"
#include "op_plugin/ops/silu.h"
#include "op_plugin/ops/sqrt.h"
#include "op_plugin/ops/tanh.h"
#include "op_plugin/ops/tril.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/PointwiseUtils.h"

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

}  // namespace

at::Tensor& exp_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Exp", self, out, [](OpCommand& cmd) {
    cmd.Attr("base", -1.0f).Attr("scale", 1.0f).Attr("shift", 0.0f);
  });
}

at::Tensor& log_out(const at::Tensor& self, at::Tensor& out) {
  return unary_float_out("Log", self, out, [](OpCommand& cmd) {
    cmd.Attr("base", -1.0f).Attr("scale", 1.0f).Attr("shift", 0.0f);
  });
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

// isneginf(x) = x == -inf; an integral or bool x (never -inf) compares as float.
at::Tensor& isneginf_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = at::isFloatingType(self.scalar_type()) ? self.scalar_type() : at::kFloat;
  return elementwise_acl_op_out("Equal", {self, scalar_operand(-std::numeric_limits<double>::infinity())}, dtype,
                                at::kBool, out);
}

}  // namespace acl_op
