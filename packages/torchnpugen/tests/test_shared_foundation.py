"""torchnpugen stands on opplugin-codegen's foundation (the dependency points that way only):
one reader of versions.yaml, one YAML-with-lines loader, one writer and manifest, one shard
function. A second copy of any of them could drift from the first."""

from __future__ import annotations

from pathlib import Path

import pytest
from opplugin_codegen import cppfile, registry_file, writer, yamlload

from torchnpugen import gen, inputs, render, yaml_lines
from torchnpugen.errors import InputError

SRC = Path(gen.__file__).resolve().parent


def test_the_shard_function_and_the_writer_are_opplugin_codegens() -> None:
    assert render.shard_of_key is cppfile.shard_of
    assert gen.write_tree is writer.write_tree


def test_versions_and_yaml_come_through_opplugin_codegens_readers() -> None:
    assert yaml_lines.load_yaml is yamlload.load_yaml
    # no reader of its own: neither PyYAML nor a manifest or hash of its own in the sources
    for path in SRC.glob("*.py"):
        text = path.read_text()
        assert "import yaml" not in text and "yaml.safe_load" not in text, path.name
    assert "read_registry" in Path(inputs.__file__).read_text()
    assert registry_file.read_registry.__module__ == "opplugin_codegen.registry_file"


def test_a_bad_file_reports_every_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "npu_native_functions.yaml"
    path.write_text("backend: NPU\nsupported:\n  - abs\nsupported: []\ncustom: []\ncustom: []\n")
    with pytest.raises(InputError) as error:
        yaml_lines.load_located(path, "yaml/npu_native_functions.yaml")
    text = str(error.value)
    assert text.startswith("yaml/npu_native_functions.yaml:4: duplicate key 'supported' (first at line 2)")
    assert "yaml/npu_native_functions.yaml:6: duplicate key 'custom' (first at line 5)" in text
