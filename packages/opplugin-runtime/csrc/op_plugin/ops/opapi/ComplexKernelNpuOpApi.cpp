// complex.out (aclnnComplex), polar.out (aclnnPolar), angle / angle.out (aclnnAngleV2) and
// conj_physical.out on the op_api path, and isnan (self != self, aclnnNeTensor: NaN is the one
// value unequal to itself; a complex value when either part is NaN). angle's result is the real part type of a complex self,
// the default float type of an integral one, else self's type (ATen's rule); out must be able to
// hold it.
// complex/polar check their operands as ATen's CPU kernels do (both parts of one floating dtype,
// out of its complex dtype) and resize out to the broadcast shape. conj_physical of a complex
// self is the copy of its values with the imaginary parts negated (aclnnInplaceCopy, then
// aclnnInplaceNeg on the imaginary parts' strided view); of a real self, the copy.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/ExpandUtils.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/view_as_real.h>
#include <c10/core/ScalarType.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/angle.h"
#include "op_plugin/ops/complex.h"
#include "op_plugin/ops/conj_physical.h"
#include "op_plugin/ops/isnan.h"
#include "op_plugin/ops/polar.h"
#include "op_plugin/utils/PointwiseUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

at::ScalarType angle_result_type(const at::Tensor& self) {
  if (self.is_complex()) {
    return c10::toRealValueType(self.scalar_type());
  }
  if (at::isIntegralType(self.scalar_type(), /*includeBool=*/true)) {
    return c10::typeMetaToScalarType(c10::get_default_dtype());
  }
  return self.scalar_type();
}

}  // namespace

at::Tensor angle(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out =
      OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(angle_result_type(self)));
  const at::Tensor input = self.resolve_conj().resolve_neg();
  EXEC_NPU_CMD(aclnnAngleV2, input, out);
  return out;
}

at::Tensor& angle_out(const at::Tensor& self, at::Tensor& out) {
  const at::ScalarType result = angle_result_type(self);
  TORCH_CHECK(c10::canCast(result, out.scalar_type()), "result type ", result,
              " can't be cast to the desired output type ", out.scalar_type());
  at::native::resize_output(out, self.sizes());
  if (at::isFloatingType(out.scalar_type())) {
    c10_npu::NPUGuard guard(self.device());
    const at::Tensor input = self.resolve_conj().resolve_neg();
    EXEC_NPU_CMD(aclnnAngleV2, input, out);
  } else {
    out.copy_(op_api::angle(self));
  }
  return out;
}

at::Tensor isnan(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(at::kBool));
  const at::Tensor input = self.resolve_conj().resolve_neg();
  EXEC_NPU_CMD(aclnnNeTensor, input, input, out);
  return out;
}

at::Tensor& complex_out(const at::Tensor& real, const at::Tensor& imag, at::Tensor& out) {
  op_plugin::utils::check_complex_parts(real, imag, out);
  c10_npu::NPUGuard guard(real.device());
  at::native::resize_output(out, at::infer_size(real.sizes(), imag.sizes()));
  EXEC_NPU_CMD(aclnnComplex, real, imag, out);
  return out;
}

at::Tensor& polar_out(const at::Tensor& abs, const at::Tensor& angle, at::Tensor& out) {
  op_plugin::utils::check_complex_parts(abs, angle, out);
  c10_npu::NPUGuard guard(abs.device());
  at::native::resize_output(out, at::infer_size(abs.sizes(), angle.sizes()));
  EXEC_NPU_CMD(aclnnPolar, abs, angle, out);
  return out;
}

at::Tensor& conj_physical_out(const at::Tensor& self, at::Tensor& out) {
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "conj_physical: Found dtype ", out.scalar_type(),
              " but expected ", self.scalar_type(), " for argument 'out'");
  c10_npu::NPUGuard guard(self.device());
  at::native::resize_output(out, self.sizes());
  out.copy_(self);
  if (out.is_complex()) {
    // The stored imaginary parts of out (out itself carries no conj bit: it was written by copy_).
    at::Tensor imag = at::view_as_real(out).select(-1, 1);
    EXEC_NPU_CMD(aclnnInplaceNeg, imag);
  }
  return out;
}

}  // namespace op_api
