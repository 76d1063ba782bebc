// Output shapes of npu_* custom operators (the custom-operator sections of InferSize.h).
// Each follows upstream's op_infer helper of the same name, cross-checked with upstream's Meta
// registrations, and refuses what would otherwise index out of range, divide by zero or give
// a shape the operator cannot produce.
#include <algorithm>
#include <initializer_list>
#include <string>

#include <c10/util/Exception.h>

#include "npu/op_infer/InferSize.h"

namespace op_infer {

namespace {

SmallVector ShapeOf(const at::Tensor& t) { return SmallVector(t.sizes().begin(), t.sizes().end()); }

// ceil(x / align), for align > 0.
int64_t CeilDiv(int64_t x, int64_t align) { return (x + align - 1) / align; }

// x rounded up to a multiple of align, for align > 0.
int64_t AlignUp(int64_t x, int64_t align) { return CeilDiv(x, align) * align; }

void CheckDim(const char* op, const char* name, const at::Tensor& t, int64_t dim) {
  TORCH_CHECK(t.dim() == dim, op, ": ", name, " must be ", dim, "-D, but got a ", t.dim(), "-D tensor");
}

void CheckDim(const char* op, const char* name, const at::Tensor& t, int64_t dim_a, int64_t dim_b) {
  TORCH_CHECK(t.dim() == dim_a || t.dim() == dim_b, op, ": ", name, " must be ", dim_a, "-D or ", dim_b,
              "-D, but got a ", t.dim(), "-D tensor");
}

// probs of npu_moe_token_unpermute*'s backward: absent, or 2-D.
bool HasProbs(const char* op, const c10::optional<at::Tensor>& probs) {
  if (!probs.has_value() || !probs->defined()) {
    return false;
  }
  CheckDim(op, "probs", *probs, 2);
  return true;
}

}  // namespace

// ---- activations, normalisation, losses, quantisation ----------------------------------------

SmallVector swiglu_backward_infershape(const at::Tensor& x, int64_t dim) {
  TORCH_CHECK(x.dim() > 0, "npu_swiglu: x must have at least one dim, but got a 0-D tensor");
  TORCH_CHECK(dim >= -x.dim() && dim < x.dim(), "npu_swiglu: dim must be in [", -x.dim(), ", ", x.dim() - 1,
              "] for a ", x.dim(), "-D x, but got ", dim);
  const int64_t wrapped = dim < 0 ? dim + x.dim() : dim;
  TORCH_CHECK(x.size(wrapped) % 2 == 0, "npu_swiglu: x.size(", dim, ") must be even (x is split in two halves), but got ",
              x.size(wrapped));
  SmallVector shape = ShapeOf(x);
  shape[wrapped] /= 2;
  return shape;
}

std::vector<SmallVector> rms_norm_npu_output_size(const at::Tensor& self, const at::Tensor& gamma) {
  TORCH_CHECK(gamma.dim() <= self.dim(), "npu_rms_norm: gamma (", gamma.dim(),
              "-D) must not have more dims than self (", self.dim(), "-D)");
  const int64_t batch_dims = self.dim() - gamma.dim();
  TORCH_CHECK(self.sizes().slice(batch_dims).equals(gamma.sizes()), "npu_rms_norm: gamma's shape ", gamma.sizes(),
              " must equal the trailing dims of self's shape ", self.sizes());
  SmallVector rstd;
  for (int64_t dim = 0; dim < self.dim(); ++dim) {
    rstd.push_back(dim < batch_dims ? self.size(dim) : 1);
  }
  return {ShapeOf(self), rstd};
}

SmallVector npu_gelu_mul_output_size(const at::Tensor& input) {
  TORCH_CHECK(input.dim() > 0, "npu_gelu_mul: input must have at least one dim, but got a 0-D tensor");
  TORCH_CHECK(input.size(-1) % 2 == 0,
              "npu_gelu_mul: input's last dim must be even (it is split in two halves), but got ", input.size(-1));
  SmallVector shape = ShapeOf(input);
  shape.back() /= 2;
  return shape;
}

namespace {

// The rows of npu_cross_entropy_loss's input (N of an (N, C) input), checked.
int64_t CrossEntropyRows(const at::Tensor& input) {
  CheckDim("npu_cross_entropy_loss", "input", input, 2);
  return input.size(0);
}

}  // namespace

SmallVector npu_cross_entropy_loss_loss_output_size(const at::Tensor& input, c10::string_view reduction) {
  const int64_t rows = CrossEntropyRows(input);
  TORCH_CHECK(reduction == "none" || reduction == "mean" || reduction == "sum",
              "npu_cross_entropy_loss: reduction must be 'none', 'mean' or 'sum', but got '",
              std::string(reduction.data(), reduction.size()), "'");
  // A reduced loss is one value, of shape (1,).
  return reduction == "none" ? SmallVector{rows} : SmallVector{1};
}

SmallVector npu_cross_entropy_loss_lse_for_zloss_output_size(const at::Tensor& input,
                                                             float lse_square_scale_for_zloss) {
  const int64_t rows = CrossEntropyRows(input);
  // Without a z-loss scale the output is an empty placeholder.
  return lse_square_scale_for_zloss != 0.0f ? SmallVector{rows} : SmallVector{0};
}

SmallVector npu_cross_entropy_loss_zloss_output_size(const at::Tensor& input, c10::string_view reduction,
                                                     bool return_zloss) {
  const SmallVector loss = npu_cross_entropy_loss_loss_output_size(input, reduction);
  return return_zloss ? loss : SmallVector{0};
}

SmallVector npu_group_quant_out_size(const at::Tensor& x, c10::optional<at::ScalarType> dst_dtype) {
  SmallVector shape = ShapeOf(x);
  if (dst_dtype.value_or(at::kChar) == at::kQUInt4x2) {
    constexpr int64_t kInt4PerInt32 = 8;
    TORCH_CHECK(x.dim() > 0, "npu_group_quant: x must have at least one dim for dst_dtype torch.quint4x2");
    TORCH_CHECK(x.size(-1) % kInt4PerInt32 == 0,
                "npu_group_quant: x's last dim must be a multiple of 8 for dst_dtype torch.quint4x2 (eight int4 "
                "values per int32), but got ",
                x.size(-1));
    shape.back() /= kInt4PerInt32;
  }
  return shape;
}

SmallVector npu_gather_sparse_index_out_size(const at::Tensor& input, const at::Tensor& index) {
  if (input.dim() == 0) {
    return ShapeOf(input);
  }
  constexpr int64_t kMaxDims = 8;
  TORCH_CHECK(input.dim() + index.dim() - 1 <= kMaxDims,
              "npu_gather_sparse_index: input.dim() + index.dim() - 1 must be at most 8, but input is ", input.dim(),
              "-D and index is ", index.dim(), "-D");
  SmallVector shape(index.sizes().begin(), index.sizes().end());
  shape.append(input.sizes().begin() + 1, input.sizes().end());
  return shape;
}

// ---- mixture of experts: token permutation ---------------------------------------------------

SmallVector npu_moe_token_permute_out_size(const at::Tensor& tokens, const at::Tensor& indices,
                                           c10::optional<int64_t> num_out_tokens) {
  constexpr const char* kOp = "npu_moe_token_permute";
  CheckDim(kOp, "tokens", tokens, 2);
  CheckDim(kOp, "indices", indices, 1, 2);
  const int64_t routed = indices.numel();
  const int64_t requested = num_out_tokens.value_or(0);
  // A positive num_out_tokens caps the routed tokens; zero or less drops that many from the end.
  TORCH_CHECK(requested >= -routed, kOp, ": num_out_tokens must not drop more than the ", routed,
              " routed tokens, but got ", requested);
  const int64_t rows = requested > 0 ? std::min(requested, routed) : routed + requested;
  return {rows, tokens.size(1)};
}

SmallVector npu_moe_token_permute_grad_out_size(const at::Tensor& tokens, const at::Tensor& permuted_tokens,
                                                const at::Tensor& indices, const at::Tensor& sorted_indices) {
  constexpr const char* kOp = "npu_moe_token_permute_grad";
  CheckDim(kOp, "tokens", tokens, 2);
  CheckDim(kOp, "grad_permuted_tokens", permuted_tokens, 2);
  CheckDim(kOp, "indices", indices, 1, 2);
  CheckDim(kOp, "sorted_indices", sorted_indices, 1, 2);
  return {tokens.size(0), permuted_tokens.size(1)};
}

SmallVector npu_moe_token_permute_grad_v2_out_size(const int64_t tokens_size_0,
                                                   const at::Tensor& grad_permuted_tokens,
                                                   const at::Tensor& sorted_indices) {
  constexpr const char* kOp = "npu_moe_token_permute_grad_v2";
  TORCH_CHECK(tokens_size_0 >= 0, kOp, ": tokens_size_0 must not be negative, but got ", tokens_size_0);
  CheckDim(kOp, "grad_permuted_tokens", grad_permuted_tokens, 2);
  CheckDim(kOp, "sorted_indices", sorted_indices, 1, 2);
  return {tokens_size_0, grad_permuted_tokens.size(1)};
}

SmallVector npu_moe_token_unpermute_grad_permuted_tokens_out_size(const at::Tensor& permuted_tokens,
                                                                  const at::Tensor& grad_unpermuted_tokens,
                                                                  const at::Tensor& sorted_indices,
                                                                  const c10::optional<at::Tensor>& probs) {
  constexpr const char* kOp = "npu_moe_token_unpermute_grad";
  CheckDim(kOp, "permuted_tokens", permuted_tokens, 2);
  CheckDim(kOp, "grad_unpermuted_tokens", grad_unpermuted_tokens, 2);
  CheckDim(kOp, "sorted_indices", sorted_indices, 1);
  HasProbs(kOp, probs);
  return ShapeOf(permuted_tokens);
}

SmallVector npu_moe_token_unpermute_grad_probs_out_size(const at::Tensor& permuted_tokens,
                                                        const at::Tensor& grad_unpermuted_tokens,
                                                        const at::Tensor& sorted_indices,
                                                        const c10::optional<at::Tensor>& probs) {
  (void)permuted_tokens;  // checked by the permuted_tokens helper of the same op
  (void)grad_unpermuted_tokens;
  (void)sorted_indices;
  // Without probs there is no probs gradient: a 0-D placeholder.
  return HasProbs("npu_moe_token_unpermute_grad", probs) ? ShapeOf(*probs) : SmallVector{};
}

SmallVector npu_moe_token_unpermute_grad_v2_permuted_tokens_out_size(const int64_t permuted_tokens_size_0,
                                                                     const at::Tensor& grad_unpermuted_tokens,
                                                                     const at::Tensor& sorted_indices,
                                                                     const c10::optional<at::Tensor>& probs) {
  constexpr const char* kOp = "npu_moe_token_unpermute_grad_v2";
  TORCH_CHECK(permuted_tokens_size_0 >= 0, kOp, ": permuted_tokens_size_0 must not be negative, but got ",
              permuted_tokens_size_0);
  CheckDim(kOp, "grad_unpermuted_tokens", grad_unpermuted_tokens, 2);
  CheckDim(kOp, "sorted_indices", sorted_indices, 1);
  HasProbs(kOp, probs);
  return {permuted_tokens_size_0, grad_unpermuted_tokens.size(1)};
}

SmallVector npu_moe_token_unpermute_grad_v2_probs_out_size(const at::Tensor& grad_unpermuted_tokens,
                                                           const at::Tensor& sorted_indices,
                                                           const c10::optional<at::Tensor>& probs) {
  (void)grad_unpermuted_tokens;  // checked by the permuted_tokens helper of the same op
  (void)sorted_indices;
  return HasProbs("npu_moe_token_unpermute_grad_v2", probs) ? ShapeOf(*probs) : SmallVector{};
}

// ---- mixture of experts: expert-parallel dispatch and combine --------------------------------

namespace {

// quant_mode of dispatch/combine: none, static, per-token dynamic, per-group dynamic, MX.
constexpr int64_t kUnquant = 0;
constexpr int64_t kStaticQuant = 1;
constexpr int64_t kPertokenDynamicQuant = 2;
constexpr int64_t kPergroupDynamicQuant = 3;
constexpr int64_t kMxQuant = 4;

// The rank layout both halves of dispatch check: ep_rank_id in [0, ep_world_size), at most half
// the ranks hold shared experts (the first ones: expert_shard_type 0) and the moe experts divide
// evenly among the others. Returns the number of experts on ep_rank_id.
int64_t LocalExpertCount(const char* op, int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num,
                         int64_t expert_shard_type, int64_t shared_expert_rank_num) {
  TORCH_CHECK(ep_rank_id >= 0 && ep_rank_id < ep_world_size, op,
              ": ep_rank_id must be in [0, ep_world_size), but got ep_rank_id ", ep_rank_id, " and ep_world_size ",
              ep_world_size);
  TORCH_CHECK(shared_expert_rank_num >= 0 && shared_expert_rank_num <= ep_world_size / 2, op,
              ": shared_expert_rank_num must be in [0, ep_world_size / 2], but got shared_expert_rank_num ",
              shared_expert_rank_num, " and ep_world_size ", ep_world_size);
  // Upstream's helpers place shared experts on the first ranks whatever expert_shard_type says.
  TORCH_CHECK(expert_shard_type == 0, op,
              ": only expert_shard_type 0 (shared experts on the first ranks) is supported, but got ",
              expert_shard_type);
  if (ep_rank_id < shared_expert_rank_num) {
    return 1;
  }
  const int64_t moe_ranks = ep_world_size - shared_expert_rank_num;  // >= 1 after the checks above
  TORCH_CHECK(moe_expert_num > 0 && moe_expert_num % moe_ranks == 0, op,
              ": moe_expert_num must be a positive multiple of ep_world_size - shared_expert_rank_num (", moe_ranks,
              "), but got ", moe_expert_num);
  return moe_expert_num / moe_ranks;
}

void CheckQuantMode(const char* op, int64_t quant_mode) {
  TORCH_CHECK(quant_mode >= kUnquant && quant_mode <= kMxQuant, op,
              ": quant_mode must be 0 (none), 1 (static), 2 (per-token dynamic), 3 (per-group dynamic) or 4 (MX), "
              "but got ",
              quant_mode);
}

// What both halves of dispatch read of their inputs, checked: x (bs, h), expert_ids (bs, k),
// quant_mode and the rank layout (LocalExpertCount).
struct DispatchInputs {
  int64_t bs;
  int64_t h;
  int64_t k;
  int64_t local_experts;
};

DispatchInputs CheckDispatchInputs(const char* op, const at::Tensor& x, const at::Tensor& expert_ids,
                                   int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num,
                                   int64_t expert_shard_type, int64_t shared_expert_rank_num, int64_t quant_mode) {
  CheckDim(op, "x", x, 2);
  CheckDim(op, "expert_ids", expert_ids, 2);
  CheckQuantMode(op, quant_mode);
  const int64_t local_experts =
      LocalExpertCount(op, ep_world_size, ep_rank_id, moe_expert_num, expert_shard_type, shared_expert_rank_num);
  return {x.size(0), x.size(1), expert_ids.size(1), local_experts};
}

}  // namespace

std::vector<SmallVector> npu_moe_distribute_dispatch_setup_out_size(
    const at::Tensor& x, const at::Tensor& expert_ids, int64_t ep_world_size, int64_t ep_rank_id,
    int64_t moe_expert_num, int64_t expert_shard_type, int64_t shared_expert_num, int64_t shared_expert_rank_num,
    int64_t quant_mode, c10::optional<int64_t> y_dtype) {
  constexpr const char* kOp = "npu_moe_distribute_dispatch_setup";
  (void)y_dtype;  // decides y's dtype, not its shape
  const auto [bs, h, k, local_experts] = CheckDispatchInputs(
      kOp, x, expert_ids, ep_world_size, ep_rank_id, moe_expert_num, expert_shard_type, shared_expert_rank_num,
      quant_mode);
  TORCH_CHECK(shared_expert_num >= 0, kOp, ": shared_expert_num must not be negative, but got ", shared_expert_num);
  // Bytes of one token row in the communication buffer (512-byte aligned), per quant_mode:
  // the 2-byte values; int8 values; + a float scale; + a float scale per 128 values; MX values
  // with one scale byte per 32 values.
  int64_t hs = 0;
  switch (quant_mode) {
    case kUnquant:
      hs = AlignUp(AlignUp(h * 2, 32), 512) / 2;
      break;
    case kStaticQuant:
      hs = AlignUp(AlignUp(h, 32), 512);
      break;
    case kPertokenDynamicQuant:
      hs = AlignUp(AlignUp(h, 32) + 4, 512);
      break;
    case kPergroupDynamicQuant:
      hs = AlignUp(AlignUp(h, 128) + CeilDiv(h, 128) * 4, 512);
      break;
    default:  // kMxQuant
      hs = AlignUp(AlignUp(h, 256) + AlignUp(CeilDiv(h, 32), 2), 512);
      break;
  }
  const int64_t rows = bs * (k + shared_expert_num);
  return {{rows, hs}, {bs * k}, {(rows + ep_world_size * local_experts) * 16}};
}

std::vector<SmallVector> npu_moe_distribute_dispatch_teardown_out_size(
    const at::Tensor& x, const at::Tensor expert_ids, int64_t ep_world_size, int64_t ep_rank_id,
    int64_t moe_expert_num, int64_t expert_shard_type, int64_t shared_expert_rank_num, int64_t global_bs,
    int64_t quant_mode) {
  constexpr const char* kOp = "npu_moe_distribute_dispatch_teardown";
  const auto [bs, h, k, local_experts] = CheckDispatchInputs(
      kOp, x, expert_ids, ep_world_size, ep_rank_id, moe_expert_num, expert_shard_type, shared_expert_rank_num,
      quant_mode);
  TORCH_CHECK(global_bs >= 0, kOp, ": global_bs must not be negative (0: bs * ep_world_size), but got ", global_bs);
  const int64_t tokens = global_bs == 0 ? bs * ep_world_size : global_bs;
  // Rows received: a shared-expert rank takes its share of all tokens, a moe rank every token for
  // each of its experts (at most k of them per token).
  const bool shared_rank = ep_rank_id < shared_expert_rank_num;
  const int64_t a = shared_rank ? tokens / shared_expert_rank_num : tokens * std::min(local_experts, k);
  SmallVector dynamic_scales{a};
  if (quant_mode == kPergroupDynamicQuant) {
    dynamic_scales = {a, CeilDiv(h, 128)};
  } else if (quant_mode == kMxQuant) {
    dynamic_scales = {a, AlignUp(CeilDiv(h, 32), 2)};
  }
  return {{a, h}, dynamic_scales, {a * 128}, {local_experts}};
}

std::vector<SmallVector> npu_moe_distribute_combine_setup_out_size(const at::Tensor expand_x, int64_t ep_world_size) {
  constexpr const char* kOp = "npu_moe_distribute_combine_setup";
  CheckDim(kOp, "expand_x", expand_x, 2);
  TORCH_CHECK(ep_world_size > 0, kOp, ": ep_world_size must be positive, but got ", ep_world_size);
  const int64_t a = expand_x.size(0);
  const int64_t h = expand_x.size(1);
  // int8 values (32-byte aligned) and a float scale per 8 values, 512-byte aligned.
  const int64_t hs = AlignUp(AlignUp(h, 32) + AlignUp(h, 8) / 8 * 4, 512);
  return {{a, hs}, {(a + ep_world_size) * 16}};
}

std::vector<SmallVector> npu_moe_distribute_combine_teardown_out_size(const at::Tensor expand_x,
                                                                      const at::Tensor expert_ids) {
  constexpr const char* kOp = "npu_moe_distribute_combine_teardown";
  CheckDim(kOp, "expand_x", expand_x, 2);
  CheckDim(kOp, "expert_ids", expert_ids, 2);
  return {{expert_ids.size(0), expand_x.size(1)}};
}

// ---- native sparse attention -----------------------------------------------------------------

SmallVector npu_nsa_compress_out_size(const at::Tensor& input, c10::optional<int64_t> actual_seq_len_type,
                                      at::OptionalIntArrayRef actual_seq_len, int64_t compress_block_size,
                                      int64_t compress_stride) {
  constexpr const char* kOp = "npu_nsa_compress";
  CheckDim(kOp, "input", input, 3);
  TORCH_CHECK(actual_seq_len_type.value_or(0) == 0, kOp,
              ": only actual_seq_len_type 0 (prefix sums of the sequence lengths) is supported, but got ",
              actual_seq_len_type.value_or(0));
  TORCH_CHECK(actual_seq_len.has_value(), kOp, ": actual_seq_len must be given");
  TORCH_CHECK(compress_block_size > 0, kOp, ": compress_block_size must be positive, but got ", compress_block_size);
  TORCH_CHECK(compress_stride > 0, kOp, ": compress_stride must be positive, but got ", compress_stride);
  // Each sequence of length s >= compress_block_size gives (s - block) / stride + 1 windows.
  int64_t windows = 0;
  int64_t previous_end = 0;
  for (const int64_t end : *actual_seq_len) {
    TORCH_CHECK(end >= previous_end && end <= input.size(0), kOp,
                ": actual_seq_len must be non-decreasing prefix sums in [0, input.size(0) = ", input.size(0),
                "], but got ", *actual_seq_len);
    const int64_t length = end - previous_end;
    if (length >= compress_block_size) {
      windows += (length - compress_block_size) / compress_stride + 1;
    }
    previous_end = end;
  }
  return {windows, input.size(1), input.size(2)};
}

namespace {

void CheckLayout(const char* op, c10::string_view layout, std::initializer_list<const char*> supported) {
  bool known = false;
  std::string names;
  for (const char* name : supported) {
    known = known || layout == name;
    names += names.empty() ? name : std::string(", ") + name;
  }
  TORCH_CHECK(known, op, ": layout must be one of ", names, ", but got '", std::string(layout.data(), layout.size()),
              "'");
}

void CheckKeyValueHeads(const char* op, int64_t key_value_head_num) {
  TORCH_CHECK(key_value_head_num > 0, op, ": key_value_head_num must be positive, but got ", key_value_head_num);
}

// The value head size of a (block_num, block_size, key_value_head_num * D) paged value cache.
int64_t ValueHeadSize(const char* op, const at::Tensor& value, int64_t key_value_head_num) {
  CheckKeyValueHeads(op, key_value_head_num);
  CheckDim(op, "value", value, 3);
  TORCH_CHECK(value.size(2) % key_value_head_num == 0, op, ": value.size(2) (", value.size(2),
              ") must be a multiple of key_value_head_num (", key_value_head_num, ")");
  return value.size(2) / key_value_head_num;
}

}  // namespace

SmallVector npu_nsa_compress_attention_infer_out_size(const at::Tensor& query, const at::Tensor& value,
                                                      int64_t key_value_head_num, c10::string_view layout) {
  constexpr const char* kOp = "npu_nsa_compress_attention_infer";
  CheckLayout(kOp, layout, {"TND", "BSND"});
  const int64_t head_size_v = ValueHeadSize(kOp, value, key_value_head_num);
  if (layout == "TND") {
    CheckDim(kOp, "query", query, 3);
    return {query.size(0), query.size(1), head_size_v};
  }
  CheckDim(kOp, "query", query, 4);
  return {query.size(0), query.size(1), query.size(2), head_size_v};
}

SmallVector npu_nsa_compress_attention_infer_topk_out_size(const at::Tensor& query, int64_t key_value_head_num,
                                                           int64_t select_block_count, c10::string_view layout) {
  constexpr const char* kOp = "npu_nsa_compress_attention_infer";
  CheckLayout(kOp, layout, {"TND", "BSND"});
  CheckKeyValueHeads(kOp, key_value_head_num);
  TORCH_CHECK(select_block_count > 0, kOp, ": select_block_count must be positive, but got ", select_block_count);
  if (layout == "TND") {
    CheckDim(kOp, "query", query, 3);
    return {query.size(0), key_value_head_num, select_block_count};
  }
  CheckDim(kOp, "query", query, 4);
  return {query.size(0), query.size(1), key_value_head_num, select_block_count};
}

SmallVector npu_nsa_select_attention_infer_out_size(const at::Tensor& query, const at::Tensor& value,
                                                    int64_t head_num, int64_t key_value_head_num,
                                                    c10::string_view layout) {
  constexpr const char* kOp = "npu_nsa_select_attention_infer";
  CheckLayout(kOp, layout, {"BSH", "BSND", "TND"});
  if (layout == "BSND") {
    // value is (block_num, block_size, N, D).
    CheckKeyValueHeads(kOp, key_value_head_num);
    CheckDim(kOp, "query", query, 4);
    CheckDim(kOp, "value", value, 4);
    return {query.size(0), query.size(1), query.size(2), value.size(3)};
  }
  const int64_t head_size_v = ValueHeadSize(kOp, value, key_value_head_num);
  CheckDim(kOp, "query", query, 3);
  if (layout == "TND") {
    return {query.size(0), query.size(1), head_size_v};
  }
  TORCH_CHECK(head_num > 0, kOp, ": head_num must be positive, but got ", head_num);
  return {query.size(0), query.size(1), head_num * head_size_v};
}

}  // namespace op_infer
