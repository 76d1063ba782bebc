"""docs/adding-an-operator.md, followed on a copy of the tree: its code blocks are applied
where their first lines say, the copy is generated and built for the test label, and the
walk-through's own test runs against that build. So the page is true: an operator added the
way it says, touching only the files it names, works end to end.

A code block the walk-through applies opens with ```<language> file=<path> <how>, where <how>
is ``new`` (the file does not exist yet), ``append`` or ``insert-before="<a line of the file>"``.

The copy builds beside the label's own build: its environment is the label's virtualenv
(linked into the copy, so ccache sees the same relative paths and compiles only what the new
operator changed) and the built packages go to a folder of the copy ahead of the installed ones.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "adding-an-operator.md"
LABEL = os.environ.get("NPU_TEST_LABEL", "v2.13")
_FENCE = re.compile(r"^```(\S*)(.*)$")


@dataclass(frozen=True)
class Edit:
    path: str  # relative to the repository
    how: str  # new | append | insert-before
    anchor: str | None
    text: str
    line: int  # of the block in the guide


def guide_edits(text: str) -> list[Edit]:
    """The code blocks of the guide that name a file, in order."""
    edits: list[Edit] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i].rstrip("\n"))
        if fence is None:
            i += 1
            continue
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        words = shlex.split(fence.group(2))
        fields = dict(w.split("=", 1) for w in words if "=" in w)
        if "file" not in fields:
            continue
        flags = [w for w in words if "=" not in w]
        if "insert-before" in fields:
            how, anchor = "insert-before", fields["insert-before"]
        else:
            assert flags in (["new"], ["append"]), f"{GUIDE.name}:{start + 1}: say new, append or insert-before"
            how, anchor = flags[0], None
        edits.append(Edit(fields["file"], how, anchor, "".join(body), start + 1))
    return edits


def apply_edit(root: Path, edit: Edit) -> None:
    path = root / edit.path
    where = f"{GUIDE.name}:{edit.line}"
    if edit.how == "new":
        assert not path.exists(), f"{where}: {edit.path} exists already"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(edit.text)
        return
    assert path.is_file(), f"{where}: {edit.path} does not exist"
    text = path.read_text()
    if edit.how == "append":
        path.write_text(text + ("" if text.endswith("\n") else "\n") + edit.text)
        return
    lines = text.splitlines(keepends=True)
    found = [k for k, line in enumerate(lines) if line.rstrip("\n") == edit.anchor]
    assert len(found) == 1, f"{where}: {edit.path} has {len(found)} lines {edit.anchor!r}, not one"
    lines[found[0]:found[0]] = [edit.text]
    path.write_text("".join(lines))


def test_the_guide_names_every_file_it_edits():
    text = GUIDE.read_text()
    edits = guide_edits(text)
    assert len(edits) >= 5
    table = text.split("\n## ", 1)[0]
    for edit in edits:
        assert f"`{edit.path}`" in table, f"{GUIDE.name}:{edit.line}: {edit.path} is not in the table of files"


def test_guide_blocks_are_read_as_edits():
    sample = (
        "```yaml file=yaml/x.yaml insert-before=\"custom:\"\n  - a\n```\n"
        "```text\nnot an edit\n```\n"
        "```cpp file=src/y.cpp append\nint y;\n```\n"
    )
    edits = guide_edits(sample)
    assert [(e.path, e.how, e.anchor, e.text) for e in edits] == [
        ("yaml/x.yaml", "insert-before", "custom:", "  - a\n"),
        ("src/y.cpp", "append", None, "int y;\n"),
    ]


def _tree_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    return [name for name in listed if name and (REPO / name).is_file()]


def _run(command: list[str], cwd: Path, env: dict[str, str], what: str) -> subprocess.CompletedProcess:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=2400)
    output = f"{result.stdout[-6000:]}\n{result.stderr[-6000:]}"
    assert result.returncode == 0, f"{what} failed ({result.returncode}):\n{output}"
    return result


def _default_label() -> str:
    from opplugin_codegen.registry_file import read_registry

    return read_registry(REPO / "yaml" / "versions.yaml").default


def test_an_operator_added_as_the_guide_says_runs(tmp_path: Path):
    if LABEL != _default_label():
        # A copy's build recompiles every user of the aclnn declarations (about 30 objects):
        # the walk-through is proven once, on the default label.
        pytest.skip(f"the walk-through runs on the default label ({_default_label()})")
    venv = REPO / "build" / "venvs" / LABEL
    if not (venv / "bin" / "python").exists() or shutil.which("git") is None:
        pytest.skip(f"needs the label's environment {venv} (nox -s build -- {LABEL}) and git")
    edits = guide_edits(GUIDE.read_text())
    yaml_edit = next(e for e in edits if e.path == "yaml/op_plugin_functions.yaml")
    first_func = next(line for line in yaml_edit.text.splitlines() if "- func:" in line).strip()
    assert first_func not in (REPO / yaml_edit.path).read_text(), (
        f"the tree declares the guide's example ({first_func}) already: pick another operator for the guide"
    )

    tree = tmp_path / "tree"
    for name in _tree_files():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, tree / name)
    before = {p.relative_to(tree).as_posix(): p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    for edit in edits:
        apply_edit(tree, edit)
    after = {p.relative_to(tree).as_posix(): p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    changed = {name for name in after.keys() | before.keys() if before.get(name) != after.get(name)}
    assert changed == {e.path for e in edits}

    (tree / "build" / "venvs").mkdir(parents=True)
    (tree / "build" / "venvs" / LABEL).symlink_to(venv)
    python = str(tree / "build" / "venvs" / LABEL / "bin" / "python")
    site = tree / "build" / "site"
    generated = tree / "build" / "generated" / LABEL
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(tree / "build" / "venvs" / LABEL / "bin"), os.environ.get("PATH", "")]),
        "CCACHE_BASEDIR": str(tree),
        "NPU_GENERATED_DIR": str(generated),
        "NPU_BUILD_LABEL": LABEL,
        "NPU_TEST_LABEL": LABEL,
        "NPU_EXT_BUILD_DIR": str(tree / "build" / "ext" / LABEL),
        "ASCENDC_KERNELS_BUILD_DIR": str(tree / "build" / "cmake" / "ascendc-kernels"),
        "OPPLUGIN_CODEGEN_CACHE": "off",
    }
    generators = os.pathsep.join(str(tree / "packages" / p / "src") for p in ("opplugin-codegen", "torchnpugen"))
    for generator in ("opplugin_codegen", "torchnpugen"):
        _run([python, "-m", generator, "generate", "--label", LABEL, "--yaml-dir", "yaml", "--out", str(generated)],
             tree, {**env, "PYTHONPATH": generators}, f"{generator} generate")
    for package in ("ascendc-kernels", "opplugin-runtime"):
        _run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target", str(site),
              f"packages/{package}"], tree, {**env, "PYTHONPATH": str(site)}, f"building {package}")

    test = next(e.path for e in edits if e.how == "new" and "/tests/" in e.path)
    result = _run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", test], tree,
                  {**env, "PYTHONPATH": str(site)}, f"the guide's test {test}")
    summary = result.stdout.strip().splitlines()[-1]
    assert re.search(r"\b\d+ passed\b", summary) and not re.search(r"skipped|failed|error", summary), summary
    imported = _run([python, "-c", "import opplugin_runtime; print(opplugin_runtime.__file__)"], tree,
                    {**env, "PYTHONPATH": str(site)}, "importing the copy's runtime").stdout.strip()
    assert Path(imported).is_relative_to(site), f"the test ran against {imported}, not the copy's build"
