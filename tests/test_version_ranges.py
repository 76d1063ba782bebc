"""The YAML's version ranges take effect per label.

``mul.out`` is declared with ``op_api: [v2.5, newest]`` in yaml/op_plugin_functions.yaml
(a schema identical in every supported torch, run by the simulator's aclnnMul). In a label
of that range it is registered on npu and runs the generated op_api kernel; in a label
before it (v2.1) it is not registered for npu at all: the CPU fallback runs it (warned
once), or it raises with NPU_FALLBACK=error. CI runs this file for v2.13 and v2.1, so both
sides are proven on every submission; the first test checks both projections in any label.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import opplugin_runtime  # noqa: F401
import pytest
import torch
from opplugin_codegen import load_model, render_label

import yaml

REPO = Path(__file__).resolve().parent.parent
OP = "mul.out"
RANGE = "[v2.5, newest]"


def _projected_ops(label: str) -> set[str]:
    projection = render_label(load_model(REPO / "yaml"), label)["op_plugin/config/op_plugin_functions.yaml"]
    return {entry["func"].split("(", 1)[0] for entry in yaml.safe_load(projection)["official"]}


def _in_range(label: str) -> bool:
    registry = load_model(REPO / "yaml").registry
    return label in registry.parse_range(["v2.5", "newest"])


def test_the_yaml_declares_mul_out_for_v2_5_onwards() -> None:
    text = (REPO / "yaml" / "op_plugin_functions.yaml").read_text()
    entry = text.split(f"- func: {OP}(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n", 1)[1]
    assert f"    op_api: {RANGE}" in entry.split("\n\n", 1)[0].splitlines()
    assert OP in _projected_ops("v2.13") and OP in _projected_ops("v2.5")
    assert OP not in _projected_ops("v2.1") and OP not in _projected_ops("v2.4")


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=300,
    )


MUL_OUT = """
    import torch, opplugin_runtime
    a, b = torch.randn(4, 3), torch.randn(3)
    out = torch.empty(4, 3, device="npu")
    torch.mul(a.npu(), b.npu(), out=out)
    torch.testing.assert_close(out.cpu(), a * b)
    print(torch._C._dispatch_has_kernel_for_dispatch_key("aten::mul.out", "PrivateUse1"))
    print(torch.npu.path_ledger().get("mul.out"))
"""


def test_mul_out_is_on_npu_exactly_in_the_labels_of_its_range(label: str, generated_dir: Path) -> None:
    declared = OP in {
        e["func"].split("(", 1)[0]
        for e in yaml.safe_load((generated_dir / "op_plugin" / "config" / "op_plugin_functions.yaml").read_text())[
            "official"
        ]
    }
    assert declared is _in_range(label)
    result = _run(MUL_OUT, NPU_FALLBACK="warn")
    assert result.returncode == 0, result.stderr
    registered, ledger = result.stdout.strip().splitlines()[-2:]
    if _in_range(label):  # e.g. v2.13: the generated op_api kernel, no fallback
        assert registered == "True"
        assert ledger == "{'op_api': 1, 'acl_op': 0, 'compat': 0, 'cpu_fallback': 0, 'dvm': 0}"
        assert "CPU fallback" not in result.stderr
    else:  # e.g. v2.1: absent on npu, so the CPU fallback ran it (and said so)
        assert registered == "False"
        assert ledger == "{'op_api': 0, 'acl_op': 0, 'compat': 0, 'cpu_fallback': 1, 'dvm': 0}"
        assert "mul.out" in result.stderr


def test_outside_its_range_mul_out_raises_under_the_error_policy(label: str) -> None:
    result = _run(MUL_OUT, NPU_FALLBACK="error")
    if _in_range(label):
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode != 0
        assert "NotImplementedError" in result.stderr and "mul.out" in result.stderr


@pytest.mark.parametrize("op", ["mul.Tensor", "add.Tensor"])
def test_all_version_ops_are_registered_in_every_label(op: str) -> None:
    assert torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{op}", "PrivateUse1")
