#include "npu/op_infer/OpUtils.h"

#include "npu/core/CannVersion.h"

namespace op_plugin::utils {

c10::SmallVector<int64_t, 32> get_dimlist_for_tensor(const at::Tensor& self) {
  c10::SmallVector<int64_t, 32> dims;
  for (int64_t dim = 0; dim < self.dim(); ++dim) {
    dims.push_back(dim);
  }
  return dims;
}

bool is_gte_cann_version_820rc1() {
  static const bool result = c10_npu::IsGteCannVersion("8.2.RC1", "CANN");
  return result;
}

}  // namespace op_plugin::utils
