"""The helpers of npu_* custom operators and the shared dtype / attribute / searchsorted / CANN
version helpers (npu/op_infer/InferSize.h and the headers it brings): dtype helpers give the
dtypes PyTorch gives, searchsorted's checks accept and refuse what CPU torch.searchsorted does
with the same message, and custom-op shapes follow upstream op-plugin's rules, stated per test."""

from __future__ import annotations

import json
import math
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

FLOAT8_E4M3FN = torch.float8_e4m3fn
FLOAT8_E5M2 = torch.float8_e5m2


def meta(*shape, dtype=torch.float32):
    return torch.empty(shape, device="meta", dtype=dtype)


def refused(fn, *args, match: str):
    with pytest.raises(RuntimeError, match=match):
        fn(*args)


# ---- dtype helpers: compared with PyTorch --------------------------------------------------

REAL_AND_COMPLEX = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.int32,
                    torch.int64, torch.uint8, torch.complex64, torch.complex128]


@pytest.mark.parametrize("dtype", REAL_AND_COMPLEX)
def test_abs_dtype_is_torch_abs(infer_helpers, dtype):
    assert infer_helpers.abs_out_dtype(meta(2, dtype=dtype)) == torch.abs(meta(2, dtype=dtype)).dtype


@pytest.mark.parametrize("dtype", [*REAL_AND_COMPLEX, torch.bool])
@pytest.mark.parametrize("default", [torch.float32, torch.float64])
def test_angle_dtype_is_torch_angle(infer_helpers, dtype, default):
    previous = torch.get_default_dtype()
    torch.set_default_dtype(default)
    try:
        assert infer_helpers.angle_out_dtype(meta(2, dtype=dtype)) == torch.angle(meta(2, dtype=dtype)).dtype
    finally:
        torch.set_default_dtype(previous)


@pytest.mark.parametrize("abs_dtype,expected", [
    (torch.float32, torch.complex64), (torch.float64, torch.complex128),
    (torch.float16, torch.complex32),  # ATen's checks accept Half (CPU then has no kernel for it)
])
def test_polar_dtype_is_torch_polar(infer_helpers, abs_dtype, expected):
    if abs_dtype != torch.float16:
        assert torch.polar(torch.ones(1, dtype=abs_dtype), torch.ones(1, dtype=abs_dtype)).dtype == expected
    assert infer_helpers.polar_out_dtype(meta(2, dtype=abs_dtype), meta(2, dtype=abs_dtype)) == expected


@pytest.mark.parametrize("abs_dtype,angle_dtype", [
    (torch.float32, torch.float64), (torch.int32, torch.int32), (torch.bfloat16, torch.bfloat16),
])
def test_polar_dtype_refuses_what_cpu_polar_refuses(infer_helpers, abs_dtype, angle_dtype):
    # CPU's argument checks, not the Meta kernel's (which accepts mixed and bfloat16 inputs).
    with pytest.raises(RuntimeError, match="Expected"):
        torch.polar(torch.ones(1, dtype=abs_dtype), torch.ones(1, dtype=angle_dtype))
    refused(infer_helpers.polar_out_dtype, meta(2, dtype=abs_dtype), meta(2, dtype=angle_dtype),
            match="^polar: abs and angle must")


@pytest.mark.parametrize("self_dtype,low,high", [
    (torch.int32, meta(3), None),
    (torch.float16, meta(), None),  # a 0-dim bound does not promote a dimensioned self
    (torch.int64, None, meta(3, dtype=torch.int32)),
    (torch.uint8, meta(3, dtype=torch.int8), meta(dtype=torch.float64)),
    (torch.bfloat16, meta(3, dtype=torch.float16), None),
])
def test_clamp_dtype_is_torch_clamp(infer_helpers, self_dtype, low, high):
    self = meta(3, dtype=self_dtype)
    assert infer_helpers.clamp_out_dtype(self, low, high) == torch.clamp(self, low, high).dtype


@pytest.mark.parametrize("self_dtype,low,high", [
    (torch.int32, 1.5, None), (torch.int32, 2, None), (torch.float16, 2.5, 3), (torch.int64, None, 3.0),
    (torch.uint8, -1, None), (torch.bool, 0.5, None),
])
def test_clamp_scalar_dtype_is_torch_clamp(infer_helpers, self_dtype, low, high):
    self = meta(3, dtype=self_dtype)
    assert infer_helpers.clamp_scalar_out_dtype(self, low, high) == torch.clamp(self, low, high).dtype


