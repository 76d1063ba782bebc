#include "op_plugin/utils/MaxUnpoolUtils.h"

#include <c10/core/ScalarType.h>

#include "op_plugin/utils/PoolingUtils.h"

namespace op_plugin::utils {

std::vector<int64_t> max_unpool_shape(const char* op, const at::Tensor& self, const at::Tensor& indices,
                                      at::IntArrayRef output_size, int64_t spatial) {
  TORCH_CHECK(indices.scalar_type() == at::kLong, op, ": elements in indices should be type int64 but got: ",
              indices.scalar_type());
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(self.scalar_type()), op, ": self of dtype ", self.scalar_type(),
                              " is not supported (floating types, as on CPU)");
  TORCH_CHECK(static_cast<int64_t>(output_size.size()) == spatial, op, ": There should be exactly ", spatial,
              " elements (height, width) in output_size, but got ", output_size.size(), " elements.");
  TORCH_CHECK(self.dim() == spatial + 1 || self.dim() == spatial + 2, op, ": Input to max_unpooling", spatial,
              "d should be a ", spatial + 1, "d or ", spatial + 2, "d Tensor, but got a tensor with ", self.dim(),
              " dimensions.");
  TORCH_CHECK(self.sizes() == indices.sizes(), op, ": Expected shape of indices to be same as that of the input tensor (",
              self.sizes(), ") but got indices tensor with shape: ", indices.sizes());
  for (int64_t d = 1; d < self.dim(); ++d) {
    TORCH_CHECK(self.size(d) > 0, op, ": Expected input to have non-zero size for non-batch dimensions, but got ",
                self.sizes(), " with dimension ", d, " being empty.");
  }
  return with_spatial(self, output_size);
}

void check_max_unpool3d_args(at::IntArrayRef stride, at::IntArrayRef padding) {
  TORCH_CHECK(stride.size() == 3, "max_unpool3d: There should be exactly three elements (depth, height, width) in stride, but got: ",
              stride.size(), " elements.");
  TORCH_CHECK(padding.size() == 3, "max_unpool3d: There should be exactly three elements (depth, height, width) in padding, but got: ",
              padding.size(), " elements.");
  for (int64_t s : stride) TORCH_CHECK(s > 0, "max_unpool3d: strides should be greater than zero, but got stride: ", stride);
}

}  // namespace op_plugin::utils
