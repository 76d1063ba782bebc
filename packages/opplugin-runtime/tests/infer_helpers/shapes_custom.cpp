#include <torch/csrc/Dtype.h>
#include <torch/csrc/DynamicTypes.h>
#include <torch/csrc/Exceptions.h>

#include <string>

#include "bindings.h"

namespace py = pybind11;

namespace {

// torch 2.1 has no pybind caster for dtypes or Scalars: they cross as Python objects.
at::ScalarType ToDtype(const py::handle& dtype) {
  TORCH_CHECK(THPDtype_Check(dtype.ptr()), "expected a torch.dtype");
  return reinterpret_cast<THPDtype*>(dtype.ptr())->scalar_type;
}

c10::optional<at::ScalarType> ToOptionalDtype(const py::object& dtype) {
  return dtype.is_none() ? c10::nullopt : c10::optional<at::ScalarType>(ToDtype(dtype));
}

py::object FromDtype(at::ScalarType dtype) {
  return py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(torch::getTHPDtype(dtype)));
}

// A Python bool / int / float / complex as the Scalar kind the dispatcher would make of it.
c10::optional<at::Scalar> ToOptionalScalar(const py::object& value) {
  if (value.is_none()) {
    return c10::nullopt;
  }
  if (PyBool_Check(value.ptr())) {
    return at::Scalar(value.cast<bool>());
  }
  if (PyLong_Check(value.ptr())) {
    return at::Scalar(value.cast<int64_t>());
  }
  if (PyComplex_Check(value.ptr())) {
    return at::Scalar(c10::complex<double>(PyComplex_RealAsDouble(value.ptr()), PyComplex_ImagAsDouble(value.ptr())));
  }
  return at::Scalar(value.cast<double>());
}

c10::optional<c10::string_view> ToOptionalView(const c10::optional<std::string>& text) {
  return text.has_value() ? c10::optional<c10::string_view>(c10::string_view(*text)) : c10::nullopt;
}

void BindDtypesAndParams(py::module& m) {
  m.def("abs_out_dtype", [](const at::Tensor& self) { return FromDtype(op_infer::abs_out_dtype(self)); });
  m.def("angle_out_dtype", [](const at::Tensor& self) { return FromDtype(op_infer::angle_out_dtype(self)); });
  m.def("polar_out_dtype", [](const at::Tensor& abs, const at::Tensor& angle) {
    return FromDtype(op_infer::polar_out_dtype(abs, angle));
  });
  m.def("clamp_out_dtype", [](const at::Tensor& self, const c10::optional<at::Tensor>& min,
                              const c10::optional<at::Tensor>& max) {
    return FromDtype(op_infer::clamp_out_dtype(self, min, max));
  });
  m.def("clamp_scalar_out_dtype", [](const at::Tensor& self, const py::object& min, const py::object& max) {
    return FromDtype(op_infer::clamp_scalar_out_dtype(self, ToOptionalScalar(min), ToOptionalScalar(max)));
  });
  m.def("npu_group_norm_silu_dst_type", [](const at::Tensor& input, const c10::optional<at::Tensor>& weight,
                                           const c10::optional<at::Tensor>& bias) {
    return FromDtype(op_infer::npu_group_norm_silu_dst_type(input, weight, bias));
  });
  m.def("npu_group_quant_dst_type", [](const py::object& dst_dtype) {
    return FromDtype(op_infer::npu_group_quant_dst_type(ToOptionalDtype(dst_dtype)));
  });
  m.def("npu_moe_distribute_dispatch_setup_out_dtype", [](c10::optional<int64_t> y_dtype) {
    return FromDtype(op_infer::npu_moe_distribute_dispatch_setup_out_dtype(y_dtype));
  });
  m.def("npu_gelu_approximate_mode",
        [](const std::string& approximate) { return op_infer::npu_gelu_approximate_mode(approximate); });
  m.def("npu_gelu_approximate_str",
        [](const std::string& approximate) { return op_infer::npu_gelu_approximate_str(approximate); });
}

void BindUtils(py::module& m) {
  m.def("get_dimlist_for_tensor", [](const at::Tensor& t) {
    const auto dims = op_plugin::utils::get_dimlist_for_tensor(t);
    return std::vector<int64_t>(dims.begin(), dims.end());
  });
  m.def("is_gte_cann_version_820rc1", [] { return op_plugin::utils::is_gte_cann_version_820rc1(); });
}

