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


def _check_path(generated_dir: Path, jit_compile: bool, wanted: str) -> None:
    checked = 0
    for full, paths in _live_ops(generated_dir):
        if wanted not in paths:
            continue
        name, _, overload = full.partition(".")
        overload = overload or "default"
        if torch.Tag.nondeterministic_seeded in getattr(getattr(torch.ops.aten, name), overload).tags:
            continue  # random values cannot match CPU's generator: paths and distributions in test_random.py
        schema = getattr(getattr(torch.ops.aten, name), overload)._schema
        if any(str(a.type) == "List[Tensor]" for a in schema.arguments):
            continue  # tensor-list (_foreach_*) ops: tested against CPU in opplugin-runtime's test_ops_foreach.py
        sample = _float_sample(name, overload)
        cpu_index_error = False
        try:
            expected, cpu_error = _run(name, overload, sample, "cpu"), None
        except RuntimeError as error:  # a float32 sample the op rejects (a float mask): npu must reject it alike
            expected, cpu_error = None, str(error).split("\n")[0]
        except IndexError as error:  # CPU trips over a dimension before its own check (baddbmm with a 2-D batch2)
            expected, cpu_error, cpu_index_error = None, str(error).split("\n")[0], True
        torch.npu.reset_path_ledger()
        torch.npu.set_compile_mode(jit_compile=jit_compile)
        try:
            if cpu_error is None:
                result = _run(name, overload, sample, "npu")
            elif cpu_index_error:  # npu must reject the sample too (its own message)
                with pytest.raises((RuntimeError, IndexError)):
                    _run(name, overload, sample, "npu")
            else:
                with pytest.raises(RuntimeError, match=re.escape(cpu_error)):
                    _run(name, overload, sample, "npu")
        finally:
            torch.npu.set_compile_mode(jit_compile=False)
        counts = torch.npu.path_ledger().get(full, {})
        assert counts.get(wanted, 0) >= 1, f"{full}: expected the {wanted} path, ledger: {counts}"
        if cpu_error is None:
            torch.testing.assert_close(result.cpu(), expected, equal_nan=True,  # e.g. log of the negative samples
                                       msg=lambda m, op=full: f"{op}: {m}")
        checked += 1
    if checked == 0:
        pytest.skip(f"no op of the label has {wanted}")


def test_op_api_is_the_default_path(generated_dir: Path) -> None:
    _check_path(generated_dir, jit_compile=False, wanted="op_api")


def test_jit_compile_selects_acl_op(generated_dir: Path) -> None:
    _check_path(generated_dir, jit_compile=True, wanted="acl_op")