def test_clamp_dtype_refusals(infer_helpers):
    refused(infer_helpers.clamp_out_dtype, meta(2), None, None, match="^clamp: at least one of min and max")
    refused(infer_helpers.clamp_scalar_out_dtype, meta(2), None, None, match="^clamp: at least one of min and max")
    refused(infer_helpers.clamp_out_dtype, meta(2, dtype=torch.complex64), meta(2), None, match="^clamp: complex")
    refused(infer_helpers.clamp_scalar_out_dtype, meta(2), 1j, None, match="^clamp: complex")


def test_group_norm_silu_dtype_is_input_dtype_on_the_simulated_soc(infer_helpers):
    # Weight and bias take part only from Ascend950 on (upstream); the simulator is an Ascend910B.
    got = infer_helpers.npu_group_norm_silu_dst_type(meta(2, 4, dtype=torch.float16), meta(4), meta(4))
    assert got == torch.float16


@pytest.mark.parametrize("dst,expected", [
    (None, torch.int8), (torch.int8, torch.int8), (torch.qint8, torch.int8), (torch.quint4x2, torch.int32),
])
def test_group_quant_dtype(infer_helpers, dst, expected):
    # int8 by default; qint8 is int8; int4 (quint4x2) is carried eight to an int32.
    assert infer_helpers.npu_group_quant_dst_type(dst) == expected


def test_group_quant_dtype_refuses_other_dtypes(infer_helpers):
    refused(infer_helpers.npu_group_quant_dst_type, torch.float16, match="^npu_group_quant: dst_dtype")


@pytest.mark.parametrize("code,expected", [
    (1, torch.int8),  # a ScalarType value (torch.int8)
    (15, torch.bfloat16),
    (256 + 2, torch.int8),  # torch_npu's custom code: 256 + the ACL data type (ACL_INT8)
    (256 + 35, FLOAT8_E5M2),
    (256 + 36, FLOAT8_E4M3FN),
    *([(256 + 37, torch.float8_e8m0fnu)] if hasattr(torch, "float8_e8m0fnu") else []),  # torch >= 2.7
])
def test_moe_dispatch_setup_dtype(infer_helpers, code, expected):
    assert infer_helpers.npu_moe_distribute_dispatch_setup_out_dtype(code) == expected


@pytest.mark.parametrize("code", [None, 256 + 34, -3, 250], ids=["absent", "hifloat8", "negative", "unknown"])
def test_moe_dispatch_setup_dtype_refusals(infer_helpers, code):
    refused(infer_helpers.npu_moe_distribute_dispatch_setup_out_dtype, code,
            match="^npu_moe_distribute_dispatch_setup: y_dtype")


# ---- attribute helpers and op_plugin::utils ------------------------------------------------


def test_gelu_approximate(infer_helpers):
    assert infer_helpers.npu_gelu_approximate_mode("none") == 0
    assert infer_helpers.npu_gelu_approximate_mode("tanh") == 1
    assert infer_helpers.npu_gelu_approximate_str("tanh") == "tanh"
    refused(infer_helpers.npu_gelu_approximate_mode, "exact", match="^npu_gelu: approximate must be")
    refused(infer_helpers.npu_gelu_approximate_str, "", match="^npu_gelu_backward / npu_gelu_mul: approximate")


def test_dimlist(infer_helpers):
    assert infer_helpers.get_dimlist_for_tensor(meta()) == []
    assert infer_helpers.get_dimlist_for_tensor(meta(2, 0, 3)) == [0, 1, 2]


_CANN_PROBE = """
import importlib.util
import torch, opplugin_runtime
spec = importlib.util.spec_from_file_location("npu_infer_helpers", {path!r})
helpers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(helpers)
print(helpers.is_gte_cann_version_820rc1(), helpers.is_gte_cann_version_820rc1())
"""

