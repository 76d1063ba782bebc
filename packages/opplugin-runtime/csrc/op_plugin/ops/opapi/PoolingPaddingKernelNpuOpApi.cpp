// The pooling and padding ops PyTorch does not declare structured (their checks and output
// sizes are written here, as CPU's): avg_pool2d (its meta function precomputes values the
// generated structured kernels cannot take), adaptive average pooling 2-D/3-D (+backward), 3-D max
// pooling with indices (+backward), max unpooling 2-D/3-D, reflection_pad2d (+backward) and the
// backward of replication_pad2d/3d. The structured ones (avg_pool, adaptive max pooling, the
// upsample family, the other pads) are generated from yaml/op_plugin_functions.yaml.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <string>
#include <tuple>
#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_adaptive_avg_pool2d.h"
#include "op_plugin/ops/_adaptive_avg_pool2d_backward.h"
#include "op_plugin/ops/_adaptive_avg_pool3d.h"
#include "op_plugin/ops/_adaptive_avg_pool3d_backward.h"
#include "op_plugin/ops/adaptive_avg_pool2d.h"
#include "op_plugin/ops/adaptive_avg_pool3d.h"
#include "op_plugin/ops/adaptive_avg_pool3d_backward.h"
#include "op_plugin/ops/avg_pool2d.h"
#include "op_plugin/ops/max_pool3d_with_indices.h"
#include "op_plugin/ops/max_pool3d_with_indices_backward.h"
#include "op_plugin/ops/max_unpool2d.h"
#include "op_plugin/ops/max_unpool3d.h"
#include "op_plugin/ops/reflection_pad2d.h"
#include "op_plugin/ops/reflection_pad2d_backward.h"
#include "op_plugin/ops/replication_pad2d_backward.h"
#include "op_plugin/ops/replication_pad3d_backward.h"
#include "op_plugin/utils/MaxUnpoolUtils.h"
#include "op_plugin/utils/PaddingUtils.h"
#include "op_plugin/utils/PoolingUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;
using op_plugin::utils::adaptive_avg_shape;
using op_plugin::utils::avg_pool2d_shape;
using op_plugin::utils::check_adaptive_avg_backward;
using op_plugin::utils::check_floating;
using op_plugin::utils::check_pad_backward;
using op_plugin::utils::check_max_pool3d_backward;
using op_plugin::utils::check_max_unpool3d_args;
using op_plugin::utils::max_pool3d_with_indices_shape;
using op_plugin::utils::max_unpool_shape;
using op_plugin::utils::reflection_pad2d_shape;

at::Tensor& adaptive_avg_run(const at::Tensor& self, at::IntArrayRef output_size, int64_t spatial, at::Tensor& out) {
  if (out.numel() == 0) return out;
  if (spatial == 2) {
    EXEC_NPU_CMD(aclnnAdaptiveAvgPool2d, self, output_size, out);
  } else {
    EXEC_NPU_CMD(aclnnAdaptiveAvgPool3d, self, output_size, out);
  }
  return out;
}

at::Tensor& adaptive_avg_backward_run(const at::Tensor& grad_output, const at::Tensor& self, int64_t spatial,
                                      at::Tensor& grad_input) {
  const char* op = spatial == 2 ? "adaptive_avg_pool2d_backward" : "adaptive_avg_pool3d_backward";
  check_adaptive_avg_backward(op, grad_output, self);
  if (grad_input.numel() == 0) return grad_input;
  if (spatial == 2) {
    EXEC_NPU_CMD(aclnnAdaptiveAvgPool2dBackward, grad_output, self, grad_input);
  } else {
    EXEC_NPU_CMD(aclnnAdaptiveAvgPool3dBackward, grad_output, self, grad_input);
  }
  return grad_input;
}

at::Tensor& avg_pool2d_run(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                           at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                           c10::optional<int64_t> divisor_override, at::Tensor& out) {
  if (out.numel() == 0) return out;
  const int64_t divisor = divisor_override.value_or(0);
  const int8_t cube_math_type = 0;
  EXEC_NPU_CMD(aclnnAvgPool2d, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor,
               cube_math_type, out);
  return out;
}

