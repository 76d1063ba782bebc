// _embedding_bag / _embedding_bag_forward_only on the acl_op path ("EmbeddingBag"; CANN's type takes
// float32, float16 and bfloat16 weights), and _embedding_bag_per_sample_weights_backward (the device ops
// op_api composes too, each on its acl_op path). Checks and output shapes are the op_api kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <string>
#include <tuple>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "op_plugin/ops/_embedding_bag.h"
#include "op_plugin/ops/_embedding_bag_forward_only.h"
#include "op_plugin/ops/_embedding_bag_per_sample_weights_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/EmbeddingBagUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> embedding_bag(
    const char* op, const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets,
    bool scale_grad_by_freq, int64_t mode, bool sparse, const c10::optional<at::Tensor>& per_sample_weights,
    bool include_last_offset, int64_t padding_idx, bool requires_grad) {
  c10_npu::NPUGuard guard(weight.device());
  auto r = op_plugin::utils::prepare_embedding_bag(op, weight, indices, offsets, mode, per_sample_weights,
                                                   include_last_offset, padding_idx, requires_grad);
  const at::ScalarType dtype = weight.scalar_type();
  TORCH_CHECK(dtype != at::kDouble, op, ": weight of dtype Double is not supported on the acl_op path (CANN's "
              "EmbeddingBag takes Float, Half and BFloat16)");
  static const char* const kModes[] = {"sum", "mean", "max"};
  OpCommand cmd;
  cmd.Name("EmbeddingBag");
  op_plugin::utils::AddInputAs(cmd, weight, dtype);
  cmd.Input(r.indices).Input(r.offsets);
  if (r.per_sample_weights.defined()) op_plugin::utils::AddInputAs(cmd, r.per_sample_weights, dtype);
  cmd.Output(r.output)
      .Output(r.offset2bag)
      .Output(r.bag_size)
      .Output(r.max_indices)
      .Attr("mode", std::string(kModes[mode]))
      .Attr("scale_grad_by_freq", scale_grad_by_freq)
      .Attr("sparse", sparse)
      .Attr("include_last_offset", include_last_offset)
      .Attr("padding_idx", padding_idx)
      .Run();
  return std::make_tuple(r.output, r.offset2bag, r.bag_size, r.max_indices);
}

}  // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> _embedding_bag(
    const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets, bool scale_grad_by_freq,
    int64_t mode, bool sparse, const c10::optional<at::Tensor>& per_sample_weights, bool include_last_offset,
    int64_t padding_idx) {
  return embedding_bag("_embedding_bag", weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                       per_sample_weights, include_last_offset, padding_idx, true);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> _embedding_bag_forward_only(
    const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets, bool scale_grad_by_freq,
    int64_t mode, bool sparse, const c10::optional<at::Tensor>& per_sample_weights, bool include_last_offset,
    int64_t padding_idx) {
  return embedding_bag("_embedding_bag_forward_only", weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                       per_sample_weights, include_last_offset, padding_idx, false);
}

at::Tensor _embedding_bag_per_sample_weights_backward(const at::Tensor& grad, const at::Tensor& weight,
                                                      const at::Tensor& indices, const at::Tensor& offsets,
                                                      const at::Tensor& offset2bag, int64_t mode,
                                                      int64_t padding_idx) {
  c10_npu::NPUGuard guard(grad.device());
  return op_plugin::utils::embedding_bag_per_sample_weights_grad(grad, weight, indices, offsets, offset2bag, mode,
                                                                 padding_idx);
}

}  // namespace acl_op