# The toolkit version (NPU_SIM_CANN_VERSION of the simulator; unset: its default, a current
# release) against 8.2.RC1. CANN orders T (test) builds < RC1 < RC2 < the X.Y.Z releases within
# one X.Y before 8.5, alpha < beta < rc < release from 8.5 on; different X.Y compare by X.Y; what
# is not a CANN version is not assumed new enough.
CANN_VERSIONS = {None: True, "8.1.RC1": False, "8.2.T5": False, "8.2.0": True}
MORE_CANN_VERSIONS = {
    "8.2.RC1": True, "8.2.RC1.alpha002": False, "8.3.RC1": True, "8.5.0.alpha001": True, "9.0.0-rc1": True,
    "7.3.0": False, "not-a-version": False,
}


def check_cann_gate(helpers_path, run_python, versions):
    """is_gte_cann_version_820rc1 in a fresh interpreter per version (the answer is cached)."""
    code = _CANN_PROBE.format(path=helpers_path)

    def probe(version):
        # An empty value is the simulator's default, whatever the parent's environment says.
        return run_python(code, env={"NPU_SIM_CANN_VERSION": version or ""})

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(zip(versions, pool.map(probe, versions)))
    for version, expected in versions.items():
        result = results[version]
        assert result.returncode == 0, (version, result.stderr)
        assert result.stdout.split() == [str(expected)] * 2, (version, result.stdout)


def test_cann_version_gate(infer_helpers, run_python):
    check_cann_gate(infer_helpers.__file__, run_python, CANN_VERSIONS)


@pytest.mark.slow
def test_cann_version_order(infer_helpers, run_python):
    check_cann_gate(infer_helpers.__file__, run_python, MORE_CANN_VERSIONS)


# ---- searchsorted: compared with CPU torch.searchsorted ------------------------------------


def cpu_error(fn):
    try:
        fn()
    except RuntimeError as error:
        return str(error)
    return None


def helper_error(fn):
    try:
        assert fn() == 0
    except RuntimeError as error:
        return str(error).split("\n")[0]
    return None


B1 = torch.tensor([1.0, 2.0, 3.0, 5.0])
B2 = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]])
SEARCHSORTED_CASES = {
    "valid-1d": (B1, torch.tensor([[0.5, 2.0], [4.0, 9.0]]), {}),
    "valid-2d": (B2, torch.tensor([[1.5], [5.0]]), {"right": True}),
    "valid-sorter": (torch.tensor([3.0, 1.0, 2.0]), torch.tensor([2.5]),
                     {"sorter": torch.tensor([1, 2, 0]), "side": "right"}),
    "bad-side": (B1, torch.tensor([1.0]), {"side": "middle"}),
    "opposite-side": (B1, torch.tensor([1.0]), {"side": "left", "right": True}),
    "sorter-size": (B1, torch.tensor([1.0]), {"sorter": torch.tensor([0, 1, 2])}),
    "sorter-dtype": (B1, torch.tensor([1.0]), {"sorter": torch.tensor([0, 1, 2, 3], dtype=torch.int32)}),
    "sorter-range": (B1, torch.tensor([1.0]), {"sorter": torch.tensor([0, 1, 2, 4])}),
    "scalar-input-2d-boundaries": (B2, torch.tensor(1.0), {}),
    "0d-boundaries": (torch.tensor(1.0), torch.tensor([1.0]), {}),
    "leading-dims": (B2, torch.tensor([[1.0], [2.0], [3.0]]), {}),
    "one-element-input-2d": (B2, torch.tensor([1.0]), {}),
    "empty-input": (B1, torch.empty(0), {"out_int32": True}),
}


def _helper_kwargs(kwargs):
    return (kwargs.get("out_int32", False), kwargs.get("right", False), kwargs.get("side"), kwargs.get("sorter"))


@pytest.mark.parametrize("case", SEARCHSORTED_CASES)
def test_searchsorted_checks_are_cpus(infer_helpers, case):
    boundaries, values, kwargs = SEARCHSORTED_CASES[case]
    expected = cpu_error(lambda: torch.searchsorted(boundaries, values, **kwargs))
    got = helper_error(lambda: infer_helpers.searchsorted_validate_core_no_output(
        boundaries, values, *_helper_kwargs(kwargs)))
    assert got == expected


@pytest.mark.parametrize("out_dtype,out_int32", [(torch.int64, False), (torch.int32, True), (torch.int32, False),
                                                 (torch.float32, True)])
