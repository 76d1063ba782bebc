#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/IndexUpdateUtils.h"

#include <c10/core/WrapDimMinimal.h>

#include "op_plugin/utils/RearrangeUtils.h"  // check_not_complex

namespace op_plugin::utils {

void check_put(const at::Tensor& self, const at::Tensor& index, const at::Tensor& source) {
  check_not_complex("put_", self);
  TORCH_CHECK(index.scalar_type() == at::kLong, "put_(): Expected a long tensor for index, but got ",
              index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), "put_(): self and source expected to have the same dtype, "
              "but got self.dtype = ", self.scalar_type(), " and source.dtype = ", source.scalar_type());
  TORCH_CHECK(source.numel() == index.numel(), "put_(): Expected source and index to have the same number of "
              "elements, but got source.numel() = ", source.numel(), ", index.numel() = ", index.numel());
  TORCH_CHECK_INDEX(!(self.numel() == 0 && index.numel() != 0), "put_(): Tried to put elements into an empty tensor");
}

void check_index_copy(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  const char* op = "index_copy_()";
  check_not_complex(op, self);
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.dim() < 2, op, ": Index should have dimension 1 or 0 (got ", index.dim(), ")");
  const int64_t count = index.numel();
  TORCH_CHECK_INDEX(source.dim() != 0 || count == 1, op, ": When source is scalar, index should have one element "
                    "(got ", count, ")");
  TORCH_CHECK_INDEX(source.dim() == 0 || count == source.size(dim), op, ": Number of indices (", count,
                    ") should be equal to source.size(dim) (", source.dim() == 0 ? 1 : source.size(dim), ")");
  TORCH_CHECK_INDEX(index.scalar_type() == at::kLong, op, ": Expected a long tensor for index, but got ",
                    index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), op, ": self and source expected to have the same dtype, "
              "but got (self) ", self.scalar_type(), " and (source) ", source.scalar_type());
  if (self.dim() > 1 || source.dim() > 1) {
    TORCH_CHECK(self.dim() == source.dim(), op, ": When source and destination are not scalars, their "
                "dimensionality must match. Source dimensionality (", source.dim(), "), destination "
                "dimensionality (", self.dim(), ")");
    for (int64_t d = 0; d < self.dim(); ++d) {
      TORCH_CHECK(d == dim || self.size(d) == source.size(d), op, ": Source/destination tensor must have same slice "
                  "shapes. Destination slice shape: ", self.sizes(), " at dimension ", dim,
                  " and source slice shape: ", source.sizes(), " at dimension ", dim, ".");
    }
  }
}

void check_index_fill(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  check_not_complex("index_fill_", self);
  (void)c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.dim() <= 1, "index_fill_(): Index is supposed to be a vector");
  TORCH_CHECK_INDEX(index.scalar_type() == at::kLong, "index_fill_(): Expected dtype int64 for index.");
}

void check_index_fill_value(const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
}

}  // namespace op_plugin::utils
