// torch.autocast("npu"): the AutocastPrivateUse1 kernels, with torch_npu's op lists.
//
// torch_npu's lists are CUDA's without linalg_vecdot (lower precision), rms_norm and the upsample_*
// ops (float32: on npu they run in the input's dtype), vdot (promote), and, on torch releases that
// have them, the Dimname overloads and _cudnn_rnn. binary_cross_entropy is refused, as on CUDA.
// Every other op falls through to the npu kernels in whatever dtype its inputs have. The thread-local state (enabled, dtype) is
// at::autocast's, bound as torch.npu.is_autocast_enabled/set_autocast_enabled/get_autocast_dtype/
// set_autocast_dtype.
#include "npu/aten/Autocast.h"

#include <ATen/Operators.h>
#include <ATen/autocast_mode.h>
#include <c10/util/Exception.h>
#include <torch/library.h>

#include "npu/core/TorchCompat.h"

// torch 2.1-2.3 register an overload with its own macro; later releases take it as a third
// argument of KERNEL_PRIVATEUSEONE.
#ifdef KERNEL_PRIVATEUSEONE2
#define NPU_AUTOCAST_OVERLOAD(OP, OVERLOAD, POLICY) KERNEL_PRIVATEUSEONE2(OP, OVERLOAD, POLICY)
#else
#define NPU_AUTOCAST_OVERLOAD(OP, OVERLOAD, POLICY) KERNEL_PRIVATEUSEONE(OP, OVERLOAD, POLICY)
#endif

// The device-type state functions came with the table of deprecated per-backend ones (torch 2.4
// and 2.5 spell its name AT_FORALL_DEPRECATED_AUTOCAST_BAKCNEDS).
#if defined(AT_FORALL_DEPRECATED_AUTOCAST_BACKENDS) || defined(AT_FORALL_DEPRECATED_AUTOCAST_BAKCNEDS)
#define NPU_AUTOCAST_HEADER_BY_DEVICE_TYPE 1
#else
#define NPU_AUTOCAST_HEADER_BY_DEVICE_TYPE 0
#endif
#if NPU_AUTOCAST_BY_DEVICE_TYPE != NPU_AUTOCAST_HEADER_BY_DEVICE_TYPE
#error "NPU_AUTOCAST_BY_DEVICE_TYPE (npu/core/TorchCompat.h) does not match this torch's ATen/autocast_mode.h"
#endif

// aten::linalg_matrix_sqrth (torch >= 2.14), which CUDA's autocast runs in float32.
#define NPU_HAS_LINALG_MATRIX_SQRTH VERSION_BETWEEN(V2R14, VERSION_NEWEST)

namespace at_npu::autocast {

bool is_autocast_enabled() {
#if NPU_AUTOCAST_BY_DEVICE_TYPE
  return at::autocast::is_autocast_enabled(c10::DeviceType::PrivateUse1);
#else
  return at::autocast::is_privateuseone_enabled();
#endif
}

void set_autocast_enabled(bool enabled) {
#if NPU_AUTOCAST_BY_DEVICE_TYPE
  at::autocast::set_autocast_enabled(c10::DeviceType::PrivateUse1, enabled);
#else
  at::autocast::set_privateuseone_enabled(enabled);
#endif
}

at::ScalarType get_autocast_dtype() {
#if NPU_AUTOCAST_BY_DEVICE_TYPE
  return at::autocast::get_autocast_dtype(c10::DeviceType::PrivateUse1);
#else
  return at::autocast::get_autocast_privateuseone_dtype();
#endif
}

void set_autocast_dtype(at::ScalarType dtype) {
#if NPU_AUTOCAST_BY_DEVICE_TYPE
  at::autocast::set_autocast_dtype(c10::DeviceType::PrivateUse1, dtype);
#else
  at::autocast::set_autocast_privateuseone_dtype(dtype);
#endif
}

}  // namespace at_npu::autocast