void BindSearchsorted(py::module& m) {
  m.def("resolve_searchsorted_effective_right", [](bool right, const c10::optional<std::string>& side) {
    return op_plugin::resolve_searchsorted_effective_right(right, ToOptionalView(side));
  });
  m.def("searchsorted_validate_core_no_output",
        [](const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32, bool right,
           const c10::optional<std::string>& side, const c10::optional<at::Tensor>& sorter) {
          return op_plugin::searchsorted_validate_core_no_output(sorted_sequence, self, out_int32, right,
                                                                 ToOptionalView(side), sorter);
        });
  m.def("searchsorted_validate_scalar_op",
        [](const at::Tensor& sorted_sequence, const py::object& self, bool out_int32, bool right,
           const c10::optional<std::string>& side, const c10::optional<at::Tensor>& sorter) {
          return op_plugin::searchsorted_validate_scalar_op(sorted_sequence, *ToOptionalScalar(self), out_int32,
                                                            right, ToOptionalView(side), sorter);
        });
  m.def("searchsorted_validate_tensor_out_op",
        [](const at::Tensor& sorted_sequence, const at::Tensor& self, const at::Tensor& out, bool out_int32,
           bool right, const c10::optional<std::string>& side, const c10::optional<at::Tensor>& sorter) {
          return op_plugin::searchsorted_validate_tensor_out_op(sorted_sequence, self, out, out_int32, right,
                                                                ToOptionalView(side), sorter);
        });
  // Through torch's warning handler, so that TORCH_WARN reaches Python's warnings as a UserWarning.
  m.def("warn_if_searchsorted_inputs_noncontiguous", [](const at::Tensor& sorted_sequence, const at::Tensor& self,
                                                        const c10::optional<at::Tensor>& sorter) {
    HANDLE_TH_ERRORS
    op_plugin::warn_if_searchsorted_inputs_noncontiguous(sorted_sequence, self, sorter);
    END_HANDLE_TH_ERRORS_PYBIND
  });
  m.def("warn_if_searchsorted_scalar_inputs_noncontiguous",
        [](const at::Tensor& sorted_sequence, const c10::optional<at::Tensor>& sorter) {
          HANDLE_TH_ERRORS
          op_plugin::warn_if_searchsorted_scalar_inputs_noncontiguous(sorted_sequence, sorter);
          END_HANDLE_TH_ERRORS_PYBIND
        });
}