at::Tensor& max_unpool_run(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                           at::IntArrayRef stride, at::IntArrayRef padding, int64_t spatial, at::Tensor& out) {
  if (out.numel() == 0) return out;
  if (spatial == 2) {
    EXEC_NPU_CMD(aclnnMaxUnpool2d, self, indices, output_size, out);
  } else {
    EXEC_NPU_CMD(aclnnMaxUnpool3d, self, indices, output_size, stride, padding, out);
  }
  return out;
}

}  // namespace

at::Tensor& avg_pool2d_out(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                           at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                           c10::optional<int64_t> divisor_override, at::Tensor& out) {
  const std::vector<int64_t> shape = avg_pool2d_shape(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  check_floating("avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  return avg_pool2d_run(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, out);
}

at::Tensor avg_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                      at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                      c10::optional<int64_t> divisor_override) {
  const std::vector<int64_t> shape = avg_pool2d_shape(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  check_floating("avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return avg_pool2d_run(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, out);
}

at::Tensor& adaptive_avg_pool2d_out(const at::Tensor& self, at::IntArrayRef output_size, at::Tensor& out) {
  const std::vector<int64_t> shape = adaptive_avg_shape("adaptive_avg_pool2d", self, output_size, 2);
  check_floating("adaptive_avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  return adaptive_avg_run(self, output_size, 2, out);
}

at::Tensor _adaptive_avg_pool2d(const at::Tensor& self, at::IntArrayRef output_size) {
  const std::vector<int64_t> shape = adaptive_avg_shape("adaptive_avg_pool2d", self, output_size, 2);
  check_floating("adaptive_avg_pool2d", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return adaptive_avg_run(self, output_size, 2, out);
}

at::Tensor _adaptive_avg_pool2d_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return adaptive_avg_backward_run(grad_output, self, 2, grad_input);
}

at::Tensor& adaptive_avg_pool3d_out(const at::Tensor& self, at::IntArrayRef output_size, at::Tensor& out) {
  const std::vector<int64_t> shape = adaptive_avg_shape("adaptive_avg_pool3d", self, output_size, 3);
  check_floating("adaptive_avg_pool3d", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  return adaptive_avg_run(self, output_size, 3, out);
}

at::Tensor _adaptive_avg_pool3d(const at::Tensor& self, at::IntArrayRef output_size) {
  const std::vector<int64_t> shape = adaptive_avg_shape("adaptive_avg_pool3d", self, output_size, 3);
  check_floating("adaptive_avg_pool3d", self);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return adaptive_avg_run(self, output_size, 3, out);
}

at::Tensor& adaptive_avg_pool3d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                             at::Tensor& grad_input) {
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  return adaptive_avg_backward_run(grad_output, self, 3, grad_input);
}

at::Tensor _adaptive_avg_pool3d_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return adaptive_avg_backward_run(grad_output, self, 3, grad_input);
}

::std::tuple<at::Tensor&, at::Tensor&> max_pool3d_with_indices_out(const at::Tensor& self,
                                                                    at::IntArrayRef kernel_size,
                                                                    at::IntArrayRef stride, at::IntArrayRef padding,
                                                                    at::IntArrayRef dilation, bool ceil_mode,
                                                                    at::Tensor& out, at::Tensor& indices) {
  const std::vector<int64_t> shape =
      max_pool3d_with_indices_shape(self, kernel_size, stride, padding, dilation, ceil_mode);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  OpPreparation::check_tensor({self}, indices, at::kLong, shape);
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnMaxPool3dWithArgmax, self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  }
  return std::tie(out, indices);
}

::std::tuple<at::Tensor, at::Tensor> max_pool3d_with_indices(const at::Tensor& self, at::IntArrayRef kernel_size,
                                                              at::IntArrayRef stride, at::IntArrayRef padding,
                                                              at::IntArrayRef dilation, bool ceil_mode) {
  const std::vector<int64_t> shape =
      max_pool3d_with_indices_shape(self, kernel_size, stride, padding, dilation, ceil_mode);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format(shape, self.options().dtype(at::kLong));
  if (out.numel() > 0) {
    EXEC_NPU_CMD(aclnnMaxPool3dWithArgmax, self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  }
  return std::make_tuple(out, indices);
}

at::Tensor& max_pool3d_with_indices_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                                 at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                                 at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
                                                 const at::Tensor& indices, at::Tensor& grad_input) {
  check_max_pool3d_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self, indices}, grad_input, self.scalar_type(), self.sizes());
  if (grad_input.numel() > 0) {
    EXEC_NPU_CMD(aclnnMaxPool3dWithArgmaxBackward, grad_output, self, indices, kernel_size, stride, padding, dilation,
                 ceil_mode, grad_input);
  }
  return grad_input;
}

