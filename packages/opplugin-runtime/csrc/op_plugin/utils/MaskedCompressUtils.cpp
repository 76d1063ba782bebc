#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/MaskedCompressUtils.h"

#include <ATen/ExpandUtils.h>

namespace op_plugin::utils {

std::vector<int64_t> masked_select_capacity(const at::Tensor& self, const at::Tensor& mask) {
  check_not_complex("masked_select", self);
  TORCH_CHECK(mask.scalar_type() == at::kBool, "masked_select: expected BoolTensor for mask");
  const std::vector<int64_t> shape = at::infer_size(self.sizes(), mask.sizes());
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return {n};
}

void check_masked_scatter(const at::Tensor& self, const at::Tensor& mask, const at::Tensor& source) {
  check_not_complex("masked_scatter_", self);
  TORCH_CHECK(mask.scalar_type() == at::kBool, "masked_scatter_ only supports boolean masks, but got mask with dtype ",
              mask.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(),
              "masked_scatter_: expected self and source to have same dtypes but got", self.scalar_type(), " and ",
              source.scalar_type());
  (void)at::infer_size(self.sizes(), mask.sizes());  // raises like CPU when they do not broadcast
  TORCH_CHECK(at::is_expandable_to(mask.sizes(), self.sizes()), "masked_scatter_: mask of shape ", mask.sizes(),
              " cannot be expanded to self's shape ", self.sizes());
}

at::Tensor& copy_result_into(const at::Tensor& result, at::Tensor& out, const char* op) {
  TORCH_CHECK(out.scalar_type() == result.scalar_type(), op, ": expected out to have dtype ", result.scalar_type(),
              ", got ", out.scalar_type());
  if (!out.sizes().equals(result.sizes())) out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

}  // namespace op_plugin::utils
