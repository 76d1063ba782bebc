"""The generated op_plugin dispatch of every op of the label runs in the runtime and takes
the path its YAML declares: op_api by default when the label has it, acl_op with
jit_compile=True when the label has it (contracts.md section 3), and the results match
the CPU."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import opplugin_runtime  # noqa: F401
import pytest
import torch
from opplugin_codegen import meta_check

import yaml


def _live_ops(generated_dir: Path) -> list[tuple[str, list[str]]]:
    path = generated_dir / "op_plugin" / "config" / "op_plugin_functions.yaml"
    doc = yaml.safe_load(path.read_text())
    out = []
    for entry in doc["official"]:
        paths = [p.strip() for p in entry["impl_ns"].split(",") if p.strip()]
        if paths and "structured_delegate" not in entry:
            out.append((entry["func"].split("(", 1)[0], paths))
    return out


def _float_sample(name: str, overload: str) -> meta_check.Sample:
    op = getattr(getattr(torch.ops.aten, name), overload)
    for sample in meta_check.samples(op._schema):
        tensors = [a for a in [*sample.args, *sample.kwargs.values()] if isinstance(a, torch.Tensor)]
        if tensors and all(t.dtype == torch.float32 and t.dim() > 0 for t in tensors):
            return sample
    raise AssertionError(f"no float32 sample for {name}.{overload}")


def _run(name: str, overload: str, sample: meta_check.Sample, device: str) -> Any:
    op = getattr(getattr(torch.ops.aten, name), overload)
    moved = sample.to(device)
    kwargs = dict(moved.kwargs)
    for arg in op._schema.arguments:
        if meta_check._is_out(arg):
            kwargs[arg.name] = torch.empty(0, device=device)
    if name.endswith("_"):  # in-place: work on a copy
        moved.args[0] = moved.args[0].clone()
    return op(*moved.args, **kwargs)


# Ops whose generic float32 sample (no running stats, eval) crashes ATen's own CPU kernel
# (a segfault in native_batch_norm on CPU), so there is no CPU reference to compare with;
# their paths and results are tested in packages/opplugin-runtime/tests/test_ops_norm.py.
NO_GENERIC_CPU_REFERENCE = {"native_batch_norm", "native_batch_norm_backward", "_batch_norm_with_update",
                            "_batch_norm_no_update", "batch_norm_backward"}


def _check_path(generated_dir: Path, jit_compile: bool, wanted: str) -> None:
    checked = 0
    for full, paths in _live_ops(generated_dir):
        if wanted not in paths or full in NO_GENERIC_CPU_REFERENCE:
            continue
        name, _, overload = full.partition(".")
        overload = overload or "default"
        if torch.Tag.nondeterministic_seeded in getattr(getattr(torch.ops.aten, name), overload).tags:
            continue  # random values cannot match CPU's generator: paths and distributions in test_random.py
        sample = _float_sample(name, overload)
        try:
            expected, cpu_error = _run(name, overload, sample, "cpu"), None
        except RuntimeError as error:  # a float32 sample the op rejects (a float mask): npu must reject it alike
            expected, cpu_error = None, str(error).split("\n")[0]
        torch.npu.reset_path_ledger()
        torch.npu.set_compile_mode(jit_compile=jit_compile)
        try:
            if cpu_error is None:
                result = _run(name, overload, sample, "npu")
            else:
                with pytest.raises(RuntimeError, match=re.escape(cpu_error)):
                    _run(name, overload, sample, "npu")
        finally:
            torch.npu.set_compile_mode(jit_compile=False)
        counts = torch.npu.path_ledger().get(full, {})
        assert counts.get(wanted, 0) >= 1, f"{full}: expected the {wanted} path, ledger: {counts}"
        if cpu_error is None:  # ops with several results (native_layer_norm, ...) compare each tensor
            results = result if isinstance(result, (tuple, list)) else (result,)
            expecteds = expected if isinstance(expected, (tuple, list)) else (expected,)
            assert len(results) == len(expecteds), f"{full}: {len(results)} results, CPU has {len(expecteds)}"
            for got, want in zip(results, expecteds):
                if isinstance(want, torch.Tensor):
                    torch.testing.assert_close(got.cpu(), want, msg=lambda m, op=full: f"{op}: {m}")
                else:
                    assert got is None and want is None, f"{full}: {got!r} vs {want!r}"
        checked += 1
    if checked == 0:
        pytest.skip(f"no op of the label has {wanted}")


def test_op_api_is_the_default_path(generated_dir: Path) -> None:
    _check_path(generated_dir, jit_compile=False, wanted="op_api")


def test_jit_compile_selects_acl_op(generated_dir: Path) -> None:
    _check_path(generated_dir, jit_compile=True, wanted="acl_op")
