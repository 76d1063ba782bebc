"""An upstream-sized YAML (1,500 entries) generates for every label in one process.

Timings are measured by bench/opplugin_codegen_speed.py, not asserted here."""

from __future__ import annotations

from pathlib import Path

from opplugin_codegen import load_model
from opplugin_codegen.api import write_labels
from opplugin_codegen_testing import make_yaml_dir, synthetic_ops


def test_an_upstream_sized_yaml_generates_for_every_label(tmp_path: Path) -> None:
    model = load_model(make_yaml_dir(tmp_path, synthetic_ops()))
    assert len(model.entries) == 1500
    reports = write_labels(model, model.registry.labels, tmp_path / "out")
    assert len(reports) == len(model.registry.labels)
    for label, report in zip(model.registry.labels, reports):
        families = [f for f in report.written if f.startswith("op_plugin/ops/")]
        # 18 op_plugin files + npu/version.h + 4 test-only Meta check shards, and one header
        # per op family
        assert len(report.written) - len(families) == 23, label
        assert families, label
        assert (tmp_path / "out" / label / "op_plugin" / "OpInterface.h").is_file()
