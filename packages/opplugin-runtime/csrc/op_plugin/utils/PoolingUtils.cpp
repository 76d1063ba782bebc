#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/PoolingUtils.h"

#include "op_plugin/utils/PaddingUtils.h"

namespace op_plugin::utils {

// self has `spatial` trailing dimensions after one optional batch and one channel dimension,
// none of the non-batch ones empty (CPU's message).
void check_pool_input(const char* op, const at::Tensor& self, int64_t spatial) {
  const int64_t dim = self.dim();
  TORCH_CHECK(dim == spatial + 1 || dim == spatial + 2, op, "(): Expected ", spatial + 1, "D or ", spatial + 2,
              "D tensor, but got ", self.sizes());
  for (int64_t d = dim - spatial - 1; d < dim; ++d) {
    TORCH_CHECK(self.size(d) > 0, op, "(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
                self.sizes(), " with dimension ", d, " being empty");
  }
}

std::vector<int64_t> with_spatial(const at::Tensor& self, at::IntArrayRef sizes) {
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end() - static_cast<int64_t>(sizes.size()));
  shape.insert(shape.end(), sizes.begin(), sizes.end());
  return shape;
}

std::vector<int64_t> adaptive_avg_shape(const char* op, const at::Tensor& self, at::IntArrayRef output_size,
                                        int64_t spatial) {
  TORCH_CHECK(static_cast<int64_t>(output_size.size()) == spatial, op, ": output_size must be ", spatial, "D");
  check_pool_input(op, self, spatial);
  for (int64_t v : output_size) TORCH_CHECK(v >= 0, op, ": elements of output_size must be greater than or equal to 0");
  return with_spatial(self, output_size);
}

int64_t pooled_size(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceil_mode) {
  const int64_t numerator = in + 2 * pad - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (numerator >= 0 ? numerator / stride : -((-numerator + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

int64_t pick(at::IntArrayRef values, size_t i) { return values.size() == 1 ? values[0] : values[i]; }

// avg_pool2d's output shape, checked like CPU.
std::vector<int64_t> avg_pool2d_shape(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                      at::IntArrayRef padding, bool ceil_mode, c10::optional<int64_t> divisor_override) {
  const char* op = "avg_pool2d";
  TORCH_CHECK(kernel_size.size() == 1 || kernel_size.size() == 2, op,
              ": kernel_size must either be a single int, or a tuple of two ints");
  TORCH_CHECK(stride.empty() || stride.size() == 1 || stride.size() == 2, op,
              ": stride must either be omitted, a single int, or a tuple of two ints");
  TORCH_CHECK(padding.size() == 1 || padding.size() == 2, op,
              ": padding must either be a single int, or a tuple of two ints");
  TORCH_CHECK(!divisor_override.has_value() || divisor_override.value() != 0, "divisor must be not zero");
  TORCH_CHECK((self.dim() == 3 || self.dim() == 4) && self.size(-1) != 0 && self.size(-2) != 0 &&
                  self.size(-3) != 0,
              "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:",
              self.sizes());
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < 2; ++i) {
    const int64_t k = pick(kernel_size, i), s = stride.empty() ? k : pick(stride, i), p = pick(padding, i);
    TORCH_CHECK(k > 0, "kernel size should be greater than zero, but got kernel_size: ", kernel_size);
    TORCH_CHECK(s > 0, "stride should be greater than zero, but got stride: ", stride);
    TORCH_CHECK(p >= 0 && p <= k / 2, "pad should be smaller than or equal to half of kernel size, but got padW = ",
                pick(padding, 1), ", padH = ", pick(padding, 0), ", kW = ", pick(kernel_size, 1), ", kH = ",
                pick(kernel_size, 0));
    const int64_t in = self.size(self.dim() - 2 + static_cast<int64_t>(i));
    const int64_t out = pooled_size(in, k, p, s, 1, ceil_mode);
    TORCH_CHECK(out >= 1, "Given input size: (", self.sizes(), "). Calculated output size is too small");
    sizes.push_back(out);
  }
  return with_spatial(self, sizes);
}

void check_adaptive_avg_backward(const char* op, const at::Tensor& grad_output, const at::Tensor& self) {
  check_floating(op, self);
  TORCH_CHECK(grad_output.dim() == self.dim(), op, ": grad_output and self must have the same number of dimensions");
  TORCH_CHECK(grad_output.scalar_type() == self.scalar_type(), op, ": expected dtype ", self.scalar_type(),
              " for `grad_output` but got dtype ", grad_output.scalar_type());
}

std::vector<int64_t> max_pool3d_shape(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                      at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  const char* op = "max_pool3d";
  TORCH_CHECK(kernel_size.size() == 1 || kernel_size.size() == 3, op,
              ": kernel_size must either be a single int, or a tuple of three ints");
  TORCH_CHECK(stride.empty() || stride.size() == 1 || stride.size() == 3, op,
              ": stride must either be omitted, a single int, or a tuple of three ints");
  TORCH_CHECK(padding.size() == 1 || padding.size() == 3, op,
              ": padding must either be a single int, or a tuple of three ints");
  TORCH_CHECK(dilation.size() == 1 || dilation.size() == 3, op,
              ": dilation must be either a single int, or a tuple of three ints");
  check_pool_input(op, self, 3);
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < 3; ++i) {
    const int64_t k = pick(kernel_size, i), s = stride.empty() ? k : pick(stride, i), p = pick(padding, i),
                  d = pick(dilation, i);
    TORCH_CHECK(k > 0, op, ": kernel size should be greater than zero, but got ", kernel_size);
    TORCH_CHECK(s > 0, op, ": stride should be greater than zero, but got ", stride);
    TORCH_CHECK(d > 0, op, ": dilation should be greater than zero, but got ", dilation);
    TORCH_CHECK(p >= 0 && p <= k / 2, op, ": pad should be smaller than or equal to half of kernel size, but got ",
                "kernel_size=", kernel_size, ", padding=", padding);
    const int64_t in = self.size(self.dim() - 3 + static_cast<int64_t>(i));
    const int64_t out = pooled_size(in, k, p, s, d, ceil_mode);
    TORCH_CHECK(out >= 1, op, ": Given input size ", self.sizes(), ", calculated output size is too small");
    sizes.push_back(out);
  }
  return with_spatial(self, sizes);
}

std::vector<int64_t> max_pool3d_with_indices_shape(const at::Tensor& self, at::IntArrayRef kernel_size,
                                                   at::IntArrayRef stride, at::IntArrayRef padding,
                                                   at::IntArrayRef dilation, bool ceil_mode) {
  std::vector<int64_t> shape = max_pool3d_shape(self, kernel_size, stride, padding, dilation, ceil_mode);
  check_floating("max_pool3d_with_indices", self);
  return shape;
}

void check_max_pool3d_backward(const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef kernel_size,
                               at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                               bool ceil_mode, const at::Tensor& indices) {
  const std::vector<int64_t> shape = max_pool3d_shape(self, kernel_size, stride, padding, dilation, ceil_mode);
  check_floating("max_pool3d_with_indices_backward", self);
  TORCH_CHECK(grad_output.sizes() == at::IntArrayRef(shape) && indices.sizes() == at::IntArrayRef(shape),
              "max_pool3d_with_indices_backward: grad_output ", grad_output.sizes(), " and indices ", indices.sizes(),
              " must have the pooled shape ", at::IntArrayRef(shape));
}

}  // namespace op_plugin::utils
