// _prelu_kernel / _prelu_kernel_backward (what nn.PReLU and F.prelu reach, the weight already
// shaped to broadcast over the channel dimension) and channel_shuffle, composed on the device
// from npu kernels: y = where(x > 0, x, w * x); dx = where(x > 0, g, w * g), dw = where(x > 0,
// 0, x * g) in the broadcast shape (autograd sums it to the weight's). channel_shuffle is the
// [N, g, C / g, ...] view with its two group dimensions swapped, copied densely.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>

#include <tuple>
#include <vector>

#include "npu/core/NPUGuard.h"
#include "op_plugin/ops/_prelu_kernel.h"
#include "op_plugin/ops/_prelu_kernel_backward.h"
#include "op_plugin/ops/channel_shuffle.h"
#include "op_plugin/utils/ChannelShuffleUtils.h"

namespace op_api {

at::Tensor _prelu_kernel(const at::Tensor& self, const at::Tensor& weight) {
  op_plugin::utils::check_prelu_self(self);
  c10_npu::NPUGuard guard(self.device());
  return at::where(self.gt(0), self, weight.mul(self));
}

std::tuple<at::Tensor, at::Tensor> _prelu_kernel_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                                          const at::Tensor& weight) {
  c10_npu::NPUGuard guard(self.device());
  const at::Tensor positive = self.gt(0);
  at::Tensor grad_self = at::where(positive, grad_output, weight.mul(grad_output));
  at::Tensor grad_weight = at::where(positive, at::zeros_like(grad_self), self.mul(grad_output));
  return std::make_tuple(grad_self, grad_weight);
}

at::Tensor channel_shuffle(const at::Tensor& self, int64_t groups) {
  op_plugin::utils::check_channel_shuffle(self, groups);
  const int64_t channels = self.size(1);
  c10_npu::NPUGuard guard(self.device());
  std::vector<int64_t> grouped = {self.size(0), groups, channels / groups};
  for (int64_t d = 2; d < self.dim(); ++d) grouped.push_back(self.size(d));
  return self.reshape(grouped).transpose(1, 2).clone(at::MemoryFormat::Contiguous).view(self.sizes());
}

}  // namespace op_api
