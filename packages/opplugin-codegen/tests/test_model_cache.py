"""The model cache: a second load of the same files comes from the cache, any change of an
input file is a miss, invalid YAML is never cached, a corrupt entry is reloaded, and
OPPLUGIN_CODEGEN_CACHE=off turns it off."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from opplugin_codegen import cli, generate, generate_all, load_model, loader
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


# The rendered labels: a second generation from the same inputs (into any directory) neither
# loads nor renders, and writes the same tree.


def _contents(tree: Path) -> dict[str, bytes]:
    return {str(p.relative_to(tree)): p.read_bytes() for p in tree.rglob("*") if p.is_file()}


@pytest.fixture
def renders(loads: list[Path], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The labels really rendered (not from the cache)."""
    from opplugin_codegen import api

    seen: list[str] = []
    real = api.render_label

    def spy(model, label, shards=api.DEFAULT_SHARDS):  # type: ignore[no-untyped-def]
        seen.append(label)
        return real(model, label, shards)

    monkeypatch.setattr(api, "render_label", spy)
    return seen


def test_a_second_generation_comes_from_the_rendered_cache(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    d = rich(tmp_path / "a")
    generate("v2.13", d, tmp_path / "first")
    report = generate("v2.13", d, tmp_path / "second")
    assert (len(loads), renders) == (1, ["v2.13"])
    assert _contents(tmp_path / "second") == _contents(tmp_path / "first")
    assert "manifest.json" in report.written
    generate("v2.1", d, tmp_path / "other")  # another label: rendered, from the cached model
    assert (len(loads), renders) == (1, ["v2.13", "v2.1"])


def test_the_command_line_takes_every_label_from_the_rendered_cache(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    d = rich(tmp_path / "a")
    argv = ["generate", "--all-labels", "--yaml-dir", str(d), "-q", "--out-root"]
    assert cli.main([*argv, str(tmp_path / "first")]) == 0
    count = len(renders)
    assert count > 1 and len(loads) == 1
    assert cli.main([*argv, str(tmp_path / "second")]) == 0
    assert cli.main(["generate", "--yaml-dir", str(d), "-q", "--out", str(tmp_path / "one")]) == 0
    assert (len(loads), len(renders)) == (1, count)  # the default label too, from the cache
    assert _contents(tmp_path / "second") == _contents(tmp_path / "first")
    default = load_model(d).registry.default
    assert _contents(tmp_path / "one") == _contents(tmp_path / "first" / default)


def test_a_changed_input_renders_again(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    abs_only = "official:\n  - func: abs(Tensor self) -> Tensor\n    op_api: all_version\n"
    d = make_yaml_dir(tmp_path / "a", abs_only)
    generate("v2.13", d, tmp_path / "first")
    op_file = d / "op_plugin_functions.yaml"
    op_file.write_text(op_file.read_text().replace("abs", "neg"))
    generate("v2.13", d, tmp_path / "second")
    assert len(loads) == 2 and renders == ["v2.13", "v2.13"]
    assert (tmp_path / "second/op_plugin/ops/neg.h").is_file()
    assert not (tmp_path / "second/op_plugin/ops/abs.h").exists()


def test_an_unknown_label_is_reported_with_the_cache_full(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    d = rich(tmp_path / "a")
    generate_all(d, tmp_path / "all")
    with pytest.raises(CodegenError, match=r"v9\.9"):
        generate("v9.9", d, tmp_path / "bad")
    assert not (tmp_path / "bad").exists()


def test_a_corrupt_rendered_entry_renders_again(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    d = rich(tmp_path / "a")
    generate("v2.13", d, tmp_path / "first")
    (entry,) = (tmp_path / "cache" / "rendered").glob("*-v2.13-*.marshal")
    entry.write_bytes(entry.read_bytes()[:1000])
    generate("v2.13", d, tmp_path / "second")
    assert renders == ["v2.13", "v2.13"]
    assert _contents(tmp_path / "second") == _contents(tmp_path / "first")


def test_a_tree_from_the_cache_is_links_of_the_stored_files_with_a_new_mtime(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    d = rich(tmp_path / "a")
    generate("v2.13", d, tmp_path / "first")
    header = "op_plugin/OpInterface.h"
    first = tmp_path / "first" / header
    os.utime(first, ns=(1_000_000_000, 1_000_000_000))  # as if written long ago
    generate("v2.13", d, tmp_path / "second")
    second = tmp_path / "second" / header
    assert second.stat().st_ino == first.stat().st_ino  # one file on disk
    # a build that compiled other content since must see the file as new
    assert second.stat().st_mtime_ns > 1_000_000_000
    assert _contents(tmp_path / "second") == _contents(tmp_path / "first")


def test_a_stored_file_edited_in_place_is_written_not_linked(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    d = rich(tmp_path / "a")
    generate("v2.13", d, tmp_path / "first")
    edited = tmp_path / "first/op_plugin/OpInterface.h"
    expected = edited.read_bytes()
    with edited.open("ab") as f:  # in place: the stored file is the same inode
        f.write(b"// debugging\n")
    generate("v2.13", d, tmp_path / "second")
    assert (tmp_path / "second/op_plugin/OpInterface.h").read_bytes() == expected
    assert renders == ["v2.13"]


def test_the_cache_keeps_the_newest_file_stores(
    tmp_path: Path, loads: list[Path], renders: list[str]
) -> None:
    d = rich(tmp_path / "a")
    versions = d / "versions.yaml"
    for i in range(4):
        versions.write_text(versions.read_text() + f"# {i}\n")
        generate("v2.13", d, tmp_path / f"out{i}")
    assert len(list((tmp_path / "cache" / "files").iterdir())) == 2
