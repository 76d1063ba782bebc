"""The model cache: a second load of the same files comes from the cache, any change of an
input file is a miss, invalid YAML is never cached, a corrupt entry is reloaded, and
OPPLUGIN_CODEGEN_CACHE=off turns it off."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from opplugin_codegen import load_model, loader
from opplugin_codegen.errors import CodegenError
from opplugin_codegen_testing import RICH_YAML, make_yaml_dir


def rich(root: Path) -> Path:
    """A copy of the rich test YAML directory under ``root``."""
    return Path(shutil.copytree(RICH_YAML, root / "yaml"))


@pytest.fixture
def loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The YAML directories really loaded (not from the cache), with the cache in tmp_path."""
    monkeypatch.setenv("OPPLUGIN_CODEGEN_CACHE", str(tmp_path / "cache"))
    seen: list[Path] = []
    real = loader._load

    def spy(yaml_dir, names):  # type: ignore[no-untyped-def]
        seen.append(yaml_dir)
        return real(yaml_dir, names)

    monkeypatch.setattr(loader, "_load", spy)
    return seen


def test_a_second_load_comes_from_the_cache(tmp_path: Path, loads: list[Path]) -> None:
    d = rich(tmp_path / "a")
    first = load_model(d)
    second = load_model(d)
    assert len(loads) == 1
    assert second == first and second is not first
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 1


@pytest.mark.parametrize("name", ["op_plugin_functions.yaml", "versions.yaml", "derivatives.yaml",
                                  "npu_native_functions.yaml"])  # fmt: skip
def test_a_changed_or_added_input_file_is_a_miss(
    tmp_path: Path, loads: list[Path], name: str
) -> None:
    d = rich(tmp_path / "a")
    load_model(d)
    path = d / name
    path.write_text((path.read_text() if path.is_file() else "backend: NPU\n") + "\n# changed\n")
    load_model(d)
    assert len(loads) == 2


def test_invalid_yaml_is_never_cached(tmp_path: Path, loads: list[Path]) -> None:
    bad = "official:\n  - func: abs(Tensor self) -> Tensor\n    op_api: v9.9\n"
    d = make_yaml_dir(tmp_path / "a", bad)
    for _ in range(2):
        with pytest.raises(CodegenError, match=r"v9\.9"):
            load_model(d)
    assert len(loads) == 2
    assert not list((tmp_path / "cache").glob("*.pickle"))


def test_a_corrupt_entry_is_reloaded(tmp_path: Path, loads: list[Path]) -> None:
    d = rich(tmp_path / "a")
    first = load_model(d)
    (entry,) = (tmp_path / "cache").glob("*.pickle")
    entry.write_bytes(entry.read_bytes()[:100])
    assert load_model(d) == first
    assert len(loads) == 2
    assert load_model(d) == first and len(loads) == 2  # replaced by a good one


def test_off_turns_it_off(
    tmp_path: Path, loads: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPPLUGIN_CODEGEN_CACHE", "off")
    d = rich(tmp_path / "a")
    load_model(d)
    load_model(d)
    assert len(loads) == 2
    assert not (tmp_path / "cache").exists()
