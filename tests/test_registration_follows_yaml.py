"""The operators registered on `npu` are exactly what the YAML declares for the label."""

from pathlib import Path

import opplugin_runtime  # noqa: F401
import torch

import yaml


def _has_npu_kernel(schema_name: str) -> bool:
    return torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{schema_name}", "PrivateUse1")


def _projection(generated_dir: Path) -> dict:
    return yaml.safe_load((generated_dir / "op_plugin" / "config" / "op_plugin_functions.yaml").read_text())


def _schema_name(func: str) -> str:
    return func.split("(", 1)[0]


def test_every_op_plugin_op_of_the_label_is_registered(generated_dir: Path) -> None:
    ops = [_schema_name(e["func"]) for e in _projection(generated_dir)["official"]]
    assert ops, "the projection for this label lists no operators"
    missing = [op for op in ops if not _has_npu_kernel(op)]
    assert not missing, f"declared in yaml/op_plugin_functions.yaml but not registered on npu: {missing}"


def test_every_runtime_owned_op_is_registered() -> None:
    native = yaml.safe_load((Path(__file__).parent.parent / "yaml" / "npu_native_functions.yaml").read_text())
    names = [e if isinstance(e, str) else e["func"] for e in native["supported"]]
    missing = [op for op in names if not _has_npu_kernel(op)]
    assert not missing, f"listed under supported: but not registered on npu: {missing}"


def test_undeclared_ops_are_not_registered(generated_dir: Path) -> None:
    declared = {_schema_name(e["func"]) for e in _projection(generated_dir)["official"]}
    for op in ("mul.out", "mul_.Tensor", "sub.Tensor", "neg"):
        if op in declared:  # mul.out is declared from v2.5 on (tests/test_version_ranges.py)
            continue
        assert not _has_npu_kernel(op), f"{op} is not declared for this label but has an npu kernel"
