#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/ReductionUtils.h"

namespace op_plugin::utils {

void check_real_reduction(const char* op, const at::Tensor& self) {
  TORCH_CHECK(!at::isComplexType(self.scalar_type()), op, ": complex self (", self.scalar_type(),
              ") is not supported on npu");
}

at::ScalarType bool_reduction_result_type(const at::Tensor& self) {
  return self.scalar_type() == at::kByte ? at::kByte : at::kBool;
}

void check_bool_reduction_out(const char* op, const at::Tensor& self, const at::Tensor& out) {
  const at::ScalarType t = out.scalar_type();
  TORCH_CHECK(t == at::kBool || (t == at::kByte && self.scalar_type() == at::kByte), op,
              ": out must be bool (or uint8 for a uint8 self), got ", t);
}

c10::SmallVector<int64_t, 8> one_dim_reduced_size(const at::Tensor& self, int64_t wrapped, bool keepdim) {
  c10::SmallVector<int64_t, 8> size;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d != wrapped) {
      size.push_back(self.size(d));
    } else if (keepdim) {
      size.push_back(1);
    }
  }
  return size;
}

}  // namespace op_plugin::utils
