"""Writing the tree: write-if-changed, stale files removed, manifest, all-or-nothing."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from opplugin_codegen import generate
from opplugin_codegen.writer import MANIFEST, write_tree
from opplugin_codegen_testing import RICH_YAML, make_yaml_dir, snapshot

ABS = """\
official:
  - func: abs(Tensor self) -> Tensor
    op_api: all_version
  - func: neg(Tensor self) -> Tensor
    acl_op: all_version
"""


def _age(tree: Path) -> None:
    """Push every mtime into the past so a rewrite would be visible."""
    for p in tree.rglob("*"):
        if p.is_file():
            os.utime(p, ns=(1_000_000_000, 1_000_000_000))


def test_unchanged_files_keep_their_mtime(tmp_path: Path) -> None:
    out = tmp_path / "v2.13"
    first = generate("v2.13", RICH_YAML, out)
    assert first.unchanged == ()
    _age(out)
    before = snapshot(out)
    again = generate("v2.13", RICH_YAML, out)
    assert again.written == ()
    assert snapshot(out) == before


def test_one_op_change_rewrites_few_files(tmp_path: Path) -> None:
    yaml_dir = make_yaml_dir(tmp_path, ABS)
    out = tmp_path / "v2.13"
    generate("v2.13", yaml_dir, out)
    _age(out)
    before = snapshot(out)
    make_yaml_dir(tmp_path, ABS.replace("acl_op: all_version", "acl_op: [v2.1, v2.13]"))
    report = generate("v2.13", yaml_dir, out)
    # neg's range spelling shows in its comment: its OpInterface shard changes, and the
    # manifest that records the shard's hash. Nothing else.
    assert len(report.written) == 2
    assert MANIFEST in report.written
    after = snapshot(out)
    unchanged = [k for k in before if before[k] == after[k]]
    assert len(unchanged) == len(before) - 2


def test_stale_files_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "v2.13"
    generate("v2.13", RICH_YAML, out, shards=6)
    assert (out / "op_plugin/OpInterface_5.cpp").exists()
    (out / "op_plugin/hand_written_note.txt").write_text("not ours")
    report = generate("v2.13", RICH_YAML, out, shards=2)
    assert "op_plugin/OpInterface_5.cpp" in report.removed
    assert not (out / "op_plugin/OpInterface_5.cpp").exists()
    assert (out / "op_plugin/hand_written_note.txt").exists()  # never listed: never touched
    assert sorted(p.name for p in (out / "op_plugin").glob("OpInterface_*.cpp")) == [
        "OpInterface_0.cpp",
        "OpInterface_1.cpp",
    ]


def test_manifest_lists_every_file_with_sha256(tmp_path: Path) -> None:
    out = tmp_path / "v2.13"
    generate("v2.13", RICH_YAML, out)
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["label"] == "v2.13"
    section = manifest["generators"]["opplugin-codegen"]
    files = section["files"]
    on_disk = sorted(
        str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.name != MANIFEST
    )
    assert sorted(files) == on_disk
    for rel, digest in files.items():
        assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == digest
    assert section["version"] == "0.1.0"
    assert section["shards"] == 4


def test_manifest_keeps_other_generators_sections(tmp_path: Path) -> None:
    out = tmp_path / "v2.13"
    out.mkdir()
    theirs = {"files": {"npu/aten/RegisterNPU_0.cpp": "abc"}}
    (out / MANIFEST).write_text(
        json.dumps({"label": "v2.13", "generators": {"torchnpugen": theirs}})
    )
    (out / "npu/aten").mkdir(parents=True)
    (out / "npu/aten/RegisterNPU_0.cpp").write_text("// theirs\n")
    generate("v2.13", RICH_YAML, out)
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["generators"]["torchnpugen"] == theirs
    assert "opplugin-codegen" in manifest["generators"]
    generate("v2.13", RICH_YAML, out, shards=1)
    assert (out / "npu/aten/RegisterNPU_0.cpp").exists()


def test_invalid_input_leaves_no_trace_in_a_fresh_directory(tmp_path: Path) -> None:
    yaml_dir = make_yaml_dir(
        tmp_path, "official:\n  - func: abs(Tensor self) -> Tensor\n    op_api: v9.9\n"
    )
    out = tmp_path / "fresh" / "v2.13"
    with pytest.raises(Exception, match=r"unknown version label 'v9\.9'"):
        generate("v2.13", yaml_dir, out)
    assert not out.exists()


def test_paths_stay_inside_the_output(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="inside the output directory"):
        write_tree(tmp_path, {"../escape.h": "x"}, owner="t", owner_info={})


def test_trees_share_identical_files_as_links_and_a_rewrite_keeps_the_other(tmp_path: Path) -> None:
    shared: dict[str, Path] = {}
    files = {"ops/a.h": "same\n", "ops/b.h": "label one\n"}
    write_tree(tmp_path / "one", files, owner="t", owner_info={}, shared=shared)
    other = {**files, "ops/b.h": "label two\n"}
    write_tree(tmp_path / "two", other, owner="t", owner_info={}, shared=shared)
    a1, a2 = (tmp_path / d / "ops" / "a.h" for d in ("one", "two"))
    assert a1.stat().st_ino == a2.stat().st_ino  # one file on disk
    assert (tmp_path / "one/ops/b.h").stat().st_ino != (tmp_path / "two/ops/b.h").stat().st_ino
    # a later change of one tree replaces its file; the other keeps its content
    write_tree(tmp_path / "two", {**files, "ops/a.h": "changed\n"}, owner="t", owner_info={})
    assert a1.read_text() == "same\n" and a2.read_text() == "changed\n"
