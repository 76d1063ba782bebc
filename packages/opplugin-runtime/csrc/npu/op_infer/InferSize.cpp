#include "npu/op_infer/InferSize.h"

#include <algorithm>

#include <c10/core/ScalarType.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/util/irange.h>

#include "npu/core/TorchCompat.h"

namespace op_infer {

namespace {

SmallVector to_shape(c10::IntArrayRef sizes) {
  return SmallVector(sizes.begin(), sizes.end());
}

// `dim` wrapped into [0, ndim); a 0-d tensor takes -1 and 0, as in ATen. Refused with the op's
// name (a RuntimeError) instead of maybe_wrap_dim's anonymous IndexError.
int64_t wrap_dim(const char* op, const char* arg, int64_t dim, int64_t ndim) {
  const int64_t extent = std::max<int64_t>(ndim, 1);
  TORCH_CHECK(dim >= -extent && dim < extent, op, ": ", arg, " out of range (expected to be in range of [", -extent,
              ", ", extent - 1, "], but got ", dim, ")");
  return c10::maybe_wrap_dim(dim, ndim);
}

// The broadcast of two shapes, refusing incompatible ones with the op's and arguments' names.
SmallVector broadcast_shapes(const char* op, const char* a_name, c10::IntArrayRef a, const char* b_name,
                             c10::IntArrayRef b) {
  const size_t ndim = std::max(a.size(), b.size());
  SmallVector shape(ndim);
  for (const auto from_end : c10::irange<size_t>(1, ndim + 1)) {
    const int64_t size_a = from_end <= a.size() ? a[a.size() - from_end] : 1;
    const int64_t size_b = from_end <= b.size() ? b[b.size() - from_end] : 1;
    TORCH_CHECK(size_a == size_b || size_a == 1 || size_b == 1, op, ": the size of ", a_name, " (", size_a,
                ") must match the size of ", b_name, " (", size_b, ") at non-singleton dimension ", ndim - from_end,
                " (shapes ", a, " and ", b, ")");
    shape[ndim - from_end] = size_a == 1 ? size_b : size_a;
  }
  return shape;
}

// `sizes` can be expanded to `target` (Tensor::expand's rule: each dim equal or 1).
void check_expandable(const char* op, const char* arg, c10::IntArrayRef sizes, c10::IntArrayRef target) {
  bool expandable = sizes.size() <= target.size();
  for (size_t from_end = 1; expandable && from_end <= sizes.size(); ++from_end) {
    const int64_t size = sizes[sizes.size() - from_end];
    expandable = size == 1 || size == target[target.size() - from_end];
  }
  TORCH_CHECK(expandable, op, ": ", arg, " of shape ", sizes, " cannot be expanded to the output shape ", target);
}

int64_t checked_add(const char* op, const char* what, int64_t a, int64_t b) {
  int64_t sum = 0;
  TORCH_CHECK(!__builtin_add_overflow(a, b, &sum), op, ": ", what, " overflows int64 (", a, " + ", b, ")");
  return sum;
}

int64_t checked_mul(const char* op, const char* what, int64_t a, int64_t b) {
  int64_t product = 0;
  TORCH_CHECK(!__builtin_mul_overflow(a, b, &product), op, ": ", what, " overflows int64 (", a, " * ", b, ")");
  return product;
}

// Adaptive pooling and max unpooling: self has `spatial_dims` + 1 or + 2 dims (with batch), every
// dim but the first is non-empty, and the output keeps self's leading dims and takes output_size.
SmallVector pooled_shape(const char* op, const at::Tensor& self, at::IntArrayRef output_size,
                         int64_t spatial_dims) {
  const int64_t ndim = self.dim();
  TORCH_CHECK(static_cast<int64_t>(output_size.size()) == spatial_dims, op, ": output_size must have ",
              spatial_dims, " elements, but got ", output_size.size(), " elements");
  for (const int64_t size : output_size) {
    TORCH_CHECK(size >= 0, op, ": elements of output_size must be greater than or equal to 0, but got ",
                output_size);
  }
  TORCH_CHECK(ndim == spatial_dims + 1 || ndim == spatial_dims + 2, op, ": Expected ", spatial_dims + 1, "D or ",
              spatial_dims + 2, "D tensor for self, but got ", self.sizes());
  for (const auto i : c10::irange<int64_t>(1, ndim)) {
    TORCH_CHECK(self.size(i) > 0, op, ": Expected self to have non-zero size for non-batch dimensions, but self has ",
                "sizes ", self.sizes(), " with dimension ", i, " being empty");
  }
  SmallVector shape(self.sizes().begin(), self.sizes().end() - spatial_dims);
  shape.append(output_size.begin(), output_size.end());
  return shape;
}

enum class PadMode { kReflection, kReplication };

// reflection_padNd / replication_padNd: self has `spatial_dims` + 1 or + 2 dims (with batch),
// every non-batch dim non-empty; padding holds (before, after) pairs from the last dim back.
// Reflection needs each pad smaller than its dim; no output dim may be negative and at least
// one must be non-empty (ATen's "is too small" rule).
SmallVector padded_shape(const char* op, PadMode mode, const at::Tensor& self, at::IntArrayRef padding,
                         int64_t spatial_dims) {
  const int64_t ndim = self.dim();
  TORCH_CHECK(static_cast<int64_t>(padding.size()) == 2 * spatial_dims, op, ": padding size is expected to be ",
              2 * spatial_dims, ", but got: ", padding.size());
  const bool batch_mode = ndim == spatial_dims + 2;
  bool valid_rank = batch_mode || ndim == spatial_dims + 1;
  for (int64_t i = batch_mode ? 1 : 0; valid_rank && i < ndim; ++i) {
    valid_rank = self.size(i) != 0;
  }
  TORCH_CHECK(valid_rank, op, ": Expected ", spatial_dims + 1, "D or ", spatial_dims + 2,
              "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for self, but got: ",
              self.sizes());

  SmallVector shape = to_shape(self.sizes());
  bool any_non_empty = false;
  bool all_non_empty = true;
  for (const auto k : c10::irange(spatial_dims)) {  // k = 0 is the last dim
    const int64_t dim = ndim - 1 - k;
    const int64_t before = padding[2 * k];
    const int64_t after = padding[2 * k + 1];
    const int64_t input = self.size(dim);
    TORCH_CHECK(mode != PadMode::kReflection || (before < input && after < input), op,
                ": Padding size should be less than the corresponding input dimension, but got: padding (", before,
                ", ", after, ") at dimension ", dim, " of self ", self.sizes());
    const int64_t output = checked_add(op, "padded size", checked_add(op, "padded size", input, before), after);
    TORCH_CHECK(output >= 0, op, ": padding (", before, ", ", after, ") at dimension ", dim, " of self ", self.sizes(),
                " gives a negative output size ", output);
    shape[dim] = output;
    any_non_empty = any_non_empty || output >= 1;
    all_non_empty = all_non_empty && output >= 1;
  }
#if NPU_PAD_EVERY_OUTPUT_DIM_NONEMPTY
  TORCH_CHECK(all_non_empty, op, ": self ", self.sizes(), " is too small. Calculated output size ", shape,
              " must be >= 1 in every padded dimension");
#else
  TORCH_CHECK(any_non_empty, op, ": self ", self.sizes(), " is too small. Calculated output size: ", shape);
#endif
  return shape;
}

}  // namespace

SmallVector broadcast_ops_npu_output_size(c10::IntArrayRef self_sizes, c10::IntArrayRef other_sizes) {
  const at::DimVector sizes = at::infer_size_dimvector(self_sizes, other_sizes);
  return SmallVector(sizes.begin(), sizes.end());
}

SmallVector broadcast_ops_npu_output_size(const at::Tensor& self, const at::Tensor& other) {
  return broadcast_ops_npu_output_size(self.sizes(), other.sizes());
}

SmallVector input_same_output_size(const at::Tensor& input) {
  return SmallVector(input.sizes().begin(), input.sizes().end());
}

SmallVector clamp_npu_output_size(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                                  const c10::optional<at::Tensor>& max) {
  // An undefined tensor in the optional counts as absent, as in ATen's OptionalTensorRef.
  const bool has_min = min.has_value() && min->defined();
  const bool has_max = max.has_value() && max->defined();
  TORCH_CHECK(has_min || has_max, "clamp: At least one of 'min' or 'max' must not be None");
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), "clamp: complex types are not supported, but self is ",
              self.scalar_type());
  SmallVector shape = to_shape(self.sizes());
  if (has_min) {
    shape = broadcast_shapes("clamp", "self", shape, "min", min->sizes());
  }
  if (has_max) {
    shape = broadcast_shapes("clamp", has_min ? "self broadcast with min" : "self", shape, "max", max->sizes());
  }
  return shape;
}

