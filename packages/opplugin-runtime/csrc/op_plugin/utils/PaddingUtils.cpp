#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/PaddingUtils.h"

namespace op_plugin::utils {

void check_floating(const char* op, const at::Tensor& self) {
  const at::ScalarType dtype = self.scalar_type();
  TORCH_CHECK(dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kDouble, op,
              ": self of dtype ", dtype, " is not supported on npu (float32, float16, bfloat16, float64)");
}

std::vector<int64_t> reflection_pad2d_shape(const at::Tensor& self, at::IntArrayRef padding) {
  const char* op = "reflection_pad2d";
  TORCH_CHECK(padding.size() == 4, op, ": padding size is expected to be 4");
  TORCH_CHECK(self.dim() == 3 || self.dim() == 4, op, ": Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
              "and other non-zero dimensions for input, but got: ", self.sizes());
  for (int64_t d = self.dim() - 3; d < self.dim(); ++d) {
    TORCH_CHECK(self.size(d) != 0, op, ": Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
                "non-zero dimensions for input, but got: ", self.sizes());
  }
  const int64_t h = self.size(-2), w = self.size(-1);
  TORCH_CHECK(padding[0] < w && padding[1] < w, "Argument #4: Padding size should be less than the corresponding input "
              "dimension, but got: padding (", padding[0], ", ", padding[1], ") at dimension ", self.dim() - 1,
              " of input ", self.sizes());
  TORCH_CHECK(padding[2] < h && padding[3] < h, "Argument #6: Padding size should be less than the corresponding input "
              "dimension, but got: padding (", padding[2], ", ", padding[3], ") at dimension ", self.dim() - 2,
              " of input ", self.sizes());
  const int64_t oh = h + padding[2] + padding[3], ow = w + padding[0] + padding[1];
  TORCH_CHECK(ow >= 1 || oh >= 1, "input (H: ", h, ", W: ", w, ") is too small. Calculated output H: ", oh, " W: ", ow);
  TORCH_CHECK(ow >= 1 && oh >= 1, "input (H: ", h, ", W: ", w, ") is too small. Calculated output H: ", oh, " W: ", ow);
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end() - 2);
  shape.push_back(oh);
  shape.push_back(ow);
  return shape;
}

void check_pad_backward(const char* op, const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef padding,
                        int64_t spatial) {
  TORCH_CHECK(static_cast<int64_t>(padding.size()) == 2 * spatial, op, ": padding size is expected to be ", 2 * spatial);
  TORCH_CHECK(grad_output.dim() == self.dim(), op, ": grad_output and self must have the same number of dimensions");
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t d = self.dim() - 1 - i;
    const int64_t expected = self.size(d) + padding[2 * i] + padding[2 * i + 1];
    TORCH_CHECK(grad_output.size(d) == expected, op, ": grad_output size ", d, " should be ", expected, ", got ",
                grad_output.size(d));
  }
}

}  // namespace op_plugin::utils
