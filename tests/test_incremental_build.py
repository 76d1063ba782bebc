"""A YAML edit rebuilds only what it touches.

The generators write a file only when its content changes, and the runtime build
recompiles an object only when its source or a header it includes changed (ninja). So
what a YAML edit costs is decided by which generated files it rewrites and which objects
include them. These tests make the edits on a copy of the YAML, regenerate, and read the
label's real build graph (`ninja -t deps` of build/ext/<label>) to see what would compile.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
LABEL = os.environ.get("NPU_TEST_LABEL", "v2.13")
GENERATOR_PATH = os.pathsep.join(str(REPO / "packages" / p / "src") for p in ("opplugin-codegen", "torchnpugen"))
# Generated files no compiler reads: rewriting them costs no build time.
NOT_COMPILED = re.compile(r"(^|/)manifest\.json$|^op_plugin/config/|\.py$")


def _generate(yaml_dir: Path, out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": GENERATOR_PATH}
    for generator in ("opplugin_codegen", "torchnpugen"):
        subprocess.run([sys.executable, "-m", generator, "generate", "--label", LABEL, "--yaml-dir", str(yaml_dir),
                        "--out", str(out)], check=True, capture_output=True, env=env, timeout=600)


def _contents(tree: Path) -> dict[str, bytes]:
    return {p.relative_to(tree).as_posix(): p.read_bytes() for p in tree.rglob("*") if p.is_file()}


def _rewritten_by(tmp_path: Path, edit) -> set[str]:
    """The generated files (relative paths) whose content the YAML edit `edit(text) -> text` changes."""
    yaml_dir = tmp_path / "yaml"
    shutil.copytree(REPO / "yaml", yaml_dir)
    _generate(yaml_dir, tmp_path / "before")
    path = yaml_dir / "op_plugin_functions.yaml"
    edited = edit(path.read_text())
    assert edited != path.read_text()
    path.write_text(edited)
    shutil.copytree(tmp_path / "before", tmp_path / "after")
    _generate(yaml_dir, tmp_path / "after")
    before, after = _contents(tmp_path / "before"), _contents(tmp_path / "after")
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def _entry_lines(text: str, func_prefix: str) -> tuple[int, int]:
    """[start, end) line indices of the entry whose func starts with `func_prefix`."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith(f"- func: {func_prefix}")), None)
    if start is None:
        pytest.skip(f"yaml/op_plugin_functions.yaml declares no {func_prefix} entry")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("- ")), len(lines))
    return start, end


def test_a_line_added_to_the_yaml_rewrites_no_compiled_file(tmp_path: Path) -> None:
    def add_comment_line(text: str) -> str:
        lines = text.splitlines(keepends=True)
        start, _ = _entry_lines(text, "abs(")
        return "".join([*lines[: start + 1], "    # a note a backend engineer adds\n", *lines[start + 1 :]])

    compiled = {name for name in _rewritten_by(tmp_path, add_comment_line) if not NOT_COMPILED.search(name)}
    assert compiled == set(), "a line added above other entries rewrote compiled files (line numbers in them?)"


def _objects_using(changed: set[str]) -> set[str]:
    """Objects of the label's runtime build that include or compile one of `changed` (paths
    relative to the generated dir), from ninja's dependency log."""
    build = REPO / "build" / "ext" / LABEL
    ninja = shutil.which("ninja", path=str(Path(sys.executable).parent)) or shutil.which("ninja")
    if ninja is None or not (build / ".ninja_deps").is_file():
        pytest.skip(f"no runtime build of {LABEL} in {build} (nox -s build -- {LABEL})")
    deps = subprocess.run([ninja, "-C", str(build), "-t", "deps"], capture_output=True, text=True, check=True).stdout
    generated = (REPO / "build" / "generated" / LABEL).resolve()
    wanted = {generated / name for name in changed}
    users: set[str] = set()
    target = ""
    for line in deps.splitlines():
        if line and not line.startswith(" "):
            target = line.split(":", 1)[0]
        elif line.strip() and (build / line.strip()).resolve() in wanted:
            users.add(Path(target).name)
    return users


def test_taking_one_op_out_of_the_label_recompiles_only_its_users(tmp_path: Path) -> None:
    def drop_dot_from_label(text: str) -> str:
        lines = text.splitlines(keepends=True)
        start, end = _entry_lines(text, "dot(")
        other = "v2.14" if LABEL != "v2.14" else "v2.13"
        lines[start:end] = [re.sub(r"op_api: .*", f"op_api: {other}", line) for line in lines[start:end]]
        return "".join(lines)

    changed = {name for name in _rewritten_by(tmp_path, drop_dot_from_label) if not NOT_COMPILED.search(name)}
    assert "op_plugin/ops/dot.h" in changed
    users = _objects_using(changed)
    shards = re.compile(r"(RegisterNPU|OpInterface|StructKernelNpuOpApi|MetaFunctions)_\d+\.o$|c_shim_npu\.o$")
    hand_written = {name for name in users if not shards.match(name)}
    # The kernels that define op_api::dot and acl_op::dot or compose vdot of them, the dispatch and
    # registration shards that hold dot, the C shim.
    assert hand_written <= {"MatmulKernelNpuOpApi.o", "BaddbmmKernelNpu.o", "MatmulKernelNpu.o"}, sorted(users)
    assert len(users) <= 6, sorted(users)


def test_the_runtime_sources_include_op_families_not_the_umbrella_headers() -> None:
    umbrella = re.compile(r'#include "op_plugin/(OpInterface|OpApiInterface|AclOpsInterface)\.h"')
    offenders = [str(p.relative_to(REPO)) for p in (REPO / "packages" / "opplugin-runtime" / "csrc").rglob("*.cpp")
                 if umbrella.search(p.read_text())]
    assert offenders == [], "these recompile whenever any op changes; include op_plugin/ops/<family>.h instead"