// equal_nan changes values only: the result is `self == other`, broadcast.
SmallVector isclose_output_size(const at::Tensor& self, const at::Tensor& other, double rtol, double atol,
                                bool /*equal_nan*/) {
  TORCH_CHECK(self.scalar_type() == other.scalar_type(), "isclose: self's dtype ", self.scalar_type(),
              " did not match other's dtype ", other.scalar_type());
  TORCH_CHECK(rtol >= 0, "isclose: rtol must be greater than or equal to zero, but got ", rtol);
  TORCH_CHECK(atol >= 0, "isclose: atol must be greater than or equal to zero, but got ", atol);
  return broadcast_shapes("isclose", "self", self.sizes(), "other", other.sizes());
}

SmallVector addr_npu_output_size(const at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2) {
  TORCH_CHECK(vec1.dim() == 1, "addr: Expected 1-D argument vec1, but got ", vec1.dim(), "-D");
  TORCH_CHECK(vec2.dim() == 1, "addr: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  SmallVector shape = {vec1.size(0), vec2.size(0)};
  check_expandable("addr", "self", self.sizes(), shape);
  return shape;
}

SmallVector reduce_ops_npu_output_size(const at::Tensor& self, c10::IntArrayRef dim, bool keepdim) {
  const int64_t ndim = self.dim();
  // One flag per dim (one for a 0-d tensor, whose dims -1 and 0 both name it).
  c10::SmallVector<bool, SIZE> reduced(std::max<int64_t>(ndim, 1), dim.empty());
  for (const int64_t d : dim) {
    const int64_t wrapped = wrap_dim("reduction", "dim", d, ndim);
    TORCH_CHECK(!reduced[wrapped], "reduction: dim ", wrapped, " appears multiple times in the list of dims ", dim);
    reduced[wrapped] = true;
  }
  SmallVector shape;
  for (const auto i : c10::irange(ndim)) {
    if (!reduced[i]) {
      shape.push_back(self.size(i));
    } else if (keepdim) {
      shape.push_back(1);
    }
  }
  return shape;
}

SmallVector repeat_npu_output_size(const at::Tensor& self, c10::IntArrayRef repeats) {
  const int64_t ndim = self.dim();
  const int64_t out_ndim = static_cast<int64_t>(repeats.size());
  TORCH_CHECK(out_ndim >= ndim, "repeat: Number of dimensions of repeats (", out_ndim,
              ") can not be smaller than number of dimensions of self (", ndim, ")");
  // self's shape is left-padded with 1s up to the length of repeats.
  const int64_t new_dims = out_ndim - ndim;
  SmallVector shape(out_ndim);
  for (const auto i : c10::irange(out_ndim)) {
    TORCH_CHECK(repeats[i] >= 0, "repeat: Repeats cannot be negative, found ", repeats[i], " at index ", i);
    const int64_t size = i < new_dims ? 1 : self.size(i - new_dims);
    shape[i] = checked_mul("repeat", "repeated size", size, repeats[i]);
  }
  return shape;
}

SmallVector stack_output_size(at::TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), "stack: expects a non-empty TensorList");
  const c10::IntArrayRef sizes = tensors[0].sizes();
  for (const auto i : c10::irange<size_t>(1, tensors.size())) {
    TORCH_CHECK(tensors[i].sizes() == sizes, "stack: expects each tensor to be equal size, but got ", sizes,
                " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
  }
  const int64_t wrapped = wrap_dim("stack", "dim", dim, tensors[0].dim() + 1);
  SmallVector shape = to_shape(sizes);
  shape.insert(shape.begin() + wrapped, static_cast<int64_t>(tensors.size()));
  return shape;
}

