#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/ChannelShuffleUtils.h"

namespace op_plugin::utils {

void check_channel_shuffle(const at::Tensor& self, int64_t groups) {
  TORCH_CHECK(self.dim() > 2, "channel_shuffle expects input with > 2 dims, but got input with sizes ", self.sizes());
  TORCH_CHECK(groups > 0, "Number of groups to divide channels in must be positive.", " Value of groups:", groups);
  const int64_t channels = self.size(1);
  TORCH_CHECK(channels % groups == 0, "Number of channels must be divisible by groups. Got ", channels,
              " channels and ", groups, " groups.");
}

void check_prelu_self(const at::Tensor& self) {
  TORCH_CHECK(self.is_floating_point(), "_prelu_kernel: self has dtype ", self.scalar_type(),
              "; prelu takes floating tensors");
}

}  // namespace op_plugin::utils
