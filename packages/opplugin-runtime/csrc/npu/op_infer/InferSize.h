// Output-shape helpers of op_plugin: what `size:` expressions of gen_opapi kernels
// (ours and upstream's op_plugin_functions.yaml) and hand-written kernels call.
// Names, parameters and results follow upstream's op_infer helpers; each returns
// the shape the operator's output has (the shape PyTorch's Meta kernel gives for
// aten operators) and raises a TORCH_CHECK naming the operator for inputs the
// operator refuses.
//
// This header is the one generated code includes: it also brings the dtype
// helpers (InferDtype.h), the attribute helpers (NewParams.h), op_plugin::utils
// (OpUtils.h) and the searchsorted argument checks (Searchsorted.h).
#pragma once

#include <tuple>
#include <vector>

#include <ATen/ExpandUtils.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/result_type.h>
#include <ATen/ops/result_type_native.h>
#include <c10/util/OptionalArrayRef.h>
#include <c10/util/SmallVector.h>
#include <c10/util/string_view.h>

namespace op_infer {

// Inline capacity of the shape vectors (upstream's op_infer::SIZE) and of dim lists (N).
constexpr int SIZE = 8;
constexpr int N = 32;

using SmallVector = c10::SmallVector<int64_t, SIZE>;

// ---- elementwise and broadcasting ----------------------------------------------------------

// The broadcast shape of two tensors (error names both shapes, as on CPU).
SmallVector broadcast_ops_npu_output_size(const at::Tensor& self, const at::Tensor& other);
SmallVector broadcast_ops_npu_output_size(c10::IntArrayRef self_sizes, c10::IntArrayRef other_sizes);

// The shape of `input` (elementwise unary ops).
SmallVector input_same_output_size(const at::Tensor& input);

// clamp(self, min, max) with optional tensor bounds: self broadcast with each present bound.
SmallVector clamp_npu_output_size(const at::Tensor& self, const c10::optional<at::Tensor>& min,
                                  const c10::optional<at::Tensor>& max);

// isclose(self, other, ...): the broadcast shape of self and other.
SmallVector isclose_output_size(const at::Tensor& self, const at::Tensor& other, double rtol, double atol,
                                bool equal_nan);

// addr(self, vec1, vec2): (vec1.size(0), vec2.size(0)).
SmallVector addr_npu_output_size(const at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2);

// ---- reductions, shape ops ------------------------------------------------------------------

// Reducing `dim` of self (negative dims wrapped, an empty list reduces every dim),
// keeping size-1 dims when keepdim.
SmallVector reduce_ops_npu_output_size(const at::Tensor& self, c10::IntArrayRef dim, bool keepdim);

// self.repeat(repeats).
SmallVector repeat_npu_output_size(const at::Tensor& self, c10::IntArrayRef repeats);

// torch.stack(tensors, dim).
SmallVector stack_output_size(at::TensorList tensors, int64_t dim);

// glu(self, dim): self with dim halved.
SmallVector glu_npu_output_size(const at::Tensor& self, int64_t dim);

// npu_swiglu backward / forward shape: x with dim halved.
SmallVector swiglu_backward_infershape(const at::Tensor& x, int64_t dim);

// ---- linear algebra -------------------------------------------------------------------------

// cdist(x1, x2): batch dims broadcast, then (x1.size(-2), x2.size(-2)).
SmallVector cdist_npu_output_size(const at::Tensor& x1, const at::Tensor& x2);

// triangular_solve(self, A): the shapes of (solution, cloned_coefficient).
std::tuple<SmallVector, SmallVector> triangular_solve_output_size(const at::Tensor& self, const at::Tensor& A);

// ---- pooling, padding, im2col ---------------------------------------------------------------

// adaptive_avg_pool3d(self, output_size): leading dims of self, then output_size.
SmallVector adaptive_avg_pool3d_npu_output_size(const at::Tensor& self, c10::IntArrayRef output_size);

// adaptive_max_pool2d / max_unpool2d: leading dims of self, then output_size (2 values).
SmallVector max_pool2d_out_size(const at::Tensor& self, at::IntArrayRef output_size);

// max_unpool3d: leading dims of self, then output_size (3 values).
SmallVector max_pool3d_output_size(const at::Tensor& self, at::IntArrayRef output_size);

// reflection_padNd / replication_padNd(self, padding): the last N dims grow by their padding
// (padding lists the last dim first: left, right, top, bottom, front, back).
SmallVector reflection_pad1d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding);
SmallVector reflection_pad2d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding);
SmallVector reflection_pad3d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding);
SmallVector replication_pad1d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding);
SmallVector replication_pad2d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding);
SmallVector replication_pad3d_npu_out_size(const at::Tensor& self, at::IntArrayRef padding);

// col2im(grad_output, input_size, kernel_size): (N, C / prod(kernel_size), input_size...).
SmallVector im2col_backward_npu_output_size(const at::Tensor& grad_output, const at::IntArrayRef& input_size,
                                            const at::IntArrayRef& kernel_size);

// ---- normalisation and activations of npu_* custom operators --------------------------------

// npu_rms_norm family: {y shape (= self), rstd shape (self's leading dims, 1 for gamma's dims)}.
std::vector<SmallVector> rms_norm_npu_output_size(const at::Tensor& self, const at::Tensor& gamma);