SmallVector glu_npu_output_size(const at::Tensor& self, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "glu: does not support a 0-d self because halving size must be even");
  const int64_t wrapped = wrap_dim("glu", "dim", dim, self.dim());
  const int64_t size = self.size(wrapped);
  TORCH_CHECK(size % 2 == 0, "glu: Halving dimension must be even, but dimension ", wrapped, " is size ", size);
  SmallVector shape = to_shape(self.sizes());
  shape[wrapped] = size / 2;
  return shape;
}

SmallVector cdist_npu_output_size(const at::Tensor& x1, const at::Tensor& x2) {
  TORCH_CHECK(x1.dim() >= 2, "cdist: only supports at least 2D tensors, x1 got: ", x1.dim(), "D");
  TORCH_CHECK(x2.dim() >= 2, "cdist: only supports at least 2D tensors, x2 got: ", x2.dim(), "D");
  TORCH_CHECK(c10::isFloatingType(x1.scalar_type()), "cdist: only supports floating-point dtypes, x1 got: ",
              x1.scalar_type());
  TORCH_CHECK(c10::isFloatingType(x2.scalar_type()), "cdist: only supports floating-point dtypes, x2 got: ",
              x2.scalar_type());
  TORCH_CHECK(x1.size(-1) == x2.size(-1), "cdist: x1 and x2 must have the same number of columns. x1: ",
              x1.size(-1), " x2: ", x2.size(-1));
  SmallVector shape = broadcast_shapes("cdist", "x1's batch dims", x1.sizes().slice(0, x1.dim() - 2),
                                       "x2's batch dims", x2.sizes().slice(0, x2.dim() - 2));
  shape.append({x1.size(-2), x2.size(-2)});
  return shape;
}