def test_searchsorted_out_checks_are_cpus(infer_helpers, out_dtype, out_int32):
    values = torch.tensor([1.5, 4.0])
    out = torch.empty(2, dtype=out_dtype)
    expected = cpu_error(lambda: torch.searchsorted(B1, values, out_int32=out_int32, out=out))
    got = helper_error(lambda: infer_helpers.searchsorted_validate_tensor_out_op(
        B1, values, torch.empty(2, dtype=out_dtype), out_int32, False, None, None))
    assert got == expected


@pytest.mark.parametrize("boundaries,kwargs", [(B1, {}), (B2, {}), (B1, {"side": "up"}),
                                               (torch.tensor([3.0, 1.0]), {"sorter": torch.tensor([1, 0])})])
def test_searchsorted_scalar_checks_are_cpus(infer_helpers, boundaries, kwargs):
    expected = cpu_error(lambda: torch.searchsorted(boundaries, 2, **kwargs))
    got = helper_error(lambda: infer_helpers.searchsorted_validate_scalar_op(
        boundaries, 2, *_helper_kwargs(kwargs)))
    assert got == expected


def test_searchsorted_device_check(infer_helpers):
    # CPU cannot mix devices before dispatch; the message is ATen's.
    got = helper_error(lambda: infer_helpers.searchsorted_validate_core_no_output(
        meta(3), torch.zeros(2), False, False, None, None))
    assert got == ("torch.searchsorted(): boundaries and input value tensors should have same device type, but got "
                   "boundaries tensor device type meta and input value tensor device type cpu")


@pytest.mark.parametrize("right,side,expected", [(False, None, False), (True, None, True), (False, "right", True),
                                                 (True, "right", True), (False, "left", False)])
def test_searchsorted_effective_right(infer_helpers, right, side, expected):
    assert infer_helpers.resolve_searchsorted_effective_right(right, side) is expected


_WARNINGS_PROBE = """
import importlib.util, json, sys, warnings
import torch, opplugin_runtime
spec = importlib.util.spec_from_file_location("npu_infer_helpers", {path!r})
helpers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(helpers)

boundaries = torch.tensor([[1.0, 5.0], [2.0, 6.0]]).t()  # columns sorted, non-contiguous
values = torch.tensor([[1.5, 3.0, 0.0], [2.5, 7.0, 0.0]])[:, :2]
sorter = torch.tensor([[0, 0], [1, 1]]).t()
def record(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught]
print(json.dumps({{
    "cpu": record(lambda: torch.searchsorted(boundaries, values, sorter=sorter)),
    "empty": record(lambda: helpers.warn_if_searchsorted_inputs_noncontiguous(boundaries, torch.empty(2, 0), sorter)),
    "ours": record(lambda: helpers.warn_if_searchsorted_inputs_noncontiguous(boundaries, values, sorter)),
    "again": record(lambda: helpers.warn_if_searchsorted_scalar_inputs_noncontiguous(boundaries, sorter)),
}}))
"""


def test_searchsorted_noncontiguous_warnings_are_cpus(infer_helpers, run_python):
    # Once per program each, as on CPU, and none when there is nothing to search for.
    result = run_python(_WARNINGS_PROBE.format(path=infer_helpers.__file__))
    assert result.returncode == 0, result.stderr
    warned = json.loads(result.stdout.strip().splitlines()[-1])
    assert len(warned["cpu"]) == 3
    assert warned["empty"] == []
    def without_origin(messages):
        return [re.sub(r" \(Triggered internally at .*", "", m, flags=re.S) for m in messages]

    assert without_origin(warned["ours"]) == without_origin(warned["cpu"])
    assert warned["again"] == []


# ---- custom operators: shapes by upstream's rules ------------------------------------------


def test_swiglu(infer_helpers):
    # x with `dim` halved (x is split into two halves along dim).
    assert infer_helpers.swiglu_backward_infershape(meta(2, 6, 4), -2) == [2, 3, 4]
    assert infer_helpers.swiglu_backward_infershape(meta(2, 6, 4), 2) == [2, 6, 2]
    refused(infer_helpers.swiglu_backward_infershape, meta(2, 6), 2, match=r"^npu_swiglu: dim must be in \[-2, 1\]")
    refused(infer_helpers.swiglu_backward_infershape, meta(2, 5), -1, match="^npu_swiglu: x.size.*must be even")
    refused(infer_helpers.swiglu_backward_infershape, meta(), 0, match="^npu_swiglu: x must have at least one dim")