namespace {

at::Tensor binary_cross_entropy_refused(const at::Tensor&, const at::Tensor&, const c10::optional<at::Tensor>&,
                                        int64_t) {
  TORCH_CHECK(false,
              "binary_cross_entropy (torch.nn.functional.binary_cross_entropy, torch.nn.BCELoss) is unsafe to "
              "autocast on npu: its input is usually a sigmoid's output, which float16 rounds to 0 or 1. Use "
              "torch.nn.functional.binary_cross_entropy_with_logits or torch.nn.BCEWithLogitsLoss, which "
              "combine the two and autocast safely, or leave the autocast region (autocast(enabled=False)).");
}

}  // namespace

// Ops without a policy run as they are.
TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(aten, AutocastPrivateUse1, m) {
  // Lower precision (the autocast dtype).
  NPU_AUTOCAST_OVERLOAD(_convolution, deprecated, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(_convolution, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(conv1d, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(conv2d, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(conv3d, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(conv_tbc, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(conv_transpose1d, lower_precision_fp)
  NPU_AUTOCAST_OVERLOAD(conv_transpose2d, input, lower_precision_fp)
  NPU_AUTOCAST_OVERLOAD(conv_transpose3d, input, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(convolution, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(cudnn_convolution, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(cudnn_convolution_transpose, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(prelu, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(addmm, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(addmv, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(addr, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(matmul, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(einsum, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(mm, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(mv, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(linear, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(addbmm, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(baddbmm, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(bmm, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(chain_matmul, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(linalg_multi_dot, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(_thnn_fused_lstm_cell, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(_thnn_fused_gru_cell, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(lstm_cell, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(gru_cell, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(rnn_tanh_cell, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(rnn_relu_cell, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(_scaled_dot_product_flash_attention, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(scaled_dot_product_attention, lower_precision_fp)

  // float32.
  KERNEL_PRIVATEUSEONE(acos, fp32)
  KERNEL_PRIVATEUSEONE(asin, fp32)
  KERNEL_PRIVATEUSEONE(cosh, fp32)
  KERNEL_PRIVATEUSEONE(erfinv, fp32)
  KERNEL_PRIVATEUSEONE(exp, fp32)
  KERNEL_PRIVATEUSEONE(expm1, fp32)
  KERNEL_PRIVATEUSEONE(log, fp32)
  KERNEL_PRIVATEUSEONE(log10, fp32)
  KERNEL_PRIVATEUSEONE(log2, fp32)
  KERNEL_PRIVATEUSEONE(log1p, fp32)
  KERNEL_PRIVATEUSEONE(reciprocal, fp32)
  KERNEL_PRIVATEUSEONE(rsqrt, fp32)
  KERNEL_PRIVATEUSEONE(sinh, fp32)
  KERNEL_PRIVATEUSEONE(tan, fp32)
  NPU_AUTOCAST_OVERLOAD(pow, Tensor_Scalar, fp32)
  NPU_AUTOCAST_OVERLOAD(pow, Tensor_Tensor, fp32)
  NPU_AUTOCAST_OVERLOAD(pow, Scalar, fp32)
  KERNEL_PRIVATEUSEONE(softplus, fp32)
  KERNEL_PRIVATEUSEONE(layer_norm, fp32)
  KERNEL_PRIVATEUSEONE(native_layer_norm, fp32)
  KERNEL_PRIVATEUSEONE(group_norm, fp32)
  NPU_AUTOCAST_OVERLOAD(frobenius_norm, dim, fp32)
  KERNEL_PRIVATEUSEONE(nuclear_norm, fp32)
  NPU_AUTOCAST_OVERLOAD(nuclear_norm, dim, fp32)
  KERNEL_PRIVATEUSEONE(cosine_similarity, fp32)
  KERNEL_PRIVATEUSEONE(poisson_nll_loss, fp32)
  KERNEL_PRIVATEUSEONE(cosine_embedding_loss, fp32)
  KERNEL_PRIVATEUSEONE(nll_loss, fp32)
  KERNEL_PRIVATEUSEONE(nll_loss2d, fp32)
  KERNEL_PRIVATEUSEONE(hinge_embedding_loss, fp32)
  KERNEL_PRIVATEUSEONE(kl_div, fp32)
  KERNEL_PRIVATEUSEONE(l1_loss, fp32)
  KERNEL_PRIVATEUSEONE(smooth_l1_loss, fp32)
  KERNEL_PRIVATEUSEONE(huber_loss, fp32)
  KERNEL_PRIVATEUSEONE(mse_loss, fp32)
  KERNEL_PRIVATEUSEONE(margin_ranking_loss, fp32)
  KERNEL_PRIVATEUSEONE(multilabel_margin_loss, fp32)
  KERNEL_PRIVATEUSEONE(soft_margin_loss, fp32)
  KERNEL_PRIVATEUSEONE(triplet_margin_loss, fp32)
  KERNEL_PRIVATEUSEONE(multi_margin_loss, fp32)
  KERNEL_PRIVATEUSEONE(binary_cross_entropy_with_logits, fp32)
  KERNEL_PRIVATEUSEONE(dist, fp32)
  KERNEL_PRIVATEUSEONE(pdist, fp32)
  KERNEL_PRIVATEUSEONE(cdist, fp32)
  KERNEL_PRIVATEUSEONE(renorm, fp32)
  KERNEL_PRIVATEUSEONE(logsumexp, fp32)
#if NPU_HAS_LINALG_MATRIX_SQRTH
  KERNEL_PRIVATEUSEONE(linalg_matrix_sqrth, fp32)
#endif

  // float32 unless the call names an output dtype.
  KERNEL_PRIVATEUSEONE(prod, fp32_set_opt_dtype)
  NPU_AUTOCAST_OVERLOAD(prod, dim_int, fp32_set_opt_dtype)
  NPU_AUTOCAST_OVERLOAD(softmax, int, fp32_set_opt_dtype)
  NPU_AUTOCAST_OVERLOAD(log_softmax, int, fp32_set_opt_dtype)
  KERNEL_PRIVATEUSEONE(cumprod, fp32_set_opt_dtype)
  KERNEL_PRIVATEUSEONE(cumsum, fp32_set_opt_dtype)
  KERNEL_PRIVATEUSEONE(linalg_vector_norm, fp32_set_opt_dtype)
  KERNEL_PRIVATEUSEONE(linalg_matrix_norm, fp32_set_opt_dtype)
  NPU_AUTOCAST_OVERLOAD(linalg_matrix_norm, str_ord, fp32_set_opt_dtype)
  KERNEL_PRIVATEUSEONE(sum, fp32_set_opt_dtype)
  NPU_AUTOCAST_OVERLOAD(sum, dim_IntList, fp32_set_opt_dtype)

  // float32 by redispatching to the overload that takes an output dtype (norm does not promote).
  KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE(
      ADD_NS(norm), "norm.Scalar", at::Tensor(const at::Tensor&, const at::Scalar&),
      at::Tensor(const at::Tensor&, const c10::optional<at::Scalar>&, at::ScalarType), fp32_append_dtype)
  KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE(
      ADD_NS(norm), "norm.ScalarOpt_dim",
      at::Tensor(const at::Tensor&, const c10::optional<at::Scalar>&, at::IntArrayRef, bool),
      at::Tensor(const at::Tensor&, const c10::optional<at::Scalar>&, at::IntArrayRef, bool, at::ScalarType),
      fp32_append_dtype)

  // The widest floating type of the inputs.
  KERNEL_PRIVATEUSEONE(addcdiv, promote)
  KERNEL_PRIVATEUSEONE(addcmul, promote)
  KERNEL_PRIVATEUSEONE(atan2, promote)
  KERNEL_PRIVATEUSEONE(bilinear, promote)
  KERNEL_PRIVATEUSEONE(cross, promote)
  KERNEL_PRIVATEUSEONE(dot, promote)
  KERNEL_PRIVATEUSEONE(grid_sampler, promote)
  KERNEL_PRIVATEUSEONE(index_put, promote)
  KERNEL_PRIVATEUSEONE(tensordot, promote)
  KERNEL_PRIVATEUSEONE(scatter_add, promote)

  m.impl(TORCH_SELECTIVE_NAME("aten::binary_cross_entropy"), TORCH_FN(binary_cross_entropy_refused));
}
