// Binary, compare and ternary elementwise ops on the acl_op path: sub ("Sub", "Axpy" with -alpha),
// div ("RealDiv"), maximum, minimum, mul.out ("Mul"), eq/ne/lt/le/gt/ge ("Equal", "NotEqual", "Less",
// "LessEqual", "Greater", "GreaterEqual"), addcmul, addcdiv, lerp, where ("Select"), masked_fill_
// ("MaskedFill"), and the activation gradients sigmoid_backward ("SigmoidGrad"), tanh_backward
// ("TanhGrad"), silu_backward ("SiluGrad"), gelu_backward ("GeluGradV2"), threshold_backward
// ("ThresholdGradV2D"). The executor broadcasts; inputs are cast to the common dtype first (to float32 for
// a float16/bfloat16 mul, div, addcmul, addcdiv or lerp with a Python number: number_compute_dtype).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <string>

#include <ATen/core/Tensor.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/result_type.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/MemoryOverlap.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_infer/InferSize.h"
#include "op_plugin/ops/addcdiv.h"
#include "op_plugin/ops/addcmul.h"
#include "op_plugin/ops/div.h"
#include "op_plugin/ops/eq.h"
#include "op_plugin/ops/ge.h"
#include "op_plugin/ops/gelu_backward.h"
#include "op_plugin/ops/gt.h"
#include "op_plugin/ops/le.h"
#include "op_plugin/ops/lerp.h"
#include "op_plugin/ops/lt.h"
#include "op_plugin/ops/masked_fill.h"
#include "op_plugin/ops/maximum.h"
#include "op_plugin/ops/minimum.h"
#include "op_plugin/ops/mul.h"
#include "op_plugin/ops/ne.h"
#include "op_plugin/ops/sigmoid_backward.h"
#include "op_plugin/ops/silu_backward.h"
#include "op_plugin/ops/sub.h"
#include "op_plugin/ops/tanh_backward.h"
#include "op_plugin/ops/threshold_backward.h"
#include "op_plugin/ops/where.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/BinaryOpUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::elementwise_acl_op_out;
using op_plugin::utils::scalar_operand;

// The npu device of a binary op whose operands may include a 0-dim CPU scalar.
c10::Device device_of(const at::Tensor& a, const at::Tensor& b) {
  return a.device().is_cpu() ? b.device() : a.device();
}

// out <- type(self, other) in their common dtype; `result` bool for the compares.
at::Tensor& binary_out(const char* type, const at::Tensor& self, const at::Tensor& other, at::Tensor& out,
                       bool compare = false) {
  c10_npu::NPUGuard guard(device_of(self, other));
  const at::ScalarType dtype = at::result_type(self, other);
  return elementwise_acl_op_out(type, {self, other}, dtype, compare ? at::kBool : dtype, out);
}

at::Tensor& compare_scalar_out(const char* type, const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = at::result_type(self, other);
  return elementwise_acl_op_out(type, {self, scalar_operand(other)}, dtype, at::kBool, out);
}

// The dtypes of the executor's "Axpy".
bool axpy_supports(at::ScalarType dtype) {
  return dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kDouble ||
         dtype == at::kInt || dtype == at::kLong;
}

bool is_one(const at::Scalar& alpha) {
  return alpha.isBoolean() ? alpha.toBool() : alpha.toDouble() == 1.0;
}

// The common dtype of three tensors (ATen's result_type over all of them).
at::ScalarType result_type3(const at::Tensor& a, const at::Tensor& b, const at::Tensor& c) {
  at::native::ResultTypeState state = {};
  state = at::native::update_result_type_state(a, state);
  state = at::native::update_result_type_state(b, state);
  state = at::native::update_result_type_state(c, state);
  return at::native::result_type(state);
}