at::Tensor max_pool3d_with_indices_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                            at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                            at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
                                            const at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return max_pool3d_with_indices_backward_out(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                                              indices, grad_input);
}

at::Tensor& max_unpool2d_out(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                             at::Tensor& out) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool2d", self, indices, output_size, 2);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, indices}, out, self.scalar_type(), shape);
  return max_unpool_run(self, indices, output_size, {}, {}, 2, out);
}

at::Tensor max_unpool2d(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool2d", self, indices, output_size, 2);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return max_unpool_run(self, indices, output_size, {}, {}, 2, out);
}

at::Tensor& max_unpool3d_out(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                             at::IntArrayRef stride, at::IntArrayRef padding, at::Tensor& out) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool3d", self, indices, output_size, 3);
  check_max_unpool3d_args(stride, padding);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, indices}, out, self.scalar_type(), shape);
  return max_unpool_run(self, indices, output_size, stride, padding, 3, out);
}

at::Tensor max_unpool3d(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                        at::IntArrayRef stride, at::IntArrayRef padding) {
  const std::vector<int64_t> shape = max_unpool_shape("max_unpool3d", self, indices, output_size, 3);
  check_max_unpool3d_args(stride, padding);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  return max_unpool_run(self, indices, output_size, stride, padding, 3, out);
}

at::Tensor& reflection_pad2d_out(const at::Tensor& self, at::IntArrayRef padding, at::Tensor& out) {
  const std::vector<int64_t> shape = reflection_pad2d_shape(self, padding);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), shape);
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnReflectionPad2d, self, padding, out);
  return out;
}

at::Tensor reflection_pad2d(const at::Tensor& self, at::IntArrayRef padding) {
  const std::vector<int64_t> shape = reflection_pad2d_shape(self, padding);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape, self.options());
  if (out.numel() > 0) EXEC_NPU_CMD(aclnnReflectionPad2d, self, padding, out);
  return out;
}

at::Tensor& reflection_pad2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                          at::IntArrayRef padding, at::Tensor& grad_input) {
  check_pad_backward("reflection_pad2d_backward", grad_output, self, padding, 2);
  check_floating("reflection_pad2d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  if (grad_input.numel() > 0) EXEC_NPU_CMD(aclnnReflectionPad2dBackward, grad_output, self, padding, grad_input);
  return grad_input;
}

at::Tensor reflection_pad2d_backward(const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef padding) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return reflection_pad2d_backward_out(grad_output, self, padding, grad_input);
}

at::Tensor& replication_pad2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                           at::IntArrayRef padding, at::Tensor& grad_input) {
  check_pad_backward("replication_pad2d_backward", grad_output, self, padding, 2);
  check_floating("replication_pad2d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  if (grad_input.numel() > 0) EXEC_NPU_CMD(aclnnReplicationPad2dBackward, grad_output, self, padding, grad_input);
  return grad_input;
}

at::Tensor replication_pad2d_backward(const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef padding) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return replication_pad2d_backward_out(grad_output, self, padding, grad_input);
}

at::Tensor& replication_pad3d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                           at::IntArrayRef padding, at::Tensor& grad_input) {
  check_pad_backward("replication_pad3d_backward", grad_output, self, padding, 3);
  check_floating("replication_pad3d_backward", self);
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({grad_output, self}, grad_input, self.scalar_type(), self.sizes());
  if (grad_input.numel() > 0) EXEC_NPU_CMD(aclnnReplicationPad3dBackward, grad_output, self, padding, grad_input);
  return grad_input;
}

at::Tensor replication_pad3d_backward(const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef padding) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor grad_input = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return replication_pad3d_backward_out(grad_output, self, padding, grad_input);
}

}  // namespace op_api