def test_rms_norm(infer_helpers):
    # {self's shape, rstd: self's leading dims, then 1 for each of gamma's dims}.
    assert infer_helpers.rms_norm_npu_output_size(meta(2, 3, 4), meta(4)) == [[2, 3, 4], [2, 3, 1]]
    assert infer_helpers.rms_norm_npu_output_size(meta(2, 3, 4), meta(3, 4)) == [[2, 3, 4], [2, 1, 1]]
    refused(infer_helpers.rms_norm_npu_output_size, meta(4), meta(1, 4), match="^npu_rms_norm: gamma .* more dims")
    refused(infer_helpers.rms_norm_npu_output_size, meta(2, 4), meta(5), match="^npu_rms_norm: gamma's shape")


def test_gelu_mul(infer_helpers):
    # input with its last dim halved.
    assert infer_helpers.npu_gelu_mul_output_size(meta(3, 8)) == [3, 4]
    refused(infer_helpers.npu_gelu_mul_output_size, meta(3, 7), match="^npu_gelu_mul: input's last dim must be even")
    refused(infer_helpers.npu_gelu_mul_output_size, meta(), match="^npu_gelu_mul: input must have at least one dim")


def test_cross_entropy_loss(infer_helpers):
    # input (N, C): loss (N,) unreduced, else (1,); zloss like loss when returned, else (0,);
    # lse_for_zloss (N,) with a z-loss scale, else (0,).
    h, x = infer_helpers, meta(5, 10)
    assert h.npu_cross_entropy_loss_loss_output_size(x, "none") == [5]
    assert h.npu_cross_entropy_loss_loss_output_size(x, "mean") == [1]
    assert h.npu_cross_entropy_loss_zloss_output_size(x, "sum", True) == [1]
    assert h.npu_cross_entropy_loss_zloss_output_size(x, "none", True) == [5]
    assert h.npu_cross_entropy_loss_zloss_output_size(x, "none", False) == [0]
    assert h.npu_cross_entropy_loss_lse_for_zloss_output_size(x, 0.5) == [5]
    assert h.npu_cross_entropy_loss_lse_for_zloss_output_size(x, 0.0) == [0]
    refused(h.npu_cross_entropy_loss_loss_output_size, x, "avg", match="^npu_cross_entropy_loss: reduction")
    refused(h.npu_cross_entropy_loss_lse_for_zloss_output_size, meta(5), 1.0,
            match="^npu_cross_entropy_loss: input must be 2-D")


def test_group_quant(infer_helpers):
    # x's shape; for int4 (quint4x2) the last dim packs eight values per int32.
    assert infer_helpers.npu_group_quant_out_size(meta(4, 16), None) == [4, 16]
    assert infer_helpers.npu_group_quant_out_size(meta(4, 16), torch.quint4x2) == [4, 2]
    refused(infer_helpers.npu_group_quant_out_size, meta(4, 12), torch.quint4x2,
            match="^npu_group_quant: x's last dim must be a multiple of 8")


def test_gather_sparse_index(infer_helpers):
    # index's shape, then input's dims after the first; a 0-D input gives a 0-D output.
    assert infer_helpers.npu_gather_sparse_index_out_size(meta(10, 3, 4), meta(2, 5)) == [2, 5, 3, 4]
    assert infer_helpers.npu_gather_sparse_index_out_size(meta(), meta(2)) == []
    refused(infer_helpers.npu_gather_sparse_index_out_size, meta(*[2] * 5), meta(*[1] * 5),
            match="^npu_gather_sparse_index: input.dim.. \\+ index.dim.. - 1 must be at most 8")


def test_moe_token_permute(infer_helpers):
    # (rows, tokens.size(1)): rows = min(num_out_tokens, indices.numel()) when positive, else
    # indices.numel() + num_out_tokens.
    h, tokens, indices = infer_helpers, meta(6, 16), meta(6, 2, dtype=torch.int64)
    assert h.npu_moe_token_permute_out_size(tokens, indices, None) == [12, 16]
    assert h.npu_moe_token_permute_out_size(tokens, indices, 5) == [5, 16]
    assert h.npu_moe_token_permute_out_size(tokens, indices, 20) == [12, 16]
    assert h.npu_moe_token_permute_out_size(tokens, indices, -2) == [10, 16]
    refused(h.npu_moe_token_permute_out_size, tokens, indices, -13, match="^npu_moe_token_permute: num_out_tokens")
    refused(h.npu_moe_token_permute_out_size, meta(6, 2, 16), indices, None,
            match="^npu_moe_token_permute: tokens must be 2-D, but got a 3-D tensor")
    refused(h.npu_moe_token_permute_out_size, tokens, meta(6, 2, 1), None,
            match="^npu_moe_token_permute: indices must be 1-D or 2-D")


