#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/BinaryOpUtils.h"

#include <ATen/ExpandUtils.h>
#include <c10/util/Exception.h>

namespace op_plugin::utils {

void alpha_check(c10::ScalarType dtype, const c10::Scalar& alpha) {
  TORCH_CHECK(!alpha.isBoolean() || dtype == c10::ScalarType::Bool, "Boolean alpha only supported for Boolean results.");
  TORCH_CHECK(c10::isFloatingType(dtype) || c10::isComplexType(dtype) || alpha.isIntegral(true),
              "For integral input tensors, argument alpha must not be a floating point number.");
  TORCH_CHECK(c10::isComplexType(dtype) || !alpha.isComplex(),
              "For non-complex input tensors, argument alpha must not be a complex number.");
}

c10::Device binary_op_device(const char* op, const at::Tensor& self, const at::Tensor& other) {
  if (self.device().is_privateuseone()) {
    TORCH_CHECK(!other.device().is_privateuseone() || other.device() == self.device(), op, ": Expected all tensors to be on the same device, but found at least two devices, ", self.device(),
                " and ", other.device(), "!");
    TORCH_CHECK(other.device().is_privateuseone() || (other.device().is_cpu() && other.dim() == 0), op,
                ": Expected all tensors to be on the same device, but found at least two devices, ", self.device(),
                " and ", other.device(), "!");
    return self.device();
  }
  TORCH_CHECK(other.device().is_privateuseone() && self.device().is_cpu() && self.dim() == 0, op,
              ": Expected all tensors to be on the same device, but found at least two devices, ", other.device(),
              " and ", self.device(), "!");
  return other.device();
}

void check_inplace(const at::Tensor& self, const at::Tensor& other, c10::ScalarType result_type) {
  TORCH_CHECK(c10::canCast(result_type, self.scalar_type()), "result type ", result_type,
              " can't be cast to the desired output type ", self.scalar_type());
  if (!self.sizes().equals(other.sizes())) {
    const auto shape = at::infer_size_dimvector(self.sizes(), other.sizes());
    TORCH_CHECK(c10::IntArrayRef(shape).equals(self.sizes()), "output with shape ", self.sizes(),
                " doesn't match the broadcast shape ", c10::IntArrayRef(shape));
  }
}

}  // namespace op_plugin::utils