void check_masked_fill(const at::Tensor& self, const at::Tensor& mask) {
  TORCH_CHECK(mask.scalar_type() == at::kBool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
              mask.dtype());
  TORCH_CHECK(mask.device() == self.device(), "masked_fill_: expected self and mask to be on the same device, but got "
              "mask on ", mask.device(), " and self on ", self.device());
  const auto shape = op_infer::broadcast_ops_npu_output_size(self, mask);
  TORCH_CHECK(c10::IntArrayRef(shape) == self.sizes(), "masked_fill_: mask of shape ", mask.sizes(),
              " cannot be broadcast to self of shape ", self.sizes());
  at_npu::native::check_memory_overlaps({mask}, {self});
}

at::Tensor& masked_fill_value(at::Tensor& self, const at::Tensor& mask, const at::Scalar& value) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = self.scalar_type();
  if (self.numel() == 0) {
    return self;
  }
  at::Tensor result = self;
  const bool dense = self.is_contiguous() && at_npu::native::FormatHelper::IsOpInputBaseFormat(self);
  if (!dense) {
    result = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  }
  OpCommand cmd;
  cmd.Name("MaskedFill");
  op_plugin::utils::AddInputAs(cmd, self, dtype);
  op_plugin::utils::AddInputAs(cmd, mask, at::kBool);
  cmd.Input(value, dtype).Output(result).Run();
  if (!dense) {
    self.copy_(result);
  }
  return self;
}

c10::Device where_device(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
  for (const at::Tensor* t : {&self, &other, &condition}) {
    if (!t->device().is_cpu()) {
      return t->device();
    }
  }
  TORCH_CHECK(false, "where: expected at least one npu tensor among condition, self and other");
}

c10::SmallVector<int64_t, 8> where_size(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
  TORCH_CHECK(condition.scalar_type() == at::kBool,
              "where expected condition to be a boolean tensor, but got a tensor with dtype ", condition.scalar_type());
  return op_infer::broadcast_ops_npu_output_size(op_infer::broadcast_ops_npu_output_size(condition, self),
                                                 other.sizes());
}

// out (of the common dtype, dense, base format) <- condition ? self : other.
void where_nocheck(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  if (out.numel() == 0) {
    return;
  }
  const at::ScalarType dtype = out.scalar_type();
  OpCommand cmd;
  cmd.Name("Select");
  op_plugin::utils::AddInputAs(cmd, condition, at::kBool);
  op_plugin::utils::AddInputAs(cmd, self, dtype);
  op_plugin::utils::AddInputAs(cmd, other, dtype);
  cmd.Output(out).Run();
}

}  // namespace

at::Tensor& sub_out(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha, at::Tensor& out) {
  c10_npu::NPUGuard guard(device_of(self, other));
  const at::ScalarType dtype = at::result_type(self, other);
  if (is_one(alpha)) {
    return elementwise_acl_op_out("Sub", {self, other}, dtype, dtype, out);
  }
  if (dtype == at::kDouble) {  // a float attribute would round alpha
    at::Tensor result = out.scalar_type() == dtype
                            ? out
                            : OpPreparation::apply_tensor_without_format(out.sizes(), out.options().dtype(dtype));
    op_plugin::utils::write_through_base_format(result, [&](at::Tensor& dense) {
      op_plugin::utils::axpy_v2_out(self, other, at::Scalar(-alpha.toDouble()), dense);
    });
    if (!result.is_same(out)) out.copy_(result);
    return out;
  }
  if (axpy_supports(dtype)) {  // self - alpha * other = self + (-alpha) * other
    const at::Scalar neg_alpha = at::isFloatingType(dtype) ? at::Scalar(-alpha.toDouble()) : at::Scalar(-alpha.toLong());
    return elementwise_acl_op_out("Axpy", {self, other}, dtype, dtype, out,
                                  [&neg_alpha](OpCommand& cmd) { cmd.Attr("alpha", neg_alpha); });
  }
  at::Tensor scaled = OpPreparation::apply_tensor_without_format(other.sizes(), other.options().dtype(dtype));
  elementwise_acl_op_out("Muls", {other}, dtype, dtype, scaled,
                         [&alpha](OpCommand& cmd) { cmd.Attr("value", alpha); });
  return elementwise_acl_op_out("Sub", {self, scaled}, dtype, dtype, out);
}

