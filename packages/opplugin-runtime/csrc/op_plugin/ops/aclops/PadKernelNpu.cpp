// reflection_pad1d/2d and replication_pad1d/2d (+ backward) on the acl_op path: "MirrorPad" (mode
// "REFLECT") and "PadV3" (mode "edge") pad, "PadV3Grad" (mode "reflect" or "edge") takes the gradient; the
// paddings are an int32 host constant of (before, after) per dimension in dimension order
// (paddings_contiguous). The structured forms get their checks and sizes from ATen's meta functions;
// the others share theirs with the op_api kernels (op_plugin/utils/PaddingUtils).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <cstring>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/reflection_pad1d.h"
#include "op_plugin/ops/reflection_pad1d_backward.h"
#include "op_plugin/ops/reflection_pad2d.h"
#include "op_plugin/ops/reflection_pad2d_backward.h"
#include "op_plugin/ops/replication_pad1d.h"
#include "op_plugin/ops/replication_pad1d_backward.h"
#include "op_plugin/ops/replication_pad2d.h"
#include "op_plugin/ops/replication_pad2d_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/PaddingUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::check_floating;
using op_plugin::utils::check_pad_backward;

// torch's padding (the last dimension first) as (before, after) of each of `rank` dimensions in order.
std::vector<int64_t> paddings_by_dimension(int64_t rank, at::IntArrayRef padding) {
  std::vector<int64_t> paddings(static_cast<size_t>(2 * rank), 0);
  for (size_t i = 0; i < padding.size() / 2; ++i) {
    const size_t d = static_cast<size_t>(rank) - 1 - i;
    paddings[2 * d] = padding[2 * i];
    paddings[2 * d + 1] = padding[2 * i + 1];
  }
  return paddings;
}

// out <- `type` (mode `mode`) of `input` by torch's `padding`: the padded result (MirrorPad, PadV3) or
// the gradient of the unpadded input (PadV3Grad, input the padded result's gradient). An out of an
// internal format or with strides gets the values through a base-format temporary and copy_.
at::Tensor& pad_nocheck(const char* type, const char* mode, const at::Tensor& input, at::IntArrayRef padding,
                        at::Tensor& out) {
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    const std::vector<int64_t> paddings = paddings_by_dimension(input.dim(), padding);
    OpCommand cmd;
    cmd.Name(type);
    op_plugin::utils::AddInputAs(cmd, input, result.scalar_type());
    cmd.Input(at::IntArrayRef(paddings), at::kInt).Output(result).Attr("mode", mode);
    if (std::strcmp(type, "MirrorPad") != 0) {
      cmd.Attr("paddings_contiguous", true);
    }
    cmd.Run();
  });
}

}  // namespace

at::Tensor& reflection_pad1d_out(const at::Tensor& self, at::IntArrayRef padding, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  return pad_nocheck("MirrorPad", "REFLECT", self, padding, out);
}

at::Tensor& reflection_pad1d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                          at::IntArrayRef padding, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(self.device());
  check_floating("reflection_pad1d_backward", self);
  return pad_nocheck("PadV3Grad", "reflect", grad_output, padding, grad_input);
}

at::Tensor& reflection_pad2d_out(const at::Tensor& self, at::IntArrayRef padding, at::Tensor& out) {
  const std::vector<int64_t> shape = op_plugin::utils::reflection_pad2d_shape(self, padding);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  return pad_nocheck("MirrorPad", "REFLECT", self, padding, out);
}

at::Tensor reflection_pad2d(const at::Tensor& self, at::IntArrayRef padding) {
  const std::vector<int64_t> shape = op_plugin::utils::reflection_pad2d_shape(self, padding);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return pad_nocheck("MirrorPad", "REFLECT", self, padding, out);
}

at::Tensor& reflection_pad2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                          at::IntArrayRef padding, at::Tensor& grad_input) {
  check_pad_backward("reflection_pad2d_backward", grad_output, self, padding, 2);
  check_floating("reflection_pad2d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  return pad_nocheck("PadV3Grad", "reflect", grad_output, padding, grad_input);
}

at::Tensor reflection_pad2d_backward(const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef padding) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return acl_op::reflection_pad2d_backward_out(grad_output, self, padding, grad_input);
}

at::Tensor& replication_pad1d_out(const at::Tensor& self, at::IntArrayRef padding, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  return pad_nocheck("PadV3", "edge", self, padding, out);
}

at::Tensor& replication_pad1d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                           at::IntArrayRef padding, at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(self.device());
  check_floating("replication_pad1d_backward", self);
  return pad_nocheck("PadV3Grad", "edge", grad_output, padding, grad_input);
}

at::Tensor& replication_pad2d_out(const at::Tensor& self, at::IntArrayRef padding, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  return pad_nocheck("PadV3", "edge", self, padding, out);
}

at::Tensor& replication_pad2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                           at::IntArrayRef padding, at::Tensor& grad_input) {
  check_pad_backward("replication_pad2d_backward", grad_output, self, padding, 2);
  check_floating("replication_pad2d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  return pad_nocheck("PadV3Grad", "edge", grad_output, padding, grad_input);
}

at::Tensor replication_pad2d_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                      at::IntArrayRef padding) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return acl_op::replication_pad2d_backward_out(grad_output, self, padding, grad_input);
}

}  // namespace acl_op