def test_moe_token_permute_grad(infer_helpers):
    # (tokens.size(0) or tokens_size_0, grad_permuted_tokens.size(1)).
    h = infer_helpers
    assert h.npu_moe_token_permute_grad_out_size(meta(6, 16), meta(12, 16), meta(6, 2), meta(12)) == [6, 16]
    assert h.npu_moe_token_permute_grad_v2_out_size(6, meta(12, 16), meta(12)) == [6, 16]
    refused(h.npu_moe_token_permute_grad_out_size, meta(6, 16), meta(12), meta(6, 2), meta(12),
            match="^npu_moe_token_permute_grad: grad_permuted_tokens must be 2-D")
    refused(h.npu_moe_token_permute_grad_v2_out_size, -1, meta(12, 16), meta(12),
            match="^npu_moe_token_permute_grad_v2: tokens_size_0")


def test_moe_token_unpermute_grad(infer_helpers):
    # grad of permuted_tokens: permuted_tokens' shape ((permuted_tokens_size_0, grad.size(1)) for
    # v2); grad of probs: probs' shape, or 0-D without probs.
    h, permuted, grad, order, probs = infer_helpers, meta(12, 16), meta(6, 16), meta(12), meta(6, 2)
    assert h.npu_moe_token_unpermute_grad_permuted_tokens_out_size(permuted, grad, order, probs) == [12, 16]
    assert h.npu_moe_token_unpermute_grad_probs_out_size(permuted, grad, order, probs) == [6, 2]
    assert h.npu_moe_token_unpermute_grad_probs_out_size(permuted, grad, order, None) == []
    assert h.npu_moe_token_unpermute_grad_v2_permuted_tokens_out_size(12, grad, order, None) == [12, 16]
    assert h.npu_moe_token_unpermute_grad_v2_probs_out_size(grad, order, probs) == [6, 2]
    assert h.npu_moe_token_unpermute_grad_v2_probs_out_size(grad, order, None) == []
    refused(h.npu_moe_token_unpermute_grad_permuted_tokens_out_size, permuted, grad, meta(12, 1), None,
            match="^npu_moe_token_unpermute_grad: sorted_indices must be 1-D")
    refused(h.npu_moe_token_unpermute_grad_v2_probs_out_size, grad, order, meta(12),
            match="^npu_moe_token_unpermute_grad_v2: probs must be 2-D")


def dispatch_row_bytes(h, quant_mode):
    """Upstream's row size of dispatch's y (512-byte aligned): 2-byte values; int8 values; + a
    float scale; + a float scale per 128 values; MX: values + a scale byte per 32 values."""
    def align(x, n):
        return math.ceil(x / n) * n
    return [align(align(h * 2, 32), 512) // 2, align(align(h, 32), 512), align(align(h, 32) + 4, 512),
            align(align(h, 128) + math.ceil(h / 128) * 4, 512),
            align(align(h, 256) + align(math.ceil(h / 32), 2), 512)][quant_mode]


@pytest.mark.parametrize("quant_mode", range(5))
def test_moe_distribute_dispatch_setup(infer_helpers, quant_mode):
    # y (bs * (k + shared_expert_num), row size); expand_idx (bs * k,); comm_cmd_info
    # ((bs * (k + shared_expert_num) + ep_world_size * local experts) * 16,), local experts being
    # 1 on a shared-expert rank, else moe_expert_num / (ep_world_size - shared_expert_rank_num).
    x, ids = meta(8, 1000), meta(8, 8)
    assert [dispatch_row_bytes(1000, q) for q in range(5)] == [1024, 1024, 1536, 1536, 1536]
    got = infer_helpers.npu_moe_distribute_dispatch_setup_out_size(x, ids, 16, 3, 256, 0, 1, 0, quant_mode, None)
    assert got == [[72, dispatch_row_bytes(1000, quant_mode)], [64], [(72 + 16 * 16) * 16]]
    shared = infer_helpers.npu_moe_distribute_dispatch_setup_out_size(x, ids, 8, 1, 24, 0, 1, 2, quant_mode, None)
    assert shared[2] == [(72 + 8 * 1) * 16]
    moe_rank = infer_helpers.npu_moe_distribute_dispatch_setup_out_size(x, ids, 8, 5, 24, 0, 1, 2, quant_mode, None)
    assert moe_rank[2] == [(72 + 8 * 4) * 16]