std::tuple<SmallVector, SmallVector> triangular_solve_output_size(const at::Tensor& self, const at::Tensor& A) {
  TORCH_CHECK(self.dim() >= 2, "triangular_solve: Expected self to have at least 2 dimensions, but it has ",
              self.dim(), " dimensions instead");
  TORCH_CHECK(A.dim() >= 2, "triangular_solve: Expected A to have at least 2 dimensions, but it has ", A.dim(),
              " dimensions instead");
  TORCH_CHECK(self.scalar_type() == A.scalar_type(),
              "triangular_solve: Expected self and A to have the same dtype, but found self of type ",
              self.scalar_type(), " and A of type ", A.scalar_type(), " instead");
  TORCH_CHECK(A.size(-1) == A.size(-2), "triangular_solve: A must be batches of square matrices, but they are ",
              A.size(-2), " by ", A.size(-1), " matrices");
  TORCH_CHECK(A.size(-1) == self.size(-2), "triangular_solve: Incompatible matrix sizes: each A matrix is ",
              A.size(-1), " by ", A.size(-1), " but each self matrix is ", self.size(-2), " by ", self.size(-1));
  const SmallVector batch = broadcast_shapes("triangular_solve", "self's batch dims",
                                             self.sizes().slice(0, self.dim() - 2), "A's batch dims",
                                             A.sizes().slice(0, A.dim() - 2));
  SmallVector solution = batch;
  solution.append({self.size(-2), self.size(-1)});
  SmallVector cloned_coefficient = batch;
  cloned_coefficient.append({A.size(-2), A.size(-1)});
  return std::make_tuple(solution, cloned_coefficient);
}

SmallVector adaptive_avg_pool3d_npu_output_size(const at::Tensor& self, c10::IntArrayRef output_size) {
  return pooled_shape("adaptive_avg_pool3d", self, output_size, 3);
}

SmallVector max_pool2d_out_size(const at::Tensor& self, at::IntArrayRef output_size) {
  return pooled_shape("adaptive_max_pool2d/max_unpool2d", self, output_size, 2);
}

SmallVector max_pool3d_output_size(const at::Tensor& self, at::IntArrayRef output_size) {
  return pooled_shape("max_unpool3d", self, output_size, 3);
}

SmallVector reflection_pad1d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding) {
  return padded_shape("reflection_pad1d", PadMode::kReflection, self, padding, 1);
}

SmallVector reflection_pad2d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding) {
  return padded_shape("reflection_pad2d", PadMode::kReflection, self, padding, 2);
}

SmallVector reflection_pad3d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding) {
  return padded_shape("reflection_pad3d", PadMode::kReflection, self, padding, 3);
}

SmallVector replication_pad1d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding) {
  return padded_shape("replication_pad1d", PadMode::kReplication, self, padding, 1);
}

SmallVector replication_pad2d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding) {
  return padded_shape("replication_pad2d", PadMode::kReplication, self, padding, 2);
}

SmallVector replication_pad3d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding) {
  return padded_shape("replication_pad3d", PadMode::kReplication, self, padding, 3);
}

SmallVector im2col_backward_npu_output_size(const at::Tensor& grad_output, const at::IntArrayRef& input_size,
                                            const at::IntArrayRef& kernel_size) {
  TORCH_CHECK(input_size.size() == 2, "col2im: input_size must have 2 elements (height, width), but got ",
              input_size.size());
  TORCH_CHECK(kernel_size.size() == 2, "col2im: kernel_size must have 2 elements (height, width), but got ",
              kernel_size.size());
  TORCH_CHECK(kernel_size[0] > 0 && kernel_size[1] > 0, "col2im: kernel_size should be greater than zero, but got ",
              kernel_size);
  TORCH_CHECK(input_size[0] > 0 && input_size[1] > 0,
              "col2im: Expected output spatial size to be positive, but got: input_size=", input_size);
  const int64_t ndim = grad_output.dim();
  TORCH_CHECK((ndim == 2 && grad_output.size(0) != 0 && grad_output.size(1) != 0) ||
                  (ndim == 3 && grad_output.size(1) != 0 && grad_output.size(2) != 0),
              "col2im: Expected 2D or 3D (batch mode) tensor for grad_output with possibly 0 batch size and non-zero ",
              "dimensions, but got: ", grad_output.sizes());
  const int64_t channel_dim = ndim - 2;
  const int64_t columns = grad_output.size(channel_dim);
  const int64_t kernel_elements = checked_mul("col2im", "kernel_size product", kernel_size[0], kernel_size[1]);
  TORCH_CHECK(columns % kernel_elements == 0, "col2im: Expected size of grad_output's dimension ", channel_dim,
              " to be divisible by the product of kernel_size, but got grad_output.size(", channel_dim, ")=",
              columns, " and kernel_size=", kernel_size);
  SmallVector shape(grad_output.sizes().begin(), grad_output.sizes().begin() + channel_dim);
  shape.append({columns / kernel_elements, input_size[0], input_size[1]});
  return shape;
}

}  // namespace op_infer
