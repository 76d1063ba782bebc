// Activations and their gradients on the acl_op path: elu ("Elu" / "EluGradV2"), hardshrink ("HardShrink" /
// "HardShrinkGrad"), hardsigmoid ("HardSigmoid" / "HardSigmoidGrad"), hardswish ("HardSwish" / "HardSwishGrad"),
// hardtanh ("ClipByValue" / "HardtanhGrad"), leaky_relu ("LeakyRelu" / "LeakyReluGrad"), log_sigmoid
// ("LogSigmoid" / "LogSigmoidGrad"), mish ("Mish" / "MishGrad"), softplus ("SoftplusV2" / "SoftplusV2Grad"),
// softshrink ("SoftShrink" / "SoftShrinkGrad"), threshold ("ThresholdV2D") and glu ("GLU" / "GLUGrad").
// The structured groups' out= kernels get `out` checked and sized by PyTorch's meta function; the others
// check and size it here. Scalars become float attributes (CANN's).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <tuple>

#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>
#include <ATen/WrapDimUtils.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "op_plugin/ops/elu.h"
#include "op_plugin/ops/elu_backward.h"
#include "op_plugin/ops/glu.h"
#include "op_plugin/ops/glu_backward.h"
#include "op_plugin/ops/hardshrink.h"
#include "op_plugin/ops/hardshrink_backward.h"
#include "op_plugin/ops/hardsigmoid.h"
#include "op_plugin/ops/hardsigmoid_backward.h"
#include "op_plugin/ops/hardswish.h"
#include "op_plugin/ops/hardswish_backward.h"
#include "op_plugin/ops/hardtanh.h"
#include "op_plugin/ops/hardtanh_backward.h"
#include "op_plugin/ops/leaky_relu.h"
#include "op_plugin/ops/leaky_relu_backward.h"
#include "op_plugin/ops/log_sigmoid_backward.h"
#include "op_plugin/ops/log_sigmoid_forward.h"
#include "op_plugin/ops/mish.h"
#include "op_plugin/ops/mish_backward.h"
#include "op_plugin/ops/softplus.h"
#include "op_plugin/ops/softplus_backward.h"
#include "op_plugin/ops/softshrink.h"
#include "op_plugin/ops/softshrink_backward.h"
#include "op_plugin/ops/threshold.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ActivationUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::elementwise_acl_op_out;
using Attrs = std::function<void(OpCommand&)>;

// out <- type(self) in self's dtype, which must be floating (as the op_api path's aclnn functions take).
at::Tensor& activation_out(const char* op, const char* type, const at::Tensor& self, at::Tensor& out,
                           const Attrs& attrs = nullptr) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), op, ": self must be a floating tensor, got ",
              self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return elementwise_acl_op_out(type, {self}, self.scalar_type(), self.scalar_type(), out, attrs);
}

// The result type of a gradient's two tensors, which must be floating.
at::ScalarType gradient_dtype(const char* op, const at::Tensor& grad_output, const at::Tensor& self) {
  const at::ScalarType dtype = at::result_type(grad_output, self);
  TORCH_CHECK(at::isFloatingType(dtype), op, ": grad_output and self must be floating tensors, got ",
              grad_output.scalar_type(), " and ", self.scalar_type());
  return dtype;
}

// grad_input <- type(grad_output, self) in their result type; the inputs broadcast.
at::Tensor& gradient_out(const char* op, const char* type, const at::Tensor& grad_output, const at::Tensor& self,
                         at::Tensor& grad_input, const Attrs& attrs = nullptr) {
  const at::ScalarType dtype = gradient_dtype(op, grad_output, self);
  c10_npu::NPUGuard guard(self.device());
  return elementwise_acl_op_out(type, {grad_output, self}, dtype, dtype, grad_input, attrs);
}

// A new result of the gradient's broadcast shape and result type.
at::Tensor gradient_result(const char* op, const at::Tensor& grad_output, const at::Tensor& self) {
  return OpPreparation::apply_tensor_without_format(op_infer::broadcast_ops_npu_output_size(grad_output, self),
                                                    self.options().dtype(gradient_dtype(op, grad_output, self)));
}

Attrs lambd_attr(const at::Scalar& lambd) {
  return [lambd](OpCommand& cmd) { cmd.Attr("lambd", lambd); };
}

Attrs softplus_attrs(const at::Scalar& beta, const at::Scalar& threshold) {
  return [beta, threshold](OpCommand& cmd) { cmd.Attr("beta", beta).Attr("threshold", threshold); };
}

// hardtanh and threshold take the numeric types but bool (as their op_api path).
void check_not_bool(const char* op, const at::Tensor& self) {
  TORCH_CHECK(self.scalar_type() != at::kBool, op, ": self of dtype Bool is not supported");
}

// glu halves self along dim, which must have an even size (the functional glu's meta function checks so).
void check_glu_dim(const at::Tensor& self, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t wrapped = at::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(self.size(wrapped) % 2 == 0, "Halving dimension must be even, but dimension ", wrapped, " is size ",
              self.size(wrapped));
}

}  // namespace

