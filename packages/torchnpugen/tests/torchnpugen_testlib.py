"""Helpers shared by torchnpugen's tests (a unique module name: every package's tests
may run in one pytest session, in importlib mode)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import torchnpugen
import torchnpugen.compat

TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures"
PACKAGE_SRC = TESTS.parent / "src"
REPO = TESTS.parents[2]
REPO_YAML = REPO / "yaml"
PROJECTION = Path("op_plugin") / "config" / "op_plugin_functions.yaml"
DERIVATIVES = Path("op_plugin") / "config" / "derivatives.yaml"
# Where the torchnpugen under test lives (src/ when run alone, the installed wheel under nox).
TORCHNPUGEN_ROOT = Path(torchnpugen.__file__).resolve().parent.parent


def _installed_label() -> str:
    """The label of this interpreter's torch: torchnpugen generates for that one only."""
    from torchnpugen.compat import release_tuple, torch_version

    major, minor = release_tuple(torch_version())[:2]
    return f"v{major}.{minor}"


#: The label the tests generate for (the installed torch's), and a label that is not it.
LABEL = _installed_label()
OTHER_LABEL = "v2.1" if LABEL != "v2.1" else "v2.13"
#: Whether this torchgen generates the AOTInductor C shim (compat "no-aoti-c-shim": not on 2.1).
HAS_AOTI_C_SHIM = torchnpugen.compat.has_aoti_c_shim()
#: Whether this torch knows pt2_compliant_tag (compat "pt2-compliant-tag": not on 2.1).
HAS_PT2_COMPLIANT_TAG = torchnpugen.compat.difference("pt2-compliant-tag") not in (
    torchnpugen.compat.detected_differences()
)


def make_workspace(
    tmp: Path,
    projection_fixture: str = "op_plugin_functions.v2.13.yaml",
    derivatives_fixture: str | None = "derivatives.v2.13.yaml",
) -> dict[str, Path]:
    """A private copy of the project's yaml/ and an <out> holding a projection fixture
    (and the label's filtered derivatives.yaml)."""
    yaml_dir = tmp / "yaml"
    shutil.copytree(REPO_YAML, yaml_dir)
    out = tmp / "out"
    (out / PROJECTION).parent.mkdir(parents=True)
    shutil.copy(FIXTURES / projection_fixture, out / PROJECTION)
    if derivatives_fixture is not None:
        shutil.copy(FIXTURES / derivatives_fixture, out / DERIVATIVES)
    return {
        "yaml": yaml_dir,
        "out": out,
        "npu": out / "npu",
        "aten": out / "npu" / "aten",
        "projection": out / PROJECTION,
        "derivatives": out / DERIVATIVES,
    }


def generate(ws: dict[str, Path], shards: int = 4):
    from torchnpugen.gen import generate as _generate

    return _generate(label=LABEL, yaml_dir=ws["yaml"], out_dir=ws["out"], shards=shards)


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join([str(TORCHNPUGEN_ROOT), full_env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "torchnpugen", *args],
        cwd=str(cwd or REPO),
        env=full_env,
        capture_output=True,
        text=True,
    )


def wrapper_body(text: str, schema_name: str) -> str:
    """The body of the wrapper whose source comment names ``schema_name``."""
    match = re.search(
        r"^[^\s/#][^\n]*\{\n  // " + re.escape(schema_name) + r"  .*?^\}\n", text, flags=re.MULTILINE | re.DOTALL
    )
    assert match, f"no wrapper for {schema_name}"
    return match.group(0)


def yaml_line(path: Path, line_text: str) -> int:
    """1-based number of the first line of `path` equal to `line_text` (without its newline)."""
    return path.read_text().splitlines().index(line_text) + 1


def all_shards(aten: Path) -> str:
    return "\n".join(p.read_text() for p in sorted(aten.glob("RegisterNPU_*.cpp")))


def mark_op_api(ws: dict[str, Path]) -> None:
    """Upstream's flags on two runtime-owned ops of the workspace: ``_copy_from`` gets an op_api
    kernel for base formats, ``zero_`` one that takes internal formats too."""
    path = ws["yaml"] / "npu_native_functions.yaml"
    text = path.read_text()
    text = text.replace(
        "  - func: _copy_from\n    device_check: NoCheck\n",
        "  - func: _copy_from\n    device_check: NoCheck\n    op_api: True\n",
        1,
    )
    text = text.replace("  - zero_\n", "  - func: zero_\n    op_api: True\n    internal_format_opapi: True\n", 1)
    assert text.count("op_api: True") == 2
    path.write_text(text)
