"""The helpers that ``size``, ``dtype`` and ``new_params`` expressions of ``gen_opapi`` may
call, and the runtime header each one lives in (docs/contracts.md section 4).

Expressions are C++ copied verbatim into the generated kernels. Names of the runtime's own
namespaces (``op_infer``, ``op_plugin``, ``npu_preparation``, ``at_npu``, ``c10_npu``) and
unqualified calls are checked here, at generation time, so that a misspelt or missing helper
is reported at its YAML line instead of as a compiler error in a generated shard. Names of
PyTorch and the standard library (``at::``, ``c10::``, ``std::``, ``torch::``) and method calls
(``self.sizes()``) are left to the compiler.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

INFER_SIZE_H = '"npu/op_infer/InferSize.h"'
_CUSTOM_DTYPE_H = '"npu/core/CustomDType.h"'
_ENV_H = '"npu/dispatch/EnvVariables.h"'
_PREPARATION_H = '"npu/op_common/OpPreparation.h"'

#: The headers of what a generated shard says before kernels whose expressions call helpers
#: (templates/expression_helpers.j2).
USING_HEADERS = frozenset({INFER_SIZE_H, _PREPARATION_H})

# Namespaces the generated shards open with `using namespace` (expression_helpers.j2): their
# names may be called unqualified.
_UNQUALIFIED = ("op_infer", "op_plugin::utils")

_OP_INFER = """
    SIZE N
    broadcast_ops_npu_output_size input_same_output_size clamp_npu_output_size
    isclose_output_size addr_npu_output_size reduce_ops_npu_output_size repeat_npu_output_size
    stack_output_size glu_npu_output_size swiglu_backward_infershape cdist_npu_output_size
    triangular_solve_output_size adaptive_avg_pool3d_npu_output_size max_pool2d_out_size
    max_pool3d_output_size reflection_pad1d_npu_out_size reflection_pad2d_npu_out_size
    reflection_pad3d_npu_out_size replication_pad1d_npu_out_size replication_pad2d_npu_out_size
    replication_pad3d_npu_out_size im2col_backward_npu_output_size rms_norm_npu_output_size
    npu_gelu_mul_output_size npu_cross_entropy_loss_loss_output_size
    npu_cross_entropy_loss_lse_for_zloss_output_size npu_cross_entropy_loss_zloss_output_size
    npu_group_quant_out_size npu_gather_sparse_index_out_size
    npu_moe_token_permute_out_size npu_moe_token_permute_grad_out_size
    npu_moe_token_permute_grad_v2_out_size npu_moe_token_unpermute_grad_permuted_tokens_out_size
    npu_moe_token_unpermute_grad_probs_out_size
    npu_moe_token_unpermute_grad_v2_permuted_tokens_out_size
    npu_moe_token_unpermute_grad_v2_probs_out_size npu_moe_distribute_dispatch_setup_out_size
    npu_moe_distribute_dispatch_teardown_out_size npu_moe_distribute_combine_setup_out_size
    npu_moe_distribute_combine_teardown_out_size npu_nsa_compress_out_size
    npu_nsa_compress_attention_infer_out_size npu_nsa_compress_attention_infer_topk_out_size
    npu_nsa_select_attention_infer_out_size
    abs_out_dtype angle_out_dtype polar_out_dtype clamp_out_dtype clamp_scalar_out_dtype
    npu_group_norm_silu_dst_type npu_group_quant_dst_type
    npu_moe_distribute_dispatch_setup_out_dtype
    npu_gelu_approximate_mode npu_gelu_approximate_str
"""

_OP_PLUGIN_UTILS = "get_dimlist_for_tensor is_gte_cann_version_820rc1"

_OP_PLUGIN = """
    resolve_searchsorted_effective_right searchsorted_validate_core_no_output
    searchsorted_validate_scalar_op searchsorted_validate_tensor_out_op
    warn_if_searchsorted_inputs_noncontiguous warn_if_searchsorted_scalar_inputs_noncontiguous
"""

_PREPARATION = """
    convert_to_scalar_type convert_to_acl_data_type get_cube_math_type
    apply_tensor_without_format apply_tensor_with_format IsCPUScalar