at::Tensor& elu_out(const at::Tensor& self, const at::Scalar& alpha, const at::Scalar& scale,
                    const at::Scalar& input_scale, at::Tensor& out) {
  return activation_out("elu", "Elu", self, out, [&](OpCommand& cmd) {
    cmd.Attr("alpha", alpha).Attr("scale", scale).Attr("input_scale", input_scale);
  });
}

at::Tensor& elu_backward_out(const at::Tensor& grad_output, const at::Scalar& alpha, const at::Scalar& scale,
                             const at::Scalar& input_scale, bool is_result, const at::Tensor& self_or_result,
                             at::Tensor& grad_input) {
  return gradient_out("elu_backward", "EluGradV2", grad_output, self_or_result, grad_input, [&](OpCommand& cmd) {
    cmd.Attr("alpha", alpha).Attr("scale", scale).Attr("input_scale", input_scale).Attr("is_result", is_result);
  });
}

at::Tensor& hardshrink_out(const at::Tensor& self, const at::Scalar& lambd, at::Tensor& out) {
  return activation_out("hardshrink", "HardShrink", self, out, lambd_attr(lambd));
}

at::Tensor& hardshrink_backward_out(const at::Tensor& grad_out, const at::Tensor& self, const at::Scalar& lambd,
                                    at::Tensor& grad_input) {
  return gradient_out("hardshrink_backward", "HardShrinkGrad", grad_out, self, grad_input, lambd_attr(lambd));
}

at::Tensor& softshrink_out(const at::Tensor& self, const at::Scalar& lambd, at::Tensor& out) {
  return activation_out("softshrink", "SoftShrink", self, out, lambd_attr(lambd));
}

at::Tensor& softshrink_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Scalar& lambd,
                                    at::Tensor& grad_input) {
  return gradient_out("softshrink_backward", "SoftShrinkGrad", grad_output, self, grad_input, lambd_attr(lambd));
}

at::Tensor& hardsigmoid_out(const at::Tensor& self, at::Tensor& out) {
  return activation_out("hardsigmoid", "HardSigmoid", self, out);
}

at::Tensor& hardsigmoid_backward_out(const at::Tensor& grad_output, const at::Tensor& self, at::Tensor& grad_input) {
  return gradient_out("hardsigmoid_backward", "HardSigmoidGrad", grad_output, self, grad_input);
}

at::Tensor& hardswish_out(const at::Tensor& self, at::Tensor& out) {
  OpPreparation::check_tensor({self}, out, self.scalar_type(), self.sizes());
  return activation_out("hardswish", "HardSwish", self, out);
}

at::Tensor hardswish(const at::Tensor& self) {
  at::Tensor out = OpPreparation::apply_tensor_without_format(self);
  return acl_op::hardswish_out(self, out);
}

at::Tensor& hardswish_(at::Tensor& self) { return activation_out("hardswish", "HardSwish", self, self); }

at::Tensor hardswish_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  at::Tensor grad_input = gradient_result("hardswish_backward", grad_output, self);
  gradient_out("hardswish_backward", "HardSwishGrad", grad_output, self, grad_input);
  op_plugin::utils::match_cpu_hardswish_backward_boundaries(grad_output, self, grad_input);
  return grad_input;
}

at::Tensor& hardtanh_out(const at::Tensor& self, const at::Scalar& min_val, const at::Scalar& max_val,
                         at::Tensor& out) {
  check_not_bool("hardtanh", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), self.sizes());
  const at::ScalarType dtype = self.scalar_type();
  return elementwise_acl_op_out(
      "ClipByValue",
      {self, op_plugin::utils::scalar_operand(min_val), op_plugin::utils::scalar_operand(max_val)}, dtype, dtype,
      out);
}

at::Tensor hardtanh(const at::Tensor& self, const at::Scalar& min_val, const at::Scalar& max_val) {
  at::Tensor out = OpPreparation::apply_tensor_without_format(self);
  return acl_op::hardtanh_out(self, min_val, max_val, out);
}

at::Tensor& hardtanh_(at::Tensor& self, const at::Scalar& min_val, const at::Scalar& max_val) {
  return acl_op::hardtanh_out(self, min_val, max_val, self);
}

// "HardtanhGrad" takes the forward input first.
at::Tensor& hardtanh_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Scalar& min_val,
                                  const at::Scalar& max_val, at::Tensor& grad_input) {
  const at::ScalarType dtype = gradient_dtype("hardtanh_backward", grad_output, self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, dtype,
                              op_infer::broadcast_ops_npu_output_size(grad_output, self));
  return elementwise_acl_op_out("HardtanhGrad", {self, grad_output}, dtype, dtype, grad_input,
                                [&](OpCommand& cmd) { cmd.Attr("min_val", min_val).Attr("max_val", max_val); });
}

at::Tensor hardtanh_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Scalar& min_val,
                             const at::Scalar& max_val) {
  at::Tensor grad_input = gradient_result("hardtanh_backward", grad_output, self);
  return acl_op::hardtanh_backward_out(grad_output, self, min_val, max_val, grad_input);
}

