"""A/B tests between the two implementation paths.

For every operator the label declares with BOTH paths live (op_api and acl_op in the yaml
projection, registered for npu), the OpInfo samples run once forced onto op_api
(jit_compile=False) and once onto acl_op (jit_compile=True); the results must agree, and
torch.npu.expect_paths makes any two-path operator that takes the other path fail inside the
op. The ledger must show that each run reached a two-path operator on the forced path (a
sample that only reaches other operators proves nothing about the paths). The function and,
where the OpInfo has one, the in-place variant run. Skips: entries with `test: ab` in
tests/opinfo_skips.yaml.
"""

from __future__ import annotations

import itertools
from typing import Any

import npu_opinfo  # loaded by tests/conftest.py
import opplugin_runtime  # noqa: F401  before torch.testing._internal
import pytest
import torch
from torch.testing._internal.common_device_type import OpDTypes, instantiate_device_type_tests, ops
from torch.testing._internal.common_methods_invocations import op_db
from torch.testing._internal.common_utils import TestCase

LIVE = npu_opinfo.live_ops()
TWO_PATH = sorted(op for op, paths in LIVE.items() if {"op_api", "acl_op"} <= paths)
TWO_PATH_BASES = {npu_opinfo.base_name(op) for op in TWO_PATH}
SELECTED, _ = npu_opinfo.select(op_db, TWO_PATH)
SKIPS = npu_opinfo.load_skips()
MAX_SAMPLES = 8
_AB_COVERED = set().union(*(npu_opinfo.aten_candidates(o) for o in SELECTED)) if SELECTED else set()
npu_opinfo.NOTES.append(
    f"A/B: {len(TWO_PATH)} two-path operators of {npu_opinfo.label()}, {len(SELECTED)} OpInfos reach them; "
    f"two-path operators without an OpInfo: {', '.join(sorted(TWO_PATH_BASES - _AB_COVERED)) or 'none'}"
)
PATHS = {"op_api": False, "acl_op": True}  # path -> jit_compile
# Operators whose index among equal values PyTorch leaves to the device (torch.median: indices "not necessarily
# the first occurrence ... device-specific"): the acl_op path takes TopKV2's order, the op_api path CPU's. Their
# values must agree, and each path's indices must point at its values.
TIE_INDICES = {"kthvalue", "median", "nanmedian"}


def _dim_and_keepdim(op_name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, bool]:
    """The dim and keepdim arguments of a kthvalue (after k) / median / nanmedian sample."""
    rest = args[1:] if op_name == "kthvalue" else args
    dim = rest[0] if rest else kwargs.get("dim", -1 if op_name == "kthvalue" else None)
    keepdim = rest[1] if len(rest) > 1 else kwargs.get("keepdim", False)
    return dim, keepdim


def _assert_indices_point_at_values(x: torch.Tensor, dim: int, keepdim: bool, values: torch.Tensor,
                                    indices: torch.Tensor, where: str) -> None:
    if x.dim() == 0:
        picked = x
    else:
        picked = x.gather(dim, indices if keepdim else indices.unsqueeze(dim))
        picked = picked if keepdim else picked.squeeze(dim)
    torch.testing.assert_close(picked, values, rtol=0, atol=0, equal_nan=True, msg=lambda m: f"{where}: {m}")


def run_forced(path: str, fn: Any, parts: tuple[Any, tuple[Any, ...], dict[str, Any]]) -> tuple[Any, dict]:
    """fn(*parts) with the dual-path choice forced onto `path`; (result or exception, ledger)."""
    torch.npu.set_compile_mode(jit_compile=PATHS[path])
    torch.npu.reset_path_ledger()
    with torch.npu.expect_paths({op: path for op in TWO_PATH}):
        try:
            result: Any = fn(parts[0], *parts[1], **parts[2])
        except Exception as error:  # noqa: BLE001  the op's own error: compared with the other path's
            result = error
    return result, torch.npu.path_ledger()


