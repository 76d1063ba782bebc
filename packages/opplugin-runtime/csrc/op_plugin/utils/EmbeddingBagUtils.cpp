#include "op_plugin/utils/EmbeddingBagUtils.h"

#include <ATen/ops/cumsum.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/zeros.h>
#include <c10/util/Exception.h>

#include "npu/op_common/OpPreparation.h"

namespace op_plugin::utils {
namespace {

constexpr int64_t kModeSum = 0, kModeMean = 1, kModeMax = 2;

bool is_index(at::ScalarType t) { return t == at::kLong || t == at::kInt; }

// CPU's fast path of a sum leaves offset2bag empty (it is not needed there).
bool sum_fast_path(const at::Tensor& weight, const at::Tensor& per_sample_weights, int64_t padding_idx) {
  const at::ScalarType t = weight.scalar_type();
  return (t == at::kFloat || t == at::kHalf || t == at::kBFloat16) && weight.stride(1) == 1 &&
         (!per_sample_weights.defined() || per_sample_weights.stride(0) == 1) && padding_idx < 0;
}

}  // namespace

EmbeddingBagOutputs prepare_embedding_bag(const char* op, const at::Tensor& weight, const at::Tensor& indices,
                                          const at::Tensor& offsets, int64_t mode,
                                          const c10::optional<at::Tensor>& per_sample_weights,
                                          bool include_last_offset, int64_t padding_idx, bool requires_grad) {
  TORCH_CHECK(indices.dim() == 1 || indices.dim() == 2, op, ": input has to be a 1D or 2D Tensor, but got Tensor of "
              "dimension ", indices.dim());
  TORCH_CHECK(indices.dim() == 1, op, ": 2-D indices are not supported on npu (embedding_bag passes them flattened, "
              "with offsets)");
  TORCH_CHECK(offsets.dim() == 1, op, ": offsets has to be a 1D Tensor, but got Tensor of dimension ", offsets.dim());
  TORCH_CHECK(is_index(indices.scalar_type()), op, ": Expected tensor for argument #1 'indices' to have one of the "
              "following scalar types: Long, Int; but got ", indices.scalar_type());
  TORCH_CHECK(is_index(offsets.scalar_type()), op, ": Expected tensor for argument #1 'offsets' to have one of the "
              "following scalar types: Long, Int; but got ", offsets.scalar_type());
  const at::ScalarType dtype = weight.scalar_type();
  TORCH_CHECK(dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kFloat || dtype == at::kDouble, op,
              ": Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, BFloat16, "
              "Float, Double; but got ", dtype);
  TORCH_CHECK(weight.dim() == 2, op, ": weight has to be a 2D Tensor, but got Tensor of dimension ", weight.dim());
  TORCH_CHECK(mode == kModeSum || mode == kModeMean || mode == kModeMax, op, ": mode ", mode,
              " is not 0 (sum), 1 (mean) or 2 (max)");
  for (const at::Tensor* t : {&indices, &offsets}) {
    TORCH_CHECK(t->device() == weight.device(), op, ": indices and offsets must be on weight's device ",
                weight.device(), ", got ", t->device());
  }
  EmbeddingBagOutputs r;
  const at::ScalarType index_type = at::promoteTypes(indices.scalar_type(), offsets.scalar_type());
  r.indices = (indices.scalar_type() == index_type ? indices : indices.to(index_type)).contiguous();
  r.offsets = (offsets.scalar_type() == index_type ? offsets : offsets.to(index_type)).contiguous();
  if (per_sample_weights.has_value() && per_sample_weights->defined()) {
    const at::Tensor& psw = *per_sample_weights;
    TORCH_CHECK(mode == kModeSum, op, ": embedding_bag: per_sample_weights only supported with mode='sum'");
    TORCH_CHECK(psw.scalar_type() == dtype, op, ": Expected tensor for argument #1 'per_sample_weights' to have the "
                "same type as tensor for argument #1 'weight'; but type ", psw.scalar_type(), " does not equal ",
                dtype);
    TORCH_CHECK(psw.dim() == 1 && psw.numel() == indices.numel(), op, ": per_sample_weights ", psw.sizes(),
                " must be 1-D with one weight per index (", indices.numel(), ")");
    TORCH_CHECK(psw.device() == weight.device(), op, ": per_sample_weights must be on weight's device");
    r.per_sample_weights = psw;
  }
  const int64_t num_offsets = offsets.size(0);
  if (include_last_offset) {
    TORCH_CHECK(num_offsets >= 1, op, ": include_last_offset: number of offset should be at least 1");
  }
  r.num_bags = num_offsets - (include_last_offset ? 1 : 0);
  using at_npu::native::OpPreparation;
  const at::TensorOptions index_options = r.offsets.options();
  const bool fast = mode == kModeSum && sum_fast_path(weight, r.per_sample_weights, padding_idx);
  r.output = OpPreparation::apply_tensor_without_format({r.num_bags, weight.size(1)}, weight.options());
  r.offset2bag = OpPreparation::apply_tensor_without_format({fast ? 0 : indices.size(0)}, index_options);
  const bool sized = requires_grad || mode != kModeSum;
  r.bag_size = OpPreparation::apply_tensor_without_format({sized ? r.num_bags : num_offsets}, index_options);
  r.max_indices = mode == kModeMax
                      ? OpPreparation::apply_tensor_without_format({r.num_bags, weight.size(1)}, index_options)
                      : OpPreparation::apply_tensor_without_format(r.bag_size.sizes(), index_options);
  return r;
}

at::Tensor offset2bag_of(const at::Tensor& offsets, int64_t num_indices) {
  // ones at the offsets' positions, the first less one, summed: [0 0 1 1 2] for offsets [0 2 4] of 5 indices
  at::Tensor marks = at::zeros({num_indices + 1}, offsets.options());
  marks.index_add_(0, offsets, at::ones_like(offsets));
  marks.narrow(0, 0, 1).sub_(1);
  return at::cumsum(marks, 0).narrow(0, 0, num_indices);
}

at::Tensor embedding_bag_per_sample_weights_grad(const at::Tensor& grad, const at::Tensor& weight,
                                                 const at::Tensor& indices, const at::Tensor& offsets,
                                                 const at::Tensor& offset2bag, int64_t mode, int64_t padding_idx) {
  const char* op = "_embedding_bag_per_sample_weights_backward";
  TORCH_CHECK(mode == kModeSum, op, ": embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  TORCH_CHECK(grad.dim() == 2 && weight.dim() == 2 && grad.size(1) == weight.size(1), op, ": grad ", grad.sizes(),
              " and weight ", weight.sizes(), " must be 2-D with the same embedding size");
  TORCH_CHECK(indices.dim() == 1 && is_index(indices.scalar_type()), op, ": indices must be 1-D Long or Int, got ",
              indices.sizes(), " ", indices.scalar_type());
  const at::ScalarType index_type = at::promoteTypes(indices.scalar_type(), offsets.scalar_type());
  const at::Tensor idx = indices.to(index_type);
  const int64_t n = indices.size(0);
  const at::Tensor bags = (n != 0 && offset2bag.numel() == 0) ? offset2bag_of(offsets.to(index_type), n)
                                                               : offset2bag;
  at::Tensor out = grad.index_select(0, bags).mul(weight.index_select(0, idx)).sum(1);
  if (padding_idx >= 0) out.masked_fill_(idx.eq(padding_idx), 0);
  return out;
}

}  // namespace op_plugin::utils