@pytest.mark.parametrize("args,match", [
    ((16, 16, 256, 0, 1, 0, 0), "ep_rank_id must be in"),
    ((16, -1, 256, 0, 1, 0, 0), "ep_rank_id must be in"),
    ((16, 0, 256, 0, 1, 9, 0), "shared_expert_rank_num must be in"),
    ((16, 3, 250, 0, 1, 0, 0), "moe_expert_num must be a positive multiple of .* \\(16\\)"),
    ((16, 3, 256, 0, 1, 0, 5), "quant_mode must be"),
    ((16, 3, 256, 1, 1, 0, 0), "only expert_shard_type 0"),
    ((16, 3, 256, 0, -1, 0, 0), "shared_expert_num must not be negative"),
])
def test_moe_distribute_dispatch_setup_refusals(infer_helpers, args, match):
    refused(infer_helpers.npu_moe_distribute_dispatch_setup_out_size, meta(8, 1000), meta(8, 8), *args, None,
            match=f"^npu_moe_distribute_dispatch_setup: {match}")
    refused(infer_helpers.npu_moe_distribute_dispatch_setup_out_size, meta(8, 1000, 1), meta(8, 8), 16, 0, 256, 0,
            1, 0, 0, None, match="^npu_moe_distribute_dispatch_setup: x must be 2-D")


def test_moe_distribute_dispatch_teardown(infer_helpers):
    # a rows received: global_bs (0: bs * ep_world_size) / shared_expert_rank_num on a shared
    # rank, else global_bs * min(local experts, k). Outputs: expand_x (a, h); dynamic_scales (a,),
    # (a, ceil(h / 128)) per group, (a, ceil(h / 32) rounded up to even) for MX;
    # assist_info_for_combine (a * 128,); expert_token_nums (local experts,).
    h, x, ids = infer_helpers, meta(8, 1000), meta(8, 8)
    fn = h.npu_moe_distribute_dispatch_teardown_out_size
    assert fn(x, ids, 16, 2, 256, 0, 0, 0, 0) == [[1024, 1000], [1024], [1024 * 128], [16]]
    assert fn(x, ids, 16, 2, 256, 0, 0, 0, 3)[1] == [1024, 8]
    assert fn(x, ids, 16, 2, 256, 0, 0, 0, 4)[1] == [1024, 32]
    assert fn(x, ids, 8, 0, 24, 0, 2, 64, 0) == [[32, 1000], [32], [32 * 128], [1]]
    assert fn(x, ids, 8, 4, 24, 0, 2, 64, 0)[0] == [64 * 4, 1000]
    refused(fn, x, ids, 8, 4, 24, 0, 2, -1, 0, match="^npu_moe_distribute_dispatch_teardown: global_bs")
    refused(fn, x, meta(8), 8, 4, 24, 0, 2, 0, 0, match="^npu_moe_distribute_dispatch_teardown: expert_ids must be 2-D")


def test_moe_distribute_combine(infer_helpers):
    # setup: quant_expand_x (a, align512(align32(h) + align8(h) / 8 * 4)), comm_cmd_info
    # ((a + ep_world_size) * 16,); teardown: x (expert_ids.size(0), expand_x.size(1)).
    h = infer_helpers
    assert h.npu_moe_distribute_combine_setup_out_size(meta(1024, 1000), 16) == [[1024, 1536], [(1024 + 16) * 16]]
    assert h.npu_moe_distribute_combine_teardown_out_size(meta(1024, 1000), meta(8, 8)) == [[8, 1000]]
    refused(h.npu_moe_distribute_combine_setup_out_size, meta(1024, 1000), 0,
            match="^npu_moe_distribute_combine_setup: ep_world_size must be positive")
    refused(h.npu_moe_distribute_combine_teardown_out_size, meta(1024), meta(8, 8),
            match="^npu_moe_distribute_combine_teardown: expand_x must be 2-D")


