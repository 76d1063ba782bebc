#include "npu/framework/InferSize.h"

namespace op_infer {

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

}  // namespace op_infer
