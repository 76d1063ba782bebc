// Max pooling with indices on the acl_op path, the indices ATen's (the offset d * H * W + h * W + w of each
// maximum within its (n, c) plane, int64): max_pool2d_with_indices and max_pool3d_with_indices (+ backward)
// run "MaxPool3DWithArgmaxV2" / "MaxPool3DGradWithArgmax" on N, C, D, H, W views (2-D pooling with a depth
// of 1, ksize, strides, pads and dilation as (d, h, w), dtype 9 for int64 argmax, data_format NCDHW);
// adaptive_max_pool2d (+ backward) runs "AdaptiveMaxPool2d" (output_size) / "AdaptiveMaxPool2dGrad" (the
// gradient, the input and the argmax). Upstream's kernels run MaxPoolWithArgmaxV1 / MaxPool3D, whose argmax
// is a bit mask that max_unpool cannot read. Checks are shared with the op_api kernels
// (op_plugin/utils/PoolingUtils, PaddingUtils) or are ATen's meta functions' (the structured groups); inputs of
// an internal format are converted to their base format, an out of one is written through a temporary.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <functional>
#include <tuple>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/adaptive_max_pool2d.h"
#include "op_plugin/ops/adaptive_max_pool2d_backward.h"
#include "op_plugin/ops/max_pool2d_with_indices.h"
#include "op_plugin/ops/max_pool2d_with_indices_backward.h"
#include "op_plugin/ops/max_pool3d_with_indices.h"
#include "op_plugin/ops/max_pool3d_with_indices_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/PaddingUtils.h"
#include "op_plugin/utils/PoolingUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::AddInputAs;
using op_plugin::utils::check_floating;
using op_plugin::utils::pick;
using op_plugin::utils::write_through_base_format;

constexpr int64_t kInt64Argmax = 9;  // the dtype attribute's value for an int64 argmax

// MaxPool3DWithArgmaxV2's (and MaxPool3DGradWithArgmax's) window attributes for a pooling over the last
// `spatial` dimensions (2: the depth window is 1).
struct WindowAttrs {
  std::vector<int64_t> ksize, strides, pads, dilations;
  bool ceil_mode;

  WindowAttrs(int64_t spatial, at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding,
              at::IntArrayRef dilation, bool ceil)
      : ceil_mode(ceil) {
    if (spatial == 2) {
      ksize = strides = dilations = {1};
      pads = {0};
    }
    for (size_t i = 0; i < static_cast<size_t>(spatial); ++i) {
      ksize.push_back(pick(kernel_size, i));
      strides.push_back(stride.empty() ? ksize.back() : pick(stride, i));
      pads.push_back(pick(padding, i));
      dilations.push_back(pick(dilation, i));
    }
  }

  void Set(OpCommand& cmd) const {
    cmd.Attr("ksize", at::IntArrayRef(ksize))
        .Attr("strides", at::IntArrayRef(strides))
        .Attr("pads", at::IntArrayRef(pads))
        .Attr("dilation", at::IntArrayRef(dilations))
        .Attr("ceil_mode", ceil_mode)
        .Attr("data_format", "NCDHW");
  }
};

// `t`'s sizes as N, C, D, H, W: a batch of 1 where it has none, a depth of 1 for 2-D pooling.
std::vector<int64_t> ncdhw(const at::Tensor& t, int64_t spatial) {
  std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  if (spatial == 2) sizes.insert(sizes.end() - 2, 1);
  if (sizes.size() == 4) sizes.insert(sizes.begin(), 1);
  return sizes;
}

// `t` in its base format, reshaped to `sizes`.
at::Tensor base_reshaped(const at::Tensor& t, at::IntArrayRef sizes) {
  return at_npu::native::to_base_format(t, "max pooling input").reshape(sizes);
}

// out, indices <- the maxima of self and their plane offsets (`run` gets their base-format dense stand-ins).
void write_values_and_indices(at::Tensor& out, at::Tensor& indices,
                              const std::function<void(at::Tensor&, at::Tensor&)>& run) {
  write_through_base_format(out, [&](at::Tensor& values) {
    write_through_base_format(indices, [&](at::Tensor& argmax) { run(values, argmax); });
  });
}

void max_pool_nocheck(const at::Tensor& self, const WindowAttrs& attrs, int64_t spatial, at::Tensor& out,
                      at::Tensor& indices) {
  write_values_and_indices(out, indices, [&](at::Tensor& values, at::Tensor& argmax) {
    const std::vector<int64_t> pooled = ncdhw(values, spatial);
    at::Tensor y = values.view(pooled);
    at::Tensor index = argmax.view(pooled);
    OpCommand cmd;
    cmd.Name("MaxPool3DWithArgmaxV2");
    AddInputAs(cmd, base_reshaped(self, ncdhw(self, spatial)), values.scalar_type());
    cmd.Output(y).Output(index);
    attrs.Set(cmd);
    cmd.Attr("dtype", kInt64Argmax).Run();
  });
}