def test_nsa_compress(infer_helpers):
    # (windows, N, D) of input (T, N, D): a sequence of length s (from the prefix sums
    # actual_seq_len) gives (s - block) // stride + 1 windows when s >= block, else none.
    fn = infer_helpers.npu_nsa_compress_out_size
    x = meta(100, 4, 16)
    assert fn(x, None, [30, 30, 100], 32, 16) == [3, 4, 16]
    assert fn(x, 0, [64, 100], 32, 16) == [3 + 1, 4, 16]
    for args, match in [((None, None, 32, 16), "actual_seq_len must be given"),
                        ((None, [50, 40], 32, 16), "actual_seq_len must be non-decreasing"),
                        ((None, [101], 32, 16), "actual_seq_len must be non-decreasing"),
                        ((None, [64], 32, 0), "compress_stride must be positive"),
                        ((None, [64], 0, 16), "compress_block_size must be positive"),
                        ((1, [64], 32, 16), "only actual_seq_len_type 0")]:
        refused(fn, x, *args, match=f"^npu_nsa_compress: {match}")
    refused(fn, meta(100, 64), None, [64], 32, 16, match="^npu_nsa_compress: input must be 3-D")


def test_nsa_compress_attention_infer(infer_helpers):
    # attention (query's leading dims, value head size), value being (blocks, block size,
    # key_value_head_num * D_v); topk (query's leading dims, key_value_head_num, select_block_count).
    h, value = infer_helpers, meta(10, 128, 2 * 128)
    assert h.npu_nsa_compress_attention_infer_out_size(meta(4, 8, 192), value, 2, "TND") == [4, 8, 128]
    assert h.npu_nsa_compress_attention_infer_out_size(meta(2, 3, 8, 192), value, 2, "BSND") == [2, 3, 8, 128]
    assert h.npu_nsa_compress_attention_infer_topk_out_size(meta(4, 8, 192), 2, 16, "TND") == [4, 2, 16]
    assert h.npu_nsa_compress_attention_infer_topk_out_size(meta(2, 3, 8, 192), 2, 16, "BSND") == [2, 3, 2, 16]
    op = "^npu_nsa_compress_attention_infer: "
    refused(h.npu_nsa_compress_attention_infer_out_size, meta(4, 8, 192), value, 2, "BSH",
            match=op + "layout must be one of TND, BSND, but got 'BSH'")
    refused(h.npu_nsa_compress_attention_infer_out_size, meta(4, 8, 192), value, 0, "TND",
            match=op + "key_value_head_num must be positive")
    refused(h.npu_nsa_compress_attention_infer_out_size, meta(4, 8, 192), value, 3, "TND",
            match=op + "value.size.2. .256. must be a multiple of key_value_head_num .3.")
    refused(h.npu_nsa_compress_attention_infer_out_size, meta(4, 8, 192), value, 2, "BSND",
            match=op + "query must be 4-D")
    refused(h.npu_nsa_compress_attention_infer_topk_out_size, meta(4, 8, 192), 2, 0, "TND",
            match=op + "select_block_count must be positive")


def test_nsa_select_attention_infer(infer_helpers):
    # BSH: (B, S, head_num * D_v); TND: (T, N, D_v); BSND: (B, S, N, value.size(3)); D_v being
    # value.size(2) / key_value_head_num of a (blocks, block size, H) value.
    fn, value = infer_helpers.npu_nsa_select_attention_infer_out_size, meta(10, 128, 2 * 128)
    assert fn(meta(2, 1, 8 * 192), value, 8, 2, "BSH") == [2, 1, 8 * 128]
    assert fn(meta(4, 8, 192), value, 8, 2, "TND") == [4, 8, 128]
    assert fn(meta(2, 1, 8, 192), meta(10, 128, 2, 128), 8, 2, "BSND") == [2, 1, 8, 128]
    op = "^npu_nsa_select_attention_infer: "
    refused(fn, meta(4, 8, 192), value, 8, 0, "TND", match=op + "key_value_head_num must be positive")
    refused(fn, meta(4, 8, 192), value, 8, 2, "SBH", match=op + "layout must be one of BSH, BSND, TND")
    refused(fn, meta(2, 1, 8, 192), value, 8, 2, "BSND", match=op + "value must be 4-D")
    refused(fn, meta(2, 1, 8 * 192), value, 0, 2, "BSH", match=op + "head_num must be positive")