at::Tensor& div_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  c10_npu::NPUGuard guard(device_of(self, other));
  const at::ScalarType common = at::result_type(self, other);
  const at::ScalarType dtype = op_plugin::utils::number_compute_dtype(
      at::isFloatingType(common) ? common : c10::typeMetaToScalarType(at::get_default_dtype()),
      op_plugin::utils::has_number({self, other}));
  return elementwise_acl_op_out("RealDiv", {self, other}, dtype, dtype, out);
}

at::Tensor& maximum_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("Maximum", self, other, out);
}

at::Tensor& minimum_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("Minimum", self, other, out);
}

at::Tensor& mul_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  const c10::Device device = op_plugin::utils::binary_op_device("mul_out", self, other);
  c10_npu::NPUGuard guard(device);
  const at::ScalarType dtype = at::result_type(self, other);
  const auto output_size = op_infer::broadcast_ops_npu_output_size(self, other);
  OpPreparation::check_tensor({self, other}, out, out.scalar_type(), output_size);
  TORCH_CHECK(c10::canCast(dtype, out.scalar_type()), "mul_out: result type ", dtype,
              " can't be cast to the desired output type ", out.scalar_type());
  const at::ScalarType compute = op_plugin::utils::number_compute_dtype(dtype, op_plugin::utils::has_number({self, other}));
  return elementwise_acl_op_out("Mul", {self, other}, compute, compute, out);
}

at::Tensor& eq_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("Equal", self, other, out, true);
}
at::Tensor& ne_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("NotEqual", self, other, out, true);
}
at::Tensor& lt_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("Less", self, other, out, true);
}
at::Tensor& le_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("LessEqual", self, other, out, true);
}
at::Tensor& gt_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("Greater", self, other, out, true);
}
at::Tensor& ge_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out("GreaterEqual", self, other, out, true);
}
at::Tensor& eq_scalar_out(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  return compare_scalar_out("Equal", self, other, out);
}
at::Tensor& ne_scalar_out(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  return compare_scalar_out("NotEqual", self, other, out);
}
at::Tensor& lt_scalar_out(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  return compare_scalar_out("Less", self, other, out);
}
at::Tensor& le_scalar_out(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  return compare_scalar_out("LessEqual", self, other, out);
}
at::Tensor& gt_scalar_out(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  return compare_scalar_out("Greater", self, other, out);
}
at::Tensor& ge_scalar_out(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  return compare_scalar_out("GreaterEqual", self, other, out);
}

at::Tensor& addcmul_out(const at::Tensor& self, const at::Tensor& tensor1, const at::Tensor& tensor2,
                        const at::Scalar& value, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = op_plugin::utils::number_compute_dtype(result_type3(self, tensor1, tensor2), true);
  return elementwise_acl_op_out("Addcmul", {self, tensor1, tensor2, scalar_operand(value)}, dtype, dtype, out);
}

at::Tensor& addcdiv_out(const at::Tensor& self, const at::Tensor& tensor1, const at::Tensor& tensor2,
                        const at::Scalar& value, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = op_plugin::utils::number_compute_dtype(result_type3(self, tensor1, tensor2), true);
  return elementwise_acl_op_out("Addcdiv", {self, tensor1, tensor2, scalar_operand(value)}, dtype, dtype, out);
}

at::Tensor& lerp_out(const at::Tensor& self, const at::Tensor& end, const at::Scalar& weight, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = op_plugin::utils::number_compute_dtype(self.scalar_type(), true);
  return elementwise_acl_op_out("Lerp", {self, end, scalar_operand(weight)}, dtype, dtype, out);
}