at::Tensor& max_pool_backward_nocheck(const at::Tensor& grad_output, const at::Tensor& self,
                                      const at::Tensor& indices, const WindowAttrs& attrs, int64_t spatial,
                                      at::Tensor& grad_input) {
  return write_through_base_format(grad_input, [&](at::Tensor& result) {
    const std::vector<int64_t> shape = ncdhw(self, spatial), pooled = ncdhw(grad_output, spatial);
    at::Tensor y = result.view(shape);
    OpCommand cmd;
    cmd.Name("MaxPool3DGradWithArgmax");
    AddInputAs(cmd, base_reshaped(self, shape), result.scalar_type());
    AddInputAs(cmd, base_reshaped(grad_output, pooled), result.scalar_type());
    AddInputAs(cmd, base_reshaped(indices, pooled), at::kLong);
    cmd.Output(y);
    attrs.Set(cmd);
    cmd.Run();
  });
}

}  // namespace

::std::tuple<at::Tensor&, at::Tensor&> max_pool2d_with_indices_out(const at::Tensor& self,
                                                                    at::IntArrayRef kernel_size,
                                                                    at::IntArrayRef stride, at::IntArrayRef padding,
                                                                    at::IntArrayRef dilation, bool ceil_mode,
                                                                    at::Tensor& out, at::Tensor& indices) {
  check_floating("max_pool2d_with_indices", self);
  c10_npu::NPUGuard guard(self.device());
  max_pool_nocheck(self, WindowAttrs(2, kernel_size, stride, padding, dilation, ceil_mode), 2, out, indices);
  return std::tie(out, indices);
}

at::Tensor& max_pool2d_with_indices_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                                 at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                                 at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
                                                 const at::Tensor& indices, at::Tensor& grad_input) {
  check_floating("max_pool2d_with_indices_backward", self);
  c10_npu::NPUGuard guard(self.device());
  return max_pool_backward_nocheck(grad_output, self, indices,
                                   WindowAttrs(2, kernel_size, stride, padding, dilation, ceil_mode), 2, grad_input);
}

::std::tuple<at::Tensor&, at::Tensor&> max_pool3d_with_indices_out(const at::Tensor& self,
                                                                    at::IntArrayRef kernel_size,
                                                                    at::IntArrayRef stride, at::IntArrayRef padding,
                                                                    at::IntArrayRef dilation, bool ceil_mode,
                                                                    at::Tensor& out, at::Tensor& indices) {
  const std::vector<int64_t> shape =
      op_plugin::utils::max_pool3d_with_indices_shape(self, kernel_size, stride, padding, dilation, ceil_mode);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  OpPreparation::check_tensor({self}, indices, at::kLong, shape);
  max_pool_nocheck(self, WindowAttrs(3, kernel_size, stride, padding, dilation, ceil_mode), 3, out, indices);
  return std::tie(out, indices);
}

::std::tuple<at::Tensor, at::Tensor> max_pool3d_with_indices(const at::Tensor& self, at::IntArrayRef kernel_size,
                                                              at::IntArrayRef stride, at::IntArrayRef padding,
                                                              at::IntArrayRef dilation, bool ceil_mode) {
  const std::vector<int64_t> shape =
      op_plugin::utils::max_pool3d_with_indices_shape(self, kernel_size, stride, padding, dilation, ceil_mode);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format(shape, self.options().dtype(at::kLong));
  max_pool_nocheck(self, WindowAttrs(3, kernel_size, stride, padding, dilation, ceil_mode), 3, out, indices);
  return std::make_tuple(out, indices);
}

at::Tensor& max_pool3d_with_indices_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                                 at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                                 at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
                                                 const at::Tensor& indices, at::Tensor& grad_input) {
  op_plugin::utils::check_max_pool3d_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                                              indices);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self, indices}, grad_input, self.scalar_type(), self.sizes());
  return max_pool_backward_nocheck(grad_output, self, indices,
                                   WindowAttrs(3, kernel_size, stride, padding, dilation, ceil_mode), 3, grad_input);
}

at::Tensor max_pool3d_with_indices_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                            at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                            at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
                                            const at::Tensor& indices) {
  op_plugin::utils::check_max_pool3d_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                                              indices);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return max_pool_backward_nocheck(grad_output, self, indices,
                                   WindowAttrs(3, kernel_size, stride, padding, dilation, ceil_mode), 3, grad_input);
}

::std::tuple<at::Tensor&, at::Tensor&> adaptive_max_pool2d_out(const at::Tensor& self, at::IntArrayRef output_size,
                                                                at::Tensor& out, at::Tensor& indices) {
  check_floating("adaptive_max_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  write_values_and_indices(out, indices, [&](at::Tensor& values, at::Tensor& argmax) {
    OpCommand cmd;
    cmd.Name("AdaptiveMaxPool2d");
    AddInputAs(cmd, self, values.scalar_type());
    cmd.Output(values).Output(argmax).Attr("output_size", output_size).Run();
  });
  return std::tie(out, indices);
}

at::Tensor& adaptive_max_pool2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                             const at::Tensor& indices, at::Tensor& grad_input) {
  check_floating("adaptive_max_pool2d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  return write_through_base_format(grad_input, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("AdaptiveMaxPool2dGrad");
    AddInputAs(cmd, grad_output, result.scalar_type());
    AddInputAs(cmd, self, result.scalar_type());
    AddInputAs(cmd, indices, at::kLong);
    cmd.Output(result).Run();
  });
}

}  // namespace acl_op