"""

_ENV = "IsAllowConvHF32 IsAllowMatmulHF32 IsAllowFP32ToFP16 CheckJitDisable"

_C10_NPU = "GetAclDataType GetATenDType IsCustomDType DType"

#: Qualified helper name -> the header that declares it.
HELPERS: dict[str, str] = {
    **{f"op_infer::{n}": INFER_SIZE_H for n in _OP_INFER.split()},
    **{f"op_plugin::utils::{n}": INFER_SIZE_H for n in _OP_PLUGIN_UTILS.split()},
    **{f"op_plugin::{n}": INFER_SIZE_H for n in _OP_PLUGIN.split()},
    **{f"npu_preparation::{n}": _PREPARATION_H for n in _PREPARATION.split()},
    **{f"at_npu::native::OpPreparation::{n}": _PREPARATION_H for n in _PREPARATION.split()},
    **{f"at_npu::native::env::{n}": _ENV_H for n in _ENV.split()},
    **{f"c10_npu::{n}": _CUSTOM_DTYPE_H for n in _C10_NPU.split()},
}

#: Unqualified calls that need no helper: c10's dtype predicates (found through the
#: argument's namespace), functional casts to builtin types, and operators that look like
#: calls.
_FREE = """
    isIntegralType isFloatingType isComplexType isReducedFloatingType isSignedType promoteTypes
    canCast toRealValueType toComplexType elementSize
    int int8_t int16_t int32_t int64_t uint8_t uint32_t uint64_t size_t float double bool char
    sizeof alignof decltype noexcept static_assert
"""
_FREE_CALLS = frozenset(_FREE.split())

_OWN_ROOTS = ("op_infer", "op_plugin", "npu_preparation", "at_npu", "c10_npu")

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"' + r"|'(?:[^'\\]|\\.)*'")
_NAME = re.compile(r"(?<![\w.])(?<!::)(?<!->)((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*)(\s*\()?")


@dataclass(frozen=True)
class Problem:
    """A name an expression uses that no helper provides."""

    name: str
    suggestions: tuple[str, ...]


def _unqualified_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for qualified in HELPERS:
        ns, _, short = qualified.rpartition("::")
        if ns in _UNQUALIFIED:
            names[short] = qualified
    return names


_UNQUALIFIED_NAMES = _unqualified_names()


def _references(text: str) -> Iterable[tuple[str, bool]]:
    """(name, called) for each name that is not a member (``x.f``, ``p->f``) in ``text``."""
    text = _STRING.sub('""', text)
    for m in _NAME.finditer(text):
        yield re.sub(r"\s+", "", m.group(1)), m.group(2) is not None


def _own(name: str) -> str | None:
    """The helper a qualified name of our namespaces refers to, else None. An enumerator
    (``c10_npu::DType::FLOAT8_E8M0``) refers to its enum."""
    while name:
        if name in HELPERS:
            return name
        name = name.rpartition("::")[0]
    return None


def problems(text: str) -> list[Problem]:
    """The names ``text`` uses that are neither a runtime helper nor left to the compiler."""
    found: list[Problem] = []
    for name, called in _references(text):
        if "::" in name:
            root = name.split("::", 1)[0]
            if root in _OWN_ROOTS and _own(name) is None:
                found.append(Problem(name, _close(name, HELPERS)))
        elif called and name not in _UNQUALIFIED_NAMES and name not in _FREE_CALLS:
            found.append(Problem(name, _close(name, _UNQUALIFIED_NAMES)))
    return found


def headers(text: str) -> set[str]:
    """The runtime headers the helpers ``text`` calls are declared in."""
    out: set[str] = set()
    for name, called in _references(text):
        if "::" in name:
            helper = _own(name)
            if helper is not None:
                out.add(HELPERS[helper])
        elif called and name in _UNQUALIFIED_NAMES:
            out.add(HELPERS[_UNQUALIFIED_NAMES[name]])
    return out


def _close(name: str, candidates: Iterable[str]) -> tuple[str, ...]:
    """The closest candidate, compared on the last name component (a shared namespace
    prefix says nothing about a misspelling)."""
    import difflib

    ns, _, short = name.rpartition("::")
    by_short = {c.rpartition("::")[2]: c for c in candidates if c.rpartition("::")[0] == ns}
    match = difflib.get_close_matches(short, list(by_short), n=1, cutoff=0.75)
    return (by_short[match[0]],) if match else ()


def describe(problem: Problem, where: str) -> str:
    """One error line: what the expression calls, and what exists."""
    hint = f"; did you mean '{problem.suggestions[0]}'?" if problem.suggestions else ""
    return (
        f"gen_opapi: {where} calls '{problem.name}', which is not a helper the runtime "
        f"provides (docs/contracts.md section 4){hint}"
    )
