"""Every helper that gen_opapi expressions may call (opplugin_codegen.expr_helpers, the runtime's
npu/op_infer/InferSize.h family) is used, in upstream's own expression forms, by an op of a
synthetic upstream-sized YAML (1,500 ordinary entries plus one op per helper); what
opplugin-codegen generates from it (dispatch shards, struct kernels, Meta functions) compiles
against the runtime's headers with -fsyntax-only -Wall -Wextra and no diagnostic. A helper
missing from the runtime, or declared with other parameter types than its callers assume,
fails here."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="the compile needs g++")

# (schema arguments, gen_opapi lines) per op; `{n}` is the op's name. The expressions are the
# forms upstream's op_plugin_functions.yaml writes.
_T = "Tensor self"
HELPER_OPS: list[tuple[str, list[str]]] = [
    ("Tensor self, Tensor? min=None, Tensor? max=None", [
        "out:", "  size: clamp_npu_output_size(self, min, max)",
        "  dtype: is_gte_cann_version_820rc1()?clamp_out_dtype(self, min, max):"
        "c10::typeMetaToScalarType(self.dtype())",
        "exec: aclnnSynth{n}, self, min, max, out"]),
    ("Tensor self, Scalar? min=None, Scalar? max=None", [
        "out:", "  size: input_same_output_size(self)",
        "  dtype: clamp_scalar_out_dtype(self, min, max)", "exec: aclnnSynth{n}, self, min, max, out"]),
    ("Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False", [
        "out:", "  size: isclose_output_size(self, other, rtol, atol, equal_nan)", "  dtype: at::kBool",
        "exec: aclnnSynth{n}, self, other, rtol, atol, equal_nan, out"]),
    ("Tensor self, Tensor vec1, Tensor vec2", [
        "out:", "  size: addr_npu_output_size(self, vec1, vec2)",
        "  dtype: at::native::result_type({self, vec1, vec2})", "exec: aclnnSynth{n}, self, vec1, vec2, out"]),
    ("Tensor self, int[1] dim, bool keepdim=False", [
        "out:", "  size: reduce_ops_npu_output_size(self, dim, keepdim)",
        "  dtype: isIntegralType(self.scalar_type(), true) ? at::kFloat : self.scalar_type()",
        "exec: aclnnSynth{n}, self, dim, keepdim, out"]),
    (_T, [
        "out:", "  size: reduce_ops_npu_output_size(self, get_dimlist_for_tensor(self), false)",
        "  dtype: self", "new_params:", "  dims: get_dimlist_for_tensor(self)",
        "exec: aclnnSynth{n}, self, dims, out"]),
    ("Tensor self, int[] repeats", [
        "out:", "  size: repeat_npu_output_size(self, repeats)", "  dtype: self",
        "exec: aclnnSynth{n}, self, repeats, out"]),
    ("Tensor[] tensors, int dim=0", [
        "out:", "  size: stack_output_size(tensors, dim)", "  dtype: at::native::result_type(tensors)",
        "exec: aclnnSynth{n}, tensors, dim, out"]),
    ("Tensor self, int dim=-1", [
        "out:", "  size: glu_npu_output_size(self, dim)", "  dtype: self", "exec: aclnnSynth{n}, self, dim, out"]),
    ("Tensor self, int dim=-1", [
        "out:", "  size: swiglu_backward_infershape(self, dim)", "  dtype: self",
        "exec: aclnnSynth{n}, self, dim, out"]),
    ("Tensor x1, Tensor x2, float p=2, int? compute_mode=None", [
        "out:", "  size: op_infer::cdist_npu_output_size(x1, x2)", "  dtype: x1.scalar_type()",
        "new_params:", "  p_float: static_cast<float>(p)",
        "  mode: std::abs(p - 2.0) < 1e-6 ? 2 : compute_mode.value_or(0)",
        "exec: aclnnSynth{n}, x1, x2, p_float, mode, out"]),
    ("Tensor self, Tensor A", [
        "solution:", "  size: std::get<0>(output_sizes)", "  dtype: self",
        "coefficient:", "  size: std::get<1>(output_sizes)", "  dtype: A",
        "new_params:", "  output_sizes: op_infer::triangular_solve_output_size(self, A)",
        "exec: aclnnSynth{n}, self, A, solution, coefficient"]),
    ("Tensor self, int[3] output_size", [
        "out:", "  size: adaptive_avg_pool3d_npu_output_size(self, output_size)", "  dtype: self",
        "exec: aclnnSynth{n}, self, output_size, out"]),
    ("Tensor self, int[2] output_size", [
        "out:", "  size: max_pool2d_out_size(self, output_size)", "  dtype: self",
        "exec: aclnnSynth{n}, self, output_size, out"]),
    ("Tensor self, int[3] output_size", [
        "out:", "  size: max_pool3d_output_size(self, output_size)", "  dtype: self",
        "exec: aclnnSynth{n}, self, output_size, out"]),
    *[
        ("Tensor self, int[] padding", [
            "out:", f"  size: {kind}_pad{d}d_npu_out_size(self, padding)", "  dtype: self",
            "exec: aclnnSynth{n}, self, padding, out"])
        for kind in ("reflection", "replication")
        for d in (1, 2, 3)
    ],
    ("Tensor self, int[2] output_size, int[2] kernel_size", [
        "out:", "  size: im2col_backward_npu_output_size(self, output_size, kernel_size)", "  dtype: self",
        "exec: aclnnSynth{n}, self, output_size, kernel_size, out"]),
    ("Tensor x1, Tensor gamma", [
        "y:", "  size: rms_norm_npu_output_size(x1, gamma)[0]", "  dtype: x1",
        "rstd:", "  size: rms_norm_npu_output_size(x1, gamma)[1]", "  dtype: at::kFloat",
        "exec: aclnnSynth{n}, x1, gamma, y, rstd"]),
    ("Tensor input, *, str approximate='none'", [
        "out:", "  size: npu_gelu_mul_output_size(input)", "  dtype: input",
        "new_params:", "  approximate_str: 'npu_gelu_approximate_str(approximate)'",
        "  approximate_ptr: 'const_cast<char*>(approximate_str.c_str())'",
        "  approximate_mode: npu_gelu_approximate_mode(approximate)",
        "exec: aclnnSynth{n}, input, approximate_ptr, approximate_mode, out"]),
    ("Tensor input, str reduction='mean', float lse_square_scale_for_zloss=0.0, bool return_zloss=False", [
        "loss:", "  size: npu_cross_entropy_loss_loss_output_size(input, reduction)", "  dtype: input",
        "lse:", "  size: npu_cross_entropy_loss_lse_for_zloss_output_size(input, lse_square_scale_for_zloss)",
        "  dtype: input",
        "zloss:", "  size: npu_cross_entropy_loss_zloss_output_size(input, reduction, return_zloss)",
        "  dtype: input",
        "new_params:", "  reduction_ptr: 'const_cast<char *>(reduction.data())'",
        "exec: aclnnSynth{n}, input, reduction_ptr, lse_square_scale_for_zloss, return_zloss, loss, lse, zloss"]),
    ("Tensor x, *, ScalarType? dst_dtype=None", [
        "out:", "  size: npu_group_quant_out_size(x, dst_dtype)", "  dtype: npu_group_quant_dst_type(dst_dtype)",
        "exec: aclnnSynth{n}, x, out"]),
    ("Tensor input, Tensor index", [
        "out:", "  size: npu_gather_sparse_index_out_size(input, index)", "  dtype: input",
        "exec: aclnnSynth{n}, input, index, out"]),
    ("Tensor input, Tensor? weight, Tensor? bias, int group", [
        "out:", "  size: '{input.size(0), group}'", "  dtype: npu_group_norm_silu_dst_type(input, weight, bias)",
        "exec: aclnnSynth{n}, input, weight, bias, group, out"]),
    (_T, [
        "out:", "  size: input_same_output_size(self)", "  dtype: abs_out_dtype(self)",
        "exec: aclnnSynth{n}, self, out"]),
    (_T, [
        "out:", "  size: input_same_output_size(self)", "  dtype: angle_out_dtype(self)",
        "exec: aclnnSynth{n}, self, out"]),
    ("Tensor abs, Tensor angle", [
        "out:", "  size: op_infer::broadcast_ops_npu_output_size(abs, angle)", "  dtype: polar_out_dtype(abs, angle)",
        "exec: aclnnSynth{n}, abs, angle, out"]),
    ("Tensor tokens, Tensor indices, int? num_out_tokens=None", [
        "out:", "  size: npu_moe_token_permute_out_size(tokens, indices, num_out_tokens)", "  dtype: tokens",
        "exec: aclnnSynth{n}, tokens, indices, out"]),
    ("Tensor tokens, Tensor grad_permuted_tokens, Tensor indices, Tensor sorted_indices", [
        "out:", "  size: npu_moe_token_permute_grad_out_size(tokens, grad_permuted_tokens, indices, sorted_indices)",
        "  dtype: tokens", "exec: aclnnSynth{n}, tokens, grad_permuted_tokens, indices, sorted_indices, out"]),
    ("Tensor grad_permuted_tokens, Tensor sorted_indices, int tokens_size_0", [
        "out:", "  size: npu_moe_token_permute_grad_v2_out_size(tokens_size_0, grad_permuted_tokens, sorted_indices)",
        "  dtype: grad_permuted_tokens", "exec: aclnnSynth{n}, grad_permuted_tokens, sorted_indices, out"]),
    ("Tensor permuted_tokens, Tensor grad_unpermuted_tokens, Tensor sorted_indices, Tensor? probs=None", [
        "grad_permuted:", "  size: npu_moe_token_unpermute_grad_permuted_tokens_out_size("
        "permuted_tokens, grad_unpermuted_tokens, sorted_indices, probs)", "  dtype: permuted_tokens",
        "grad_probs:", "  size: npu_moe_token_unpermute_grad_probs_out_size("
        "permuted_tokens, grad_unpermuted_tokens, sorted_indices, probs)",
        "  dtype: probs.has_value() && probs->defined() ? probs->scalar_type() : grad_unpermuted_tokens.scalar_type()",
        "exec: aclnnSynth{n}, permuted_tokens, grad_unpermuted_tokens, sorted_indices, probs, grad_permuted, "
        "grad_probs"]),
    ("Tensor grad_unpermuted_tokens, Tensor sorted_indices, int permuted_tokens_size_0, Tensor? probs=None", [
        "grad_permuted:", "  size: npu_moe_token_unpermute_grad_v2_permuted_tokens_out_size("
        "permuted_tokens_size_0, grad_unpermuted_tokens, sorted_indices, probs)",
        "  dtype: grad_unpermuted_tokens",
        "grad_probs:", "  size: npu_moe_token_unpermute_grad_v2_probs_out_size("
        "grad_unpermuted_tokens, sorted_indices, probs)", "  dtype: grad_unpermuted_tokens",
        "exec: aclnnSynth{n}, grad_unpermuted_tokens, sorted_indices, probs, grad_permuted, grad_probs"]),
    ("Tensor x, Tensor expert_ids, int ep_world_size, int ep_rank_id, int moe_expert_num, int expert_shard_type=0, "
     "int shared_expert_num=1, int shared_expert_rank_num=0, int quant_mode=0, int? y_dtype=None", [
        "y:", "  size: out_sizes[0]", "  dtype: out_y_dtype",
        "scales:", "  size: out_sizes[1]", "  dtype: at::kFloat",
        "new_params:",
        "  out_sizes: npu_moe_distribute_dispatch_setup_out_size(x, expert_ids, ep_world_size, ep_rank_id, "
        "moe_expert_num, expert_shard_type, shared_expert_num, shared_expert_rank_num, quant_mode, y_dtype)",
        "  out_y_dtype: (!y_dtype.has_value()) ? x.scalar_type() : "
        "npu_moe_distribute_dispatch_setup_out_dtype(y_dtype)",
        "exec: aclnnSynth{n}, x, expert_ids, ep_world_size, y, scales"]),
    ("Tensor x, Tensor expert_ids, int ep_world_size, int ep_rank_id, int moe_expert_num, int expert_shard_type=0, "
     "int shared_expert_rank_num=0, int global_bs=0, int quant_mode=0", [
        "y:", "  size: out_sizes[0]", "  dtype: x",
        "scales:", "  size: out_sizes[1]", "  dtype: float8_e8m0_dtype",
        "new_params:",
        "  out_sizes: npu_moe_distribute_dispatch_teardown_out_size(x, expert_ids, ep_world_size, ep_rank_id, "
        "moe_expert_num, expert_shard_type, shared_expert_rank_num, global_bs, quant_mode)",
        "  float8_e8m0_dtype: npu_preparation::convert_to_scalar_type("
        "c10_npu::GetAclDataType(c10_npu::DType::FLOAT8_E8M0))",
        "exec: aclnnSynth{n}, x, expert_ids, y, scales"]),
    ("Tensor expand_x, int ep_world_size", [
        "y:", "  size: out_sizes[0]", "  dtype: at::kChar", "info:", "  size: out_sizes[1]", "  dtype: at::kInt",
        "new_params:", "  out_sizes: npu_moe_distribute_combine_setup_out_size(expand_x, ep_world_size)",
        "exec: aclnnSynth{n}, expand_x, y, info"]),
    ("Tensor expand_x, Tensor expert_ids", [
        "y:", "  size: out_sizes[0]", "  dtype: expand_x",
        "new_params:", "  out_sizes: npu_moe_distribute_combine_teardown_out_size(expand_x, expert_ids)",
        "exec: aclnnSynth{n}, expand_x, expert_ids, y"]),
    ("Tensor input, int compress_block_size, int compress_stride, int[]? actual_seq_len=None, "
     "int? actual_seq_len_type=None", [
        "out:", "  size: npu_nsa_compress_out_size(input, actual_seq_len_type, actual_seq_len, compress_block_size, "
        "compress_stride)", "  dtype: input",
        "new_params:", "  actual_seq_len_value: actual_seq_len.value_or(at::IntArrayRef{})",
        "exec: aclnnSynth{n}, input, actual_seq_len_value, compress_block_size, compress_stride, out"]),
    ("Tensor query, Tensor value, int key_value_head_num, int select_block_count, str layout='TND'", [
        "out:", "  size: npu_nsa_compress_attention_infer_out_size(query, value, key_value_head_num, layout)",
        "  dtype: query",
        "topk:", "  size: npu_nsa_compress_attention_infer_topk_out_size(query, key_value_head_num, "
        "select_block_count, layout)", "  dtype: at::kInt",
        "new_params:", "  layout_ptr: 'const_cast<char *>(layout.data())'",
        "exec: aclnnSynth{n}, query, value, layout_ptr, out, topk"]),
    ("Tensor query, Tensor value, int head_num, int key_value_head_num, str layout='BSND'", [
        "out:", "  size: npu_nsa_select_attention_infer_out_size(query, value, head_num, key_value_head_num, layout)",
        "  dtype: query", "exec: aclnnSynth{n}, query, value, head_num, out"]),
    ("Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, "
     "Tensor? sorter=None", [
        "out:", "  size: self", "  dtype: 'out_int32 ? at::kInt : at::kLong'",
        "new_params:",
        "  right_eff: '(op_plugin::searchsorted_validate_core_no_output(sorted_sequence, self, out_int32, right, "
        "side, sorter), op_plugin::warn_if_searchsorted_inputs_noncontiguous(sorted_sequence, self, sorter), "
        "op_plugin::resolve_searchsorted_effective_right(right, side))'",
        "exec: aclnnSynth{n}, sorted_sequence, self, out_int32, right_eff, sorter, out"]),
    ("Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, "
     "Tensor? sorter=None", [
        "out:", "  size: c10::SmallVector<int64_t, op_infer::SIZE>{}", "  dtype: 'out_int32 ? at::kInt : at::kLong'",
        "new_params:",
        "  right_eff: '(op_plugin::searchsorted_validate_scalar_op(sorted_sequence, self, out_int32, right, side, "
        "sorter), op_plugin::warn_if_searchsorted_scalar_inputs_noncontiguous(sorted_sequence, sorter), "
        "op_plugin::resolve_searchsorted_effective_right(right, side))'",
        "exec: aclnnSynth{n}, sorted_sequence, self, out_int32, right_eff, sorter, out"]),
    ("Tensor self, Tensor weight, int pad", [
        "out:", "  size: '{self.size(0) + 2 * pad - weight.size(0) + 1, self.size(1), weight.size(2)}'",
        "  dtype: self",
        "new_params:",
        "  cube_math_type: npu_preparation::get_cube_math_type(at_npu::native::env::IsAllowConvHF32())",
        "  matmul_math_type: at_npu::native::OpPreparation::get_cube_math_type("
        "at_npu::native::env::IsAllowMatmulHF32())",
        "exec: aclnnSynth{n}, self, weight, pad, cube_math_type, matmul_math_type, out"]),
    ("Tensor self, ScalarType dtype", [
        "out:", "  size: c10::SmallVector<int64_t, op_infer::N>{}", "  dtype: c10_npu::GetATenDType(256 + 27)",
        "new_params:", "  acl_dtype: npu_preparation::convert_to_acl_data_type(dtype)",
        "  custom: c10_npu::IsCustomDType(static_cast<int64_t>(dtype))",
        "exec: aclnnSynth{n}, self, acl_dtype, custom, out"]),
]

# The tensor-out ops of upstream's searchsorted and the broadcast helper on sizes.
OUT_OPS: list[tuple[str, list[str]]] = [
    ("Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, "
     "Tensor? sorter=None, Tensor(a!) out", [
        "out:", "  size: self", "  dtype: 'out_int32 ? at::kInt : at::kLong'",
        "new_params:",
        "  right_eff: '(op_plugin::searchsorted_validate_tensor_out_op(sorted_sequence, self, out, out_int32, right, "
        "side, sorter), op_plugin::warn_if_searchsorted_inputs_noncontiguous(sorted_sequence, self, sorter), "
        "op_plugin::resolve_searchsorted_effective_right(right, side))'",
        "exec: aclnnSynth{n}, sorted_sequence, self, out_int32, right_eff, sorter, out"]),
    ("Tensor grad_output, Tensor self, Tensor target, *, Tensor(a!) out", [
        "out:", "  size: broadcast_ops_npu_output_size(broadcast_ops_npu_output_size(grad_output.sizes(), "
        "self.sizes()), target.sizes())", "  dtype: promoteTypes(grad_output.scalar_type(), "
        "at::result_type(target, self))",
        "exec: aclnnSynth{n}, grad_output, self, target, out"]),
]


def _yaml_line(line: str) -> str:
    """``key: value`` with the value single-quoted where plain YAML would misread it."""
    key, sep, value = line.partition(": ")
    if sep and value[:1] != "'" and (": " in value or value[:1] in "{[!&*?"):
        value = "'" + value.replace("'", "''") + "'"
    return key + sep + value


def _returns(lines: list[str]) -> int:
    return sum(1 for line in lines if re.fullmatch(r"[a-z_]+:", line) and line != "new_params:")


def helper_yaml() -> str:
    """A custom section with one op per HELPER_OPS entry (and the out= ones)."""
    out = ["custom:"]
    for i, (args, block) in enumerate(HELPER_OPS + OUT_OPS):
        name = f"npu_synth_helper{i}"
        is_out = "Tensor(a!) out" in args
        n = _returns(block)
        rets = "Tensor(a!)" if is_out else ("Tensor" if n == 1 else "(" + ", ".join(["Tensor"] * n) + ")")
        func = f"{name}.out({args}) -> {rets}" if is_out else f"{name}({args}) -> {rets}"
        out += [f"  - func: {func}", "    op_api: all_version", "    gen_opapi:"]
        out += [f"      {_yaml_line(line.replace('{n}', str(i)))}" for line in block]
        out.append("")
    return "\n".join(out) + "\n"


def filler_yaml(families: int = 375) -> str:
    """Ordinary entries (functional, out=, in-place and a dual-path op per family): an
    upstream-sized file around the helper ops."""
    lines = ["official:"]
    for i in range(families):
        name = f"synth_op{i}"
        lines += [
            f"  - func: {name}(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
            "    op_api: all_version",
            "    gen_opapi:",
            f"      structured_inherit: {name}.out",
            f"  - func: {name}.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
            "    op_api: all_version",
            "    acl_op: all_version",
            "    gen_opapi:",
            "      out:",
            "        size: broadcast_ops_npu_output_size(self, other)",
            "        dtype: at::native::result_type(self, other)",
            f"      exec: aclnnSynthOp{i}, self, other, alpha, out",
            f"  - func: {name}_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
            "    op_api: all_version",
            "    gen_opapi:",
            f"      structured_inherit: {name}.out",
            f"  - func: {name}_backward(Tensor grad, Tensor self, int[] dims, Tensor? weight, "
            "ScalarType? dtype=None, bool keepdim=False) -> (Tensor, Tensor)",
            "    acl_op: all_version",
            "    op_api: all_version",
            "",
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory, label: str) -> Path:
    root = tmp_path_factory.mktemp("helpers")
    yaml_dir = root / "yaml"
    yaml_dir.mkdir()
    shutil.copy(REPO / "yaml" / "versions.yaml", yaml_dir / "versions.yaml")
    (yaml_dir / "op_plugin_functions.yaml").write_text(filler_yaml() + helper_yaml())
    from opplugin_codegen import load_model
    from opplugin_codegen.api import write_labels

    model = load_model(yaml_dir)
    assert len(model.entries) >= 1500
    write_labels(model, [label], root / "out", shards=4)
    return root / "out" / label


def test_every_helper_is_called_by_an_op() -> None:
    from opplugin_codegen import expr_helpers

    text = helper_yaml() + filler_yaml(1)
    unused = [name for name in expr_helpers.HELPERS if name.rpartition("::")[2] not in text]
    # apply_tensor_* and IsCPUScalar are kernel-body helpers, CheckJitDisable a path switch:
    # allowed in expressions, not worth an op each.
    allowed_unused = {"apply_tensor_without_format", "apply_tensor_with_format", "IsCPUScalar", "CheckJitDisable",
                      "IsAllowFP32ToFP16"}
    assert [n for n in unused if n.rpartition("::")[2] not in allowed_unused] == []


def test_the_helper_ops_validate_and_a_missing_helper_is_refused(tmp_path: Path) -> None:
    from opplugin_codegen import load_model
    from opplugin_codegen.errors import CodegenError

    yaml_dir = tmp_path / "yaml"
    yaml_dir.mkdir()
    shutil.copy(REPO / "yaml" / "versions.yaml", yaml_dir / "versions.yaml")
    text = helper_yaml().replace("repeat_npu_output_size", "repeat_npu_outptu_size")
    (yaml_dir / "op_plugin_functions.yaml").write_text(text)
    with pytest.raises(CodegenError) as info:
        load_model(yaml_dir)
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "repeat_npu_outptu_size" in s)
    message = info.value.render()
    assert f"op_plugin_functions.yaml:{line}:" in message
    assert "'repeat_npu_outptu_size'" in message and "did you mean 'repeat_npu_output_size'" in message


def test_what_it_generates_compiles_against_the_runtime(generated: Path, compile_syntax_only) -> None:
    sources = [
        p
        for pattern in (
            "op_plugin/StructKernelNpuOpApi_*.cpp",
            "op_plugin/MetaFunctions_*.cpp",
            "op_plugin/OpInterface_*.cpp",
            "test_only/MetaCheckFunctions_*.cpp",
        )
        for p in sorted(generated.glob(pattern))
    ]
    assert len(sources) == 16
    runtime = [REPO / "packages" / "opplugin-runtime" / "csrc", REPO / "packages" / "ascendc-kernels" / "include"]
    failed = compile_syntax_only(sources, [generated, *runtime])
    assert not failed, "\n".join(failed)


def test_the_runtime_defines_every_helper() -> None:
    """Declared is not defined: each helper function has its definition in the runtime
    library (a missing one would make a generated kernel fail to load, not to compile)."""
    pytest.importorskip("opplugin_runtime")
    from opplugin_codegen import expr_helpers
    from opplugin_runtime.cpp_extension import runtime_library

    result = subprocess.run(["nm", "-DC", "--defined-only", str(runtime_library())], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    defined = {re.sub(r"\[abi:\w+\]$", "", name) for name in re.findall(r" T (\S+?)\(", result.stdout)}
    inline = {"op_infer::SIZE", "op_infer::N", "c10_npu::DType", "c10_npu::GetAclDataType", "c10_npu::GetATenDType",
              "c10_npu::IsCustomDType"} | {f"at_npu::native::env::{n}" for n in expr_helpers._ENV.split()}
    wanted = {
        name.replace("npu_preparation::", "at_npu::native::OpPreparation::")
        for name in expr_helpers.HELPERS
        if name not in inline
    }
    assert sorted(wanted - defined) == []