void BindCustomOpShapes(py::module& m) {
  m.def("swiglu_backward_infershape",
        [](const at::Tensor& x, int64_t dim) { return ToList(op_infer::swiglu_backward_infershape(x, dim)); });
  m.def("rms_norm_npu_output_size", [](const at::Tensor& self, const at::Tensor& gamma) {
    return ToLists(op_infer::rms_norm_npu_output_size(self, gamma));
  });
  m.def("npu_gelu_mul_output_size",
        [](const at::Tensor& input) { return ToList(op_infer::npu_gelu_mul_output_size(input)); });
  m.def("npu_cross_entropy_loss_loss_output_size", [](const at::Tensor& input, const std::string& reduction) {
    return ToList(op_infer::npu_cross_entropy_loss_loss_output_size(input, reduction));
  });
  m.def("npu_cross_entropy_loss_lse_for_zloss_output_size", [](const at::Tensor& input, float scale) {
    return ToList(op_infer::npu_cross_entropy_loss_lse_for_zloss_output_size(input, scale));
  });
  m.def("npu_cross_entropy_loss_zloss_output_size",
        [](const at::Tensor& input, const std::string& reduction, bool return_zloss) {
          return ToList(op_infer::npu_cross_entropy_loss_zloss_output_size(input, reduction, return_zloss));
        });
  m.def("npu_group_quant_out_size", [](const at::Tensor& x, const py::object& dst_dtype) {
    return ToList(op_infer::npu_group_quant_out_size(x, ToOptionalDtype(dst_dtype)));
  });
  m.def("npu_gather_sparse_index_out_size", [](const at::Tensor& input, const at::Tensor& index) {
    return ToList(op_infer::npu_gather_sparse_index_out_size(input, index));
  });

  m.def("npu_moe_token_permute_out_size",
        [](const at::Tensor& tokens, const at::Tensor& indices, c10::optional<int64_t> num_out_tokens) {
          return ToList(op_infer::npu_moe_token_permute_out_size(tokens, indices, num_out_tokens));
        });
  m.def("npu_moe_token_permute_grad_out_size", [](const at::Tensor& tokens, const at::Tensor& grad_permuted_tokens,
                                                  const at::Tensor& indices, const at::Tensor& sorted_indices) {
    return ToList(
        op_infer::npu_moe_token_permute_grad_out_size(tokens, grad_permuted_tokens, indices, sorted_indices));
  });
  m.def("npu_moe_token_permute_grad_v2_out_size",
        [](int64_t tokens_size_0, const at::Tensor& grad_permuted_tokens, const at::Tensor& sorted_indices) {
          return ToList(
              op_infer::npu_moe_token_permute_grad_v2_out_size(tokens_size_0, grad_permuted_tokens, sorted_indices));
        });
  m.def("npu_moe_token_unpermute_grad_permuted_tokens_out_size",
        [](const at::Tensor& permuted_tokens, const at::Tensor& grad_unpermuted_tokens,
           const at::Tensor& sorted_indices, const c10::optional<at::Tensor>& probs) {
          return ToList(op_infer::npu_moe_token_unpermute_grad_permuted_tokens_out_size(
              permuted_tokens, grad_unpermuted_tokens, sorted_indices, probs));
        });
  m.def("npu_moe_token_unpermute_grad_probs_out_size",
        [](const at::Tensor& permuted_tokens, const at::Tensor& grad_unpermuted_tokens,
           const at::Tensor& sorted_indices, const c10::optional<at::Tensor>& probs) {
          return ToList(op_infer::npu_moe_token_unpermute_grad_probs_out_size(permuted_tokens, grad_unpermuted_tokens,
                                                                              sorted_indices, probs));
        });
  m.def("npu_moe_token_unpermute_grad_v2_permuted_tokens_out_size",
        [](int64_t permuted_tokens_size_0, const at::Tensor& grad_unpermuted_tokens, const at::Tensor& sorted_indices,
           const c10::optional<at::Tensor>& probs) {
          return ToList(op_infer::npu_moe_token_unpermute_grad_v2_permuted_tokens_out_size(
              permuted_tokens_size_0, grad_unpermuted_tokens, sorted_indices, probs));
        });
  m.def("npu_moe_token_unpermute_grad_v2_probs_out_size",
        [](const at::Tensor& grad_unpermuted_tokens, const at::Tensor& sorted_indices,
           const c10::optional<at::Tensor>& probs) {
          return ToList(
              op_infer::npu_moe_token_unpermute_grad_v2_probs_out_size(grad_unpermuted_tokens, sorted_indices, probs));
        });

  m.def("npu_moe_distribute_dispatch_setup_out_size",
        [](const at::Tensor& x, const at::Tensor& expert_ids, int64_t ep_world_size, int64_t ep_rank_id,
           int64_t moe_expert_num, int64_t expert_shard_type, int64_t shared_expert_num,
           int64_t shared_expert_rank_num, int64_t quant_mode, c10::optional<int64_t> y_dtype) {
          return ToLists(op_infer::npu_moe_distribute_dispatch_setup_out_size(
              x, expert_ids, ep_world_size, ep_rank_id, moe_expert_num, expert_shard_type, shared_expert_num,
              shared_expert_rank_num, quant_mode, y_dtype));
        });
  m.def("npu_moe_distribute_dispatch_teardown_out_size",
        [](const at::Tensor& x, const at::Tensor& expert_ids, int64_t ep_world_size, int64_t ep_rank_id,
           int64_t moe_expert_num, int64_t expert_shard_type, int64_t shared_expert_rank_num, int64_t global_bs,
           int64_t quant_mode) {
          return ToLists(op_infer::npu_moe_distribute_dispatch_teardown_out_size(
              x, expert_ids, ep_world_size, ep_rank_id, moe_expert_num, expert_shard_type, shared_expert_rank_num,
              global_bs, quant_mode));
        });
  m.def("npu_moe_distribute_combine_setup_out_size", [](const at::Tensor& expand_x, int64_t ep_world_size) {
    return ToLists(op_infer::npu_moe_distribute_combine_setup_out_size(expand_x, ep_world_size));
  });
  m.def("npu_moe_distribute_combine_teardown_out_size", [](const at::Tensor& expand_x, const at::Tensor& expert_ids) {
    return ToLists(op_infer::npu_moe_distribute_combine_teardown_out_size(expand_x, expert_ids));
  });

  m.def("npu_nsa_compress_out_size",
        [](const at::Tensor& input, c10::optional<int64_t> actual_seq_len_type,
           const c10::optional<std::vector<int64_t>>& actual_seq_len, int64_t compress_block_size,
           int64_t compress_stride) {
          const at::OptionalIntArrayRef lengths =
              actual_seq_len.has_value() ? at::OptionalIntArrayRef(*actual_seq_len) : at::OptionalIntArrayRef();
          return ToList(op_infer::npu_nsa_compress_out_size(input, actual_seq_len_type, lengths, compress_block_size,
                                                            compress_stride));
        });
  m.def("npu_nsa_compress_attention_infer_out_size", [](const at::Tensor& query, const at::Tensor& value,
                                                        int64_t key_value_head_num, const std::string& layout) {
    return ToList(op_infer::npu_nsa_compress_attention_infer_out_size(query, value, key_value_head_num, layout));
  });
  m.def("npu_nsa_compress_attention_infer_topk_out_size",
        [](const at::Tensor& query, int64_t key_value_head_num, int64_t select_block_count,
           const std::string& layout) {
          return ToList(op_infer::npu_nsa_compress_attention_infer_topk_out_size(query, key_value_head_num,
                                                                                 select_block_count, layout));
        });
  m.def("npu_nsa_select_attention_infer_out_size",
        [](const at::Tensor& query, const at::Tensor& value, int64_t head_num, int64_t key_value_head_num,
           const std::string& layout) {
          return ToList(
              op_infer::npu_nsa_select_attention_infer_out_size(query, value, head_num, key_value_head_num, layout));
        });
}

}  // namespace

void BindCustomShapes(py::module& m) {
  BindDtypesAndParams(m);
  BindUtils(m);
  BindSearchsorted(m);
  BindCustomOpShapes(m);
}
