// _embedding_bag / _embedding_bag_forward_only on the op_api path (aclnnEmbeddingBag), and the gradients
// autograd takes through _embedding_bag_backward: _embedding_bag_dense_backward (device ops: the rows each bag
// got, scaled, added into the weight's gradient; max mode: the maxima's rows) and
// _embedding_bag_per_sample_weights_backward.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/_embedding_bag_dense_backward.h>
#include <ATen/ops/_embedding_bag_sparse_backward.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>

#include <tuple>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/_embedding_bag.h"
#include "op_plugin/ops/_embedding_bag_backward.h"
#include "op_plugin/ops/_embedding_bag_dense_backward.h"
#include "op_plugin/ops/_embedding_bag_forward_only.h"
#include "op_plugin/ops/_embedding_bag_per_sample_weights_backward.h"
#include "op_plugin/utils/EmbeddingBagUtils.h"

namespace op_api {
namespace {

constexpr int64_t kModeMean = 1, kModeMax = 2;

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> embedding_bag(
    const char* op, const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets,
    bool scale_grad_by_freq, int64_t mode, bool sparse, const c10::optional<at::Tensor>& per_sample_weights,
    bool include_last_offset, int64_t padding_idx, bool requires_grad) {
  c10_npu::NPUGuard guard(weight.device());
  auto r = op_plugin::utils::prepare_embedding_bag(op, weight, indices, offsets, mode, per_sample_weights,
                                                   include_last_offset, padding_idx, requires_grad);
  EXEC_NPU_CMD(aclnnEmbeddingBag, weight, r.indices, r.offsets, scale_grad_by_freq, mode, sparse,
               r.per_sample_weights, include_last_offset, padding_idx, r.output, r.offset2bag, r.bag_size,
               r.max_indices);
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

// What torch's CompositeImplicit version did: offset2bag made where the forward left it empty, then the
// dense (or sparse) gradient.
at::Tensor _embedding_bag_backward(const at::Tensor& grad, const at::Tensor& indices, const at::Tensor& offsets,
                                   const at::Tensor& offset2bag, const at::Tensor& bag_size,
                                   const at::Tensor& maximum_indices, int64_t num_weights, bool scale_grad_by_freq,
                                   int64_t mode, bool sparse, const c10::optional<at::Tensor>& per_sample_weights,
                                   int64_t padding_idx) {
  c10_npu::NPUGuard guard(grad.device());
  const at::ScalarType index_type = at::promoteTypes(indices.scalar_type(), offsets.scalar_type());
  const at::Tensor idx = indices.to(index_type).contiguous();
  const at::Tensor off = offsets.to(index_type).contiguous();
  const at::Tensor bags = idx.numel() != 0 && offset2bag.numel() == 0
                              ? op_plugin::utils::offset2bag_of(off, idx.size(0)) : offset2bag;
  if (sparse) {
    return at::_embedding_bag_sparse_backward(grad, idx, off, bags, bag_size, num_weights, scale_grad_by_freq, mode,
                                              per_sample_weights, padding_idx);
  }
  return at::_embedding_bag_dense_backward(grad, idx, bags, bag_size, maximum_indices, num_weights,
                                           scale_grad_by_freq, mode, per_sample_weights, padding_idx);
}

at::Tensor _embedding_bag_dense_backward(const at::Tensor& grad, const at::Tensor& indices,
                                         const at::Tensor& offset2bag, const at::Tensor& bag_size,
                                         const at::Tensor& maximum_indices, int64_t num_weights,
                                         bool scale_grad_by_freq, int64_t mode,
                                         const c10::optional<at::Tensor>& per_sample_weights, int64_t padding_idx) {
  const char* op = "_embedding_bag_dense_backward";
  const at::ScalarType dtype = grad.scalar_type();
  TORCH_CHECK(dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kFloat || dtype == at::kDouble, op,
              ": Expected tensor for argument #1 'grad_' to have one of the following scalar types: Half, BFloat16, "
              "Float, Double; but got ", dtype);
  TORCH_CHECK(grad.dim() == 2, op, ": grad must be 2-D, got ", grad.sizes());
  c10_npu::NPUGuard guard(grad.device());
  at::Tensor grad_weight = at::zeros({num_weights, grad.size(1)}, grad.options());
  if (mode == kModeMax) {  // each maximum's row gets its bag's gradient (empty bags have none)
    const at::Tensor nonempty = bag_size.nonzero().view(-1);
    return grad_weight.scatter_add_(0, maximum_indices.index_select(0, nonempty), grad.index_select(0, nonempty));
  }
  if (indices.numel() == 0) return grad_weight;
  // the scale of each index's row: its sample weight, over its word's count, over its bag's size (mean)
  at::Tensor scale = per_sample_weights.has_value() && per_sample_weights->defined()
                         ? per_sample_weights->to(at::kDouble)
                         : at::ones({indices.numel()}, grad.options().dtype(at::kDouble));
  if (scale_grad_by_freq) {  // each word's count of occurrences (CUDA's; CPU's kernel divides by another word's)
    const at::Tensor ones = at::ones({indices.numel()}, scale.options());
    scale = scale.div(at::zeros({num_weights}, scale.options()).index_add_(0, indices, ones).index_select(0, indices));
  }
  if (mode == kModeMean) {
    const at::Tensor sizes = bag_size.index_select(0, offset2bag).to(at::kDouble);
    scale = scale.div(sizes.masked_fill(sizes.eq(0), 1));
  }
  at::Tensor rows = grad.index_select(0, offset2bag).mul(scale.to(dtype).unsqueeze(1));
  if (padding_idx >= 0) rows.masked_fill_(indices.eq(padding_idx).unsqueeze(1), 0);
  return grad_weight.index_add_(0, indices, rows);
}

at::Tensor _embedding_bag_per_sample_weights_backward(const at::Tensor& grad, const at::Tensor& weight,
                                                      const at::Tensor& indices, const at::Tensor& offsets,
                                                      const at::Tensor& offset2bag, int64_t mode,
                                                      int64_t padding_idx) {
  c10_npu::NPUGuard guard(grad.device());
  return op_plugin::utils::embedding_bag_per_sample_weights_grad(grad, weight, indices, offsets, offset2bag, mode,
                                                                 padding_idx);
}

}  // namespace op_api