class TestNpuPathAB(TestCase):
    @ops(SELECTED, dtypes=OpDTypes.supported, allowed_dtypes=(torch.float32, torch.int64, torch.bool))
    def test_op_api_equals_acl_op(self, device: str, dtype: torch.dtype, op) -> None:
        # No setUp/tearDown (zero-argument super() fails in the classes torch 2.1 instantiates).
        with npu_opinfo.modes(fallback="silent", jit_compile=False):
            self._compare_paths(device, dtype, op)

    def _compare_paths(self, device: str, dtype: torch.dtype, op) -> None:
        entry = npu_opinfo.find_skip(SKIPS, op, dtype, "ab")
        if entry is not None and entry.kind == "skip":
            self.skipTest(f"opinfo_skips.yaml: {entry.reason}")
        values = entry is None or entry.kind != "meta_only"
        variants = [("function", op.op)] + ([("in-place", op.inplace_variant)] if op.inplace_variant else [])
        counts = npu_opinfo.count("a/b op_api vs acl_op")
        reached: set[str] = set()

        def body(sample: Any, index: int) -> None:
            for variant, fn in variants:
                outcome = {}
                for path in PATHS:
                    parts = npu_opinfo.sample_to(sample, device)
                    result, ledger = run_forced(path, fn, parts)
                    outcome[path] = (result, parts)
                    taken = {name for name, c in ledger.items() if name in TWO_PATH and c[path]}
                    wrong = {name for name, c in ledger.items() if name in TWO_PATH and sum(c.values()) > c[path]}
                    assert not wrong, f"{variant}: forced onto {path}, but {sorted(wrong)} took another path"
                    reached.update(taken)
                a, b = outcome["op_api"][0], outcome["acl_op"][0]
                where = f"{npu_opinfo.opinfo_id(op)} {variant}"
                if isinstance(a, Exception) or isinstance(b, Exception):
                    assert type(a) is type(b), f"{where}: op_api gave {a!r}, acl_op gave {b!r}"
                    continue
                dim, keepdim = _dim_and_keepdim(op.name, tuple(sample.args), dict(sample.kwargs))
                if op.name in TIE_INDICES and dim is not None and isinstance(a, tuple):
                    npu_opinfo.assert_same(b[0], _cpu(a[0]), values=values, where=f"{where}: acl_op vs op_api values")
                    for path, (vals, idx) in (("op_api", a), ("acl_op", b)):
                        _assert_indices_point_at_values(sample.input, dim, keepdim, vals.cpu(), idx.cpu(),
                                                        f"{where}: {path} indices")
                    continue
                npu_opinfo.assert_same(b, _cpu(a), values=values, where=f"{where}: acl_op vs op_api")
                if variant == "in-place":
                    npu_opinfo.assert_same(outcome["acl_op"][1][0], outcome["op_api"][1][0].cpu(), values=values,
                                           where=f"{where}: mutated input, acl_op vs op_api")

        samples = itertools.islice(op.sample_inputs("cpu", dtype), MAX_SAMPLES)
        failures = npu_opinfo.run_samples(samples, body, counts)
        if entry is not None and entry.kind == "xfail":
            if not failures:
                self.fail(f"stale entry in opinfo_skips.yaml: {npu_opinfo.opinfo_id(op)} ab "
                          f"{npu_opinfo.dtype_name(dtype)} passes now; remove it ({entry.reason})")
            counts.expected_failures += len(failures)
            pytest.xfail(f"opinfo_skips.yaml: {entry.reason}: {failures[0]}")
        if failures:
            self.fail(f"{npu_opinfo.opinfo_id(op)} {dtype}: {len(failures)} sample(s) differ between paths:\n"
                      + "\n".join(failures[:10]))
        self.assertTrue(reached, f"{npu_opinfo.opinfo_id(op)}: no sample reached a two-path operator "
                                 f"({', '.join(TWO_PATH)}) on the forced paths")


def _cpu(result: Any) -> Any:
    from torch.utils._pytree import tree_map

    return tree_map(lambda x: x.cpu() if isinstance(x, torch.Tensor) else x, result)


npu_opinfo.accept_privateuse1_device_type(op_db)
instantiate_device_type_tests(TestNpuPathAB, globals(), only_for=("privateuse1",))