at::Tensor& lerp_tensor_out(const at::Tensor& self, const at::Tensor& end, const at::Tensor& weight,
                            at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = self.scalar_type();
  return elementwise_acl_op_out("Lerp", {self, end, weight}, dtype, dtype, out);
}

at::Tensor where(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
  const auto size = where_size(condition, self, other);
  const c10::Device device = where_device(condition, self, other);
  c10_npu::NPUGuard guard(device);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      size, at::TensorOptions().device(device).dtype(at::result_type(self, other)));
  where_nocheck(condition, self, other, out);
  return out;
}

at::Tensor& where_out(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other,
                      at::Tensor& out) {
  const auto size = where_size(condition, self, other);
  c10_npu::NPUGuard guard(where_device(condition, self, other));
  const at::ScalarType dtype = at::result_type(self, other);
  OpPreparation::check_tensor({condition, self, other}, out, dtype, size);
  if (at_npu::native::FormatHelper::IsOpInputBaseFormat(out)) {
    where_nocheck(condition, self, other, out);
  } else {
    at::Tensor result = OpPreparation::apply_tensor_without_format(size, out.options());
    where_nocheck(condition, self, other, result);
    out.copy_(result);
  }
  return out;
}

at::Tensor& masked_fill_(at::Tensor& self, const at::Tensor& mask, const at::Scalar& value) {
  check_masked_fill(self, mask);
  return masked_fill_value(self, mask, value);
}

at::Tensor& masked_fill_(at::Tensor& self, const at::Tensor& mask, const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  check_masked_fill(self, mask);
  TORCH_CHECK(value.device().is_cpu() || value.device() == self.device(), "masked_fill_: expected value on ",
              self.device(), ", got ", value.device());
  // "MaskedFill" takes its value as a constant: a device value is read back first.
  return masked_fill_value(self, mask, value.item());
}

at::Tensor& sigmoid_backward_out(const at::Tensor& grad_output, const at::Tensor& output, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(grad_output.device());
  const at::ScalarType dtype = at::result_type(grad_output, output);
  return elementwise_acl_op_out("SigmoidGrad", {output, grad_output}, dtype, dtype, grad_input);
}

at::Tensor& tanh_backward_out(const at::Tensor& grad_output, const at::Tensor& output, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(grad_output.device());
  const at::ScalarType dtype = at::result_type(grad_output, output);
  return elementwise_acl_op_out("TanhGrad", {output, grad_output}, dtype, dtype, grad_input);
}

at::Tensor& silu_backward_out(const at::Tensor& grad_output, const at::Tensor& self, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(grad_output.device());
  const at::ScalarType dtype = at::result_type(grad_output, self);
  return elementwise_acl_op_out("SiluGrad", {grad_output, self}, dtype, dtype, grad_input);
}

at::Tensor& gelu_backward_out(const at::Tensor& grad_output, const at::Tensor& self, c10::string_view approximate,
                              at::Tensor& grad_input) {
  TORCH_CHECK(approximate == "none" || approximate == "tanh",
              "gelu_backward: approximate must be 'none' or 'tanh', got '", approximate, "'");
  c10_npu::NPUGuard guard(grad_output.device());
  const at::ScalarType dtype = at::result_type(grad_output, self);
  const std::string mode(approximate.data(), approximate.size());
  return elementwise_acl_op_out("GeluGradV2", {grad_output, self}, dtype, dtype, grad_input,
                                [&mode](OpCommand& cmd) { cmd.Attr("approximate", mode.c_str()); });
}

at::Tensor& threshold_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                   const at::Scalar& threshold, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(grad_output.device());
  const at::ScalarType dtype = at::result_type(grad_output, self);
  return elementwise_acl_op_out("ThresholdGradV2D", {grad_output, self}, dtype, dtype, grad_input,
                                [&threshold](OpCommand& cmd) { cmd.Attr("threshold", threshold); });
}

}  // namespace acl_op
