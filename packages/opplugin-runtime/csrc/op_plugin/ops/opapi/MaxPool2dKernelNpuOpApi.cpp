// max_pool2d_with_indices(.out) and max_pool2d_with_indices_backward(.grad_input)
// on the op_api path (aclnnMaxPool2dWithIndices(+Backward)). Both are structured:
// PyTorch's meta functions check the arguments and allocate the outputs; the
// kernels run the aclnn call. Indices are int64 positions within the input plane,
// PyTorch's convention, so autograd's formula and the CPU reference apply unchanged.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/max_pool2d_with_indices.h"
#include "op_plugin/ops/max_pool2d_with_indices_backward.h"
#include "op_plugin/utils/PaddingUtils.h"

namespace op_api {

using op_plugin::utils::check_floating;

::std::tuple<at::Tensor&, at::Tensor&> max_pool2d_with_indices_out(const at::Tensor& self,
                                                                    at::IntArrayRef kernel_size,
                                                                    at::IntArrayRef stride, at::IntArrayRef padding,
                                                                    at::IntArrayRef dilation, bool ceil_mode,
                                                                    at::Tensor& out, at::Tensor& indices) {
  check_floating("max_pool2d_with_indices", self);
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnMaxPool2dWithIndices, self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  }
  return std::tie(out, indices);
}

at::Tensor& max_pool2d_with_indices_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                                 at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                                 at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
                                                 const at::Tensor& indices, at::Tensor& grad_input) {
  check_floating("max_pool2d_with_indices_backward", self);
  c10_npu::NPUGuard guard(self.device());
  if (grad_input.numel() > 0) {
    EXEC_NPU_CMD(aclnnMaxPool2dWithIndicesBackward, grad_output, self, indices, kernel_size, stride, padding,
                 dilation, ceil_mode, grad_input);
  }
  return grad_input;
}

}  // namespace op_api
