#include "op_plugin/utils/LayerNormUtils.h"

#include <sstream>

namespace op_plugin::utils {
namespace {

bool is_kernel_float(at::ScalarType t) { return t == at::kFloat || t == at::kHalf || t == at::kBFloat16; }

}  // namespace

c10::SmallVector<int64_t, 8> check_layer_norm(const char* op, const at::Tensor& input,
                                              at::IntArrayRef normalized_shape,
                                              const c10::optional<at::Tensor>& weight,
                                              const c10::optional<at::Tensor>& bias) {
  const int64_t normalized_ndim = static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(normalized_ndim >= 1, op, ": Expected normalized_shape to be at least 1-dimensional, i.e., containing "
              "at least one element, but got normalized_shape = ", normalized_shape);
  for (const auto& t : {weight, bias}) {
    if (t.has_value() && t->defined()) {
      TORCH_CHECK(t->sizes() == normalized_shape, op, ": Expected weight/bias to be of same shape as "
                  "normalized_shape, but got shape ", t->sizes(), " and normalized_shape = ", normalized_shape);
    }
  }
  const int64_t input_ndim = input.dim();
  const auto input_shape = input.sizes();
  if (input_ndim < normalized_ndim ||
      !input_shape.slice(static_cast<size_t>(input_ndim - normalized_ndim)).equals(normalized_shape)) {
    std::ostringstream expected;
    expected << "[*";
    for (int64_t d : normalized_shape) expected << ", " << d;
    expected << "]";
    TORCH_CHECK(false, op, ": Given normalized_shape=", normalized_shape, ", expected input with shape ",
                expected.str(), ", but got input of size", input_shape);
  }
  TORCH_CHECK(is_kernel_float(input.scalar_type()), op, ": input has dtype ", input.scalar_type(),
              "; npu supports Float, Half and BFloat16");
  c10::SmallVector<int64_t, 8> stats(input_shape.begin(), input_shape.end() - normalized_ndim);
  stats.resize(static_cast<size_t>(input_ndim), 1);
  return stats;
}

void check_layer_norm_backward(const at::Tensor& grad_out, const at::Tensor& input, const at::Tensor& weight,
                               const at::Tensor& bias, std::array<bool, 3> output_mask) {
  TORCH_CHECK(grad_out.sizes() == input.sizes(), "native_layer_norm_backward: grad_out shape ", grad_out.sizes(),
              " differs from input shape ", input.sizes());
  // autograd never asks for the gradient of an absent weight/bias; CPU fails such a call too
  TORCH_CHECK((!output_mask[1] || weight.defined()) && (!output_mask[2] || bias.defined()),
              "native_layer_norm_backward: output_mask asks for the gradient of an undefined weight or bias "
              "(CPU: tensor does not have a device)");
}

}  // namespace op_plugin::utils
