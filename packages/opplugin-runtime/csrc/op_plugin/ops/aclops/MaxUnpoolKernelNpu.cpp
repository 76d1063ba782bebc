// max_unpool2d / max_unpool3d (+ out=) on the acl_op path: "ScatterElements" along the flattened spatial
// dimension of (N, C, spatial) zeros writes each element of self at its index; stride and padding only
// shape-check (as on CPU, the indices say where each value goes). Checks and messages are the op_api kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/zeros.h>

#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/max_unpool2d.h"
#include "op_plugin/ops/max_unpool3d.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/MaxUnpoolUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::check_max_unpool3d_args;
using op_plugin::utils::max_unpool_shape;

at::Tensor& max_unpool_run(const at::Tensor& self, const at::Tensor& indices, int64_t spatial, at::Tensor& out) {
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    const int64_t batch = self.dim() == spatial + 2 ? self.size(0) : 1;
    const int64_t channels = self.size(self.dim() - spatial - 1);
    const at::Tensor data = at::zeros({batch, channels, result.numel() / (batch * channels)}, result.options());
    at::Tensor flat = result.view({batch, channels, -1});
    OpCommand cmd;
    cmd.Name("ScatterElements").Input(data);
    op_plugin::utils::AddInputAs(cmd, indices.reshape({batch, channels, -1}), at::kLong);
    op_plugin::utils::AddInputAs(cmd, self.reshape({batch, channels, -1}), result.scalar_type());
    cmd.Output(flat).Attr("axis", static_cast<int64_t>(2)).Run();
  });
}

}  // namespace

at::Tensor& max_unpool2d_out(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                             at::Tensor& out) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool2d", self, indices, output_size, 2);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, indices}, out, self.scalar_type(), shape);
  return max_unpool_run(self, indices, 2, out);
}

at::Tensor max_unpool2d(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool2d", self, indices, output_size, 2);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return max_unpool_run(self, indices, 2, out);
}

at::Tensor& max_unpool3d_out(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                             at::IntArrayRef stride, at::IntArrayRef padding, at::Tensor& out) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool3d", self, indices, output_size, 3);
  check_max_unpool3d_args(stride, padding);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, indices}, out, self.scalar_type(), shape);
  return max_unpool_run(self, indices, 3, out);
}

at::Tensor max_unpool3d(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                        at::IntArrayRef stride, at::IntArrayRef padding) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool3d", self, indices, output_size, 3);
  check_max_unpool3d_args(stride, padding);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return max_unpool_run(self, indices, 3, out);
}

}  // namespace acl_op