// npu_gelu_mul: input with its last dim halved.
SmallVector npu_gelu_mul_output_size(const at::Tensor& input);

// npu_cross_entropy_loss outputs.
SmallVector npu_cross_entropy_loss_loss_output_size(const at::Tensor& input, c10::string_view reduction);
SmallVector npu_cross_entropy_loss_lse_for_zloss_output_size(const at::Tensor& input,
                                                             float lse_square_scale_for_zloss);
SmallVector npu_cross_entropy_loss_zloss_output_size(const at::Tensor& input, c10::string_view reduction,
                                                     bool return_zloss);

// npu_group_quant: x's shape (int4 packs eight values in an int32 of the last dim).
SmallVector npu_group_quant_out_size(const at::Tensor& x, c10::optional<at::ScalarType> dst_dtype);

// npu_gather_sparse_index(input, index): index's shape followed by input's trailing dims.
SmallVector npu_gather_sparse_index_out_size(const at::Tensor& input, const at::Tensor& index);

// ---- mixture of experts ---------------------------------------------------------------------

SmallVector npu_moe_token_permute_out_size(const at::Tensor& tokens, const at::Tensor& indices,
                                           c10::optional<int64_t> num_out_tokens);
SmallVector npu_moe_token_permute_grad_out_size(const at::Tensor& tokens, const at::Tensor& permuted_tokens,
                                                const at::Tensor& indices, const at::Tensor& sorted_indices);
SmallVector npu_moe_token_permute_grad_v2_out_size(const int64_t tokens_size_0,
                                                   const at::Tensor& grad_permuted_tokens,
                                                   const at::Tensor& sorted_indices);
SmallVector npu_moe_token_unpermute_grad_permuted_tokens_out_size(const at::Tensor& permuted_tokens,
                                                                  const at::Tensor& grad_unpermuted_tokens,
                                                                  const at::Tensor& sorted_indices,
                                                                  const c10::optional<at::Tensor>& probs);
SmallVector npu_moe_token_unpermute_grad_probs_out_size(const at::Tensor& permuted_tokens,
                                                        const at::Tensor& grad_unpermuted_tokens,
                                                        const at::Tensor& sorted_indices,
                                                        const c10::optional<at::Tensor>& probs);
SmallVector npu_moe_token_unpermute_grad_v2_permuted_tokens_out_size(const int64_t permuted_tokens_size_0,
                                                                     const at::Tensor& grad_unpermuted_tokens,
                                                                     const at::Tensor& sorted_indices,
                                                                     const c10::optional<at::Tensor>& probs);
SmallVector npu_moe_token_unpermute_grad_v2_probs_out_size(const at::Tensor& grad_unpermuted_tokens,
                                                           const at::Tensor& sorted_indices,
                                                           const c10::optional<at::Tensor>& probs);

// npu_moe_distribute_* (expert-parallel dispatch/combine in setup/teardown halves): the
// shapes of the operator's outputs, in the order of its schema's returns.
std::vector<SmallVector> npu_moe_distribute_dispatch_setup_out_size(
    const at::Tensor& x, const at::Tensor& expert_ids, int64_t ep_world_size, int64_t ep_rank_id,
    int64_t moe_expert_num, int64_t expert_shard_type, int64_t shared_expert_num, int64_t shared_expert_rank_num,
    int64_t quant_mode, c10::optional<int64_t> y_dtype);
std::vector<SmallVector> npu_moe_distribute_dispatch_teardown_out_size(
    const at::Tensor& x, const at::Tensor expert_ids, int64_t ep_world_size, int64_t ep_rank_id,
    int64_t moe_expert_num, int64_t expert_shard_type, int64_t shared_expert_rank_num, int64_t global_bs,
    int64_t quant_mode);
std::vector<SmallVector> npu_moe_distribute_combine_setup_out_size(const at::Tensor expand_x, int64_t ep_world_size);
std::vector<SmallVector> npu_moe_distribute_combine_teardown_out_size(const at::Tensor expand_x,
                                                                      const at::Tensor expert_ids);

// ---- native sparse attention ----------------------------------------------------------------

SmallVector npu_nsa_compress_out_size(const at::Tensor& input, c10::optional<int64_t> actual_seq_len_type,
                                      at::OptionalIntArrayRef actual_seq_len, int64_t compress_block_size,
                                      int64_t compress_stride);
SmallVector npu_nsa_compress_attention_infer_out_size(const at::Tensor& query, const at::Tensor& value,
                                                      int64_t key_value_head_num, c10::string_view layout);
SmallVector npu_nsa_compress_attention_infer_topk_out_size(const at::Tensor& query, int64_t key_value_head_num,
                                                           int64_t select_block_count, c10::string_view layout);
SmallVector npu_nsa_select_attention_infer_out_size(const at::Tensor& query, const at::Tensor& value,
                                                    int64_t head_num, int64_t key_value_head_num,
                                                    c10::string_view layout);

}  // namespace op_infer

#include "npu/op_infer/InferDtype.h"
#include "npu/op_infer/NewParams.h"
#include "npu/op_infer/OpUtils.h"
#include "npu/op_infer/Searchsorted.h"
