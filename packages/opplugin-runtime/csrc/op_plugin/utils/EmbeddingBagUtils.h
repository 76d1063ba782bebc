// What _embedding_bag / _embedding_bag_forward_only share on both paths: torch's argument checks (CPU's
// messages) and its four outputs allocated as CPU shapes them; and the per-sample weights' gradient, one
// composition of device ops for both paths.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

struct EmbeddingBagOutputs {
  at::Tensor indices, offsets;  // of their common index dtype
  at::Tensor per_sample_weights;  // undefined when absent
  int64_t num_bags = 0;
  // output [num_bags, dim]; offset2bag [indices] or empty where CPU skips it (the sum fast path);
  // bag_size [num_bags] (or [offsets] for a forward-only sum); max_indices [num_bags, dim] in max mode, else
  // bag_size's shape
  at::Tensor output, offset2bag, bag_size, max_indices;
};

// `op`'s checks, then its outputs on weight's device (requires_grad: _embedding_bag, else the forward-only op).
EmbeddingBagOutputs prepare_embedding_bag(const char* op, const at::Tensor& weight, const at::Tensor& indices,
                                          const at::Tensor& offsets, int64_t mode,
                                          const c10::optional<at::Tensor>& per_sample_weights,
                                          bool include_last_offset, int64_t padding_idx, bool requires_grad);

// _embedding_bag_per_sample_weights_backward: grad[bag of i] . weight[indices[i]] per index (0 at padding_idx).
at::Tensor embedding_bag_per_sample_weights_grad(const at::Tensor& grad, const at::Tensor& weight,
                                                 const at::Tensor& indices, const at::Tensor& offsets,
                                                 const at::Tensor& offset2bag, int64_t mode, int64_t padding_idx);

// torch's offset2bag of `offsets` for `num_indices` indices (the bag of each index).
at::Tensor offset2bag_of(const at::Tensor& offsets, int64_t num_indices);

}  // namespace op_plugin::utils