at::Tensor& leaky_relu_out(const at::Tensor& self, const at::Scalar& negative_slope, at::Tensor& out) {
  return activation_out("leaky_relu", "LeakyRelu", self, out,
                        [&](OpCommand& cmd) { cmd.Attr("negative_slope", negative_slope); });
}

// With self the result (PyTorch's meta function allows it for a positive slope only), self > 0 where the
// forward input was.
at::Tensor& leaky_relu_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                    const at::Scalar& negative_slope, bool /*self_is_result*/,
                                    at::Tensor& grad_input) {
  return gradient_out("leaky_relu_backward", "LeakyReluGrad", grad_output, self, grad_input,
                      [&](OpCommand& cmd) { cmd.Attr("negative_slope", negative_slope); });
}

// The buffer stays empty: the backward recomputes from self (as the op_api path).
std::tuple<at::Tensor&, at::Tensor&> log_sigmoid_forward_out(const at::Tensor& self, at::Tensor& output,
                                                             at::Tensor& buffer) {
  op_plugin::utils::check_log_sigmoid_self(self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, output, self.scalar_type(), self.sizes());
  elementwise_acl_op_out("LogSigmoid", {self}, self.scalar_type(), self.scalar_type(), output);
  return std::tie(output, buffer);
}

std::tuple<at::Tensor, at::Tensor> log_sigmoid_forward(const at::Tensor& self) {
  op_plugin::utils::check_log_sigmoid_self(self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor output = OpPreparation::apply_tensor_without_format(self);
  at::Tensor buffer = OpPreparation::apply_tensor_without_format({0}, self.options());
  acl_op::log_sigmoid_forward_out(self, output, buffer);
  return std::make_tuple(output, buffer);
}

at::Tensor& log_sigmoid_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                     const at::Tensor& /*buffer*/, at::Tensor& grad_input) {
  op_plugin::utils::check_floating_grad("log_sigmoid_backward", grad_output, self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, at::result_type(grad_output, self), self.sizes());
  return gradient_out("log_sigmoid_backward", "LogSigmoidGrad", grad_output, self, grad_input);
}

at::Tensor log_sigmoid_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& buffer) {
  op_plugin::utils::check_floating_grad("log_sigmoid_backward", grad_output, self);
  at::Tensor grad_input = gradient_result("log_sigmoid_backward", grad_output, self);
  return acl_op::log_sigmoid_backward_out(grad_output, self, buffer, grad_input);
}

at::Tensor& mish_out(const at::Tensor& self, at::Tensor& out) { return activation_out("mish", "Mish", self, out); }

at::Tensor mish_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  at::Tensor grad_input = gradient_result("mish_backward", grad_output, self);
  return gradient_out("mish_backward", "MishGrad", grad_output, self, grad_input);
}

at::Tensor& softplus_out(const at::Tensor& self, const at::Scalar& beta, const at::Scalar& threshold,
                         at::Tensor& out) {
  return activation_out("softplus", "SoftplusV2", self, out, softplus_attrs(beta, threshold));
}

at::Tensor& softplus_backward_out(const at::Tensor& grad_output, const at::Tensor& self, const at::Scalar& beta,
                                  const at::Scalar& threshold, at::Tensor& grad_input) {
  return gradient_out("softplus_backward", "SoftplusV2Grad", grad_output, self, grad_input,
                      softplus_attrs(beta, threshold));
}

at::Tensor& threshold_out(const at::Tensor& self, const at::Scalar& threshold, const at::Scalar& value,
                          at::Tensor& out) {
  check_not_bool("threshold", self);
  c10_npu::NPUGuard guard(self.device());
  return elementwise_acl_op_out("ThresholdV2D", {self}, self.scalar_type(), self.scalar_type(), out,
                                [&](OpCommand& cmd) { cmd.Attr("threshold", threshold).Attr("value", value); });
}

// "GLU" and "GLUGrad" run on base formats: the halves are taken along a logical dimension.
at::Tensor& glu_out(const at::Tensor& self, int64_t dim, at::Tensor& out) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "glu: self must be a floating tensor, got ",
              self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  return elementwise_acl_op_out("GLU", {self}, self.scalar_type(), self.scalar_type(), out,
                                [dim](OpCommand& cmd) { cmd.Attr("dim", dim); }, false);
}

at::Tensor& glu_backward_out(const at::Tensor& grad_output, const at::Tensor& self, int64_t dim,
                             at::Tensor& grad_input) {
  check_glu_dim(self, dim);
  const at::ScalarType dtype = gradient_dtype("glu_backward", grad_output, self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  return elementwise_acl_op_out("GLUGrad", {grad_output, self}, dtype, dtype, grad_input,
                                [dim](OpCommand& cmd) { cmd.Attr("dim", dim); }, false);
}

at::Tensor glu_backward(const at::Tensor& grad_output, const at::Tensor& self, int64_t dim) {
  check_glu_dim(self, dim);
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self);
  return acl_op::glu_backward_out(grad_output, self, dim, grad_input);
}

}  // namespace acl_op
