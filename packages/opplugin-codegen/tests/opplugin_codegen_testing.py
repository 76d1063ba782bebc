"""Helpers shared by the tests of opplugin-codegen (a uniquely named module, so that the
repository-wide pytest run in importlib mode can hold several packages' helpers)."""

from __future__ import annotations

import importlib.util
import os
import re
import textwrap
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
SRC = PACKAGE / "src"

REPO = PACKAGE.parents[1]
PROJECT_YAML = REPO / "yaml"
DATA = Path(__file__).resolve().parent / "data"
RICH_YAML = DATA / "rich"

#: The registry every hand-written test YAML uses (independent of the project's file).
VERSIONS = """\
default: v2.13
versions:
  v2.1: {torch: "2.1.2"}
  v2.2: {torch: "2.2.2"}
  v2.3: {torch: "2.3.1"}
  v2.4: {torch: "2.4.1"}
  v2.5: {torch: "2.5.1"}
  v2.6: {torch: "2.6.0"}
  v2.7: {torch: "2.7.1"}
  v2.8: {torch: "2.8.0"}
  v2.9: {torch: "2.9.1"}
  v2.10: {torch: "2.10.0"}
  v2.11: {torch: "2.11.0"}
  v2.12: {torch: "2.12.1"}
  v2.13: {torch: "2.13.0"}
  v2.14: {torch: "2.14.1"}
  v2.15: {torch: "2.15.0"}
"""


def make_yaml_dir(
    root: Path, ops: str, derivatives: str | None = None, versions: str = VERSIONS
) -> Path:
    """Write a yaml/ directory; ``ops`` is dedented. Its files display as yaml/<file>."""
    d = root / "yaml"
    d.mkdir(parents=True, exist_ok=True)
    (d / "versions.yaml").write_text(versions)
    (d / "op_plugin_functions.yaml").write_text(textwrap.dedent(ops))
    if derivatives is not None:
        (d / "derivatives.yaml").write_text(textwrap.dedent(derivatives))
    return d


def line_of(path: Path, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in {path}")


def snapshot(tree: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``tree`` with its content and mtime (ns)."""
    return {
        str(p.relative_to(tree)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(tree.rglob("*"))
        if p.is_file()
    }


def torch_include_dirs() -> list[Path] | None:
    """Include dirs of the torch importable by this interpreter (not imported)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    inc = Path(next(iter(spec.submodule_search_locations))) / "include"
    dirs = [inc, inc / "torch" / "csrc" / "api" / "include"]
    return dirs if (inc / "ATen" / "core" / "Tensor.h").exists() else None


def subprocess_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


SYNTHETIC_RANGES = [
    "all_version",
    "[v2.1, newest]",
    "[v2.3, newest]",
    "[v2.1, v2.12]",
    "v2.7",
    '"v2.1, v2.2"',
    "[v2.6, newest]",
]


def synthetic_ops(n_families: int = 375) -> str:
    """Four entries per family: functional, out=, in-place (gen_opapi) and a dual-path op."""
    lines = ["official:"]
    for i in range(n_families):
        r = SYNTHETIC_RANGES[i % len(SYNTHETIC_RANGES)]
        name = f"op{i}"
        lines += [
            f"  - func: {name}(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
            "    op_api: all_version",
            "    gen_opapi:",
            f"      structured_inherit: {name}.out",
            f"  - func: {name}.out(Tensor self, Tensor other, *, Scalar alpha=1, "
            "Tensor(a!) out) -> Tensor(a!)",
            "    op_api: all_version",
            f"    acl_op: {r}",
            "    gen_opapi:",
            "      out:",
            "        size: broadcast_ops_npu_output_size(self, other)",
            "        dtype: self",
            "        name: self, other",
            f"      exec: aclnnOp{i}",
            f"  - func: {name}_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
            "    op_api: all_version",
            "    gen_opapi:",
            f"      structured_inherit: {name}.out",
            f"  - func: {name}_backward(Tensor grad, Tensor self, int[] dims, Tensor? weight, "
            "ScalarType? dtype=None, bool keepdim=False) -> (Tensor, Tensor)",
            f"    acl_op: {r}",
            "    op_api: [v2.2, newest]",
            "    internal_format_opapi: [v2.5, newest]",
            "",
        ]
    return "\n".join(lines) + "\n"


def installed_torch_label(default: str = "v2.13") -> str:
    """The label whose torch this interpreter has (``NPU_TEST_LABEL`` when set): generated
    C++ compiled in a test must be generated for it (npu/version.h refuses any other)."""
    import importlib.metadata
    import re

    if os.environ.get("NPU_TEST_LABEL"):
        return os.environ["NPU_TEST_LABEL"]
    try:
        version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return default
    m = re.match(r"(\d+)\.(\d+)", version)
    return f"v{m.group(1)}.{m.group(2)}" if m else default


def cxx_std_flag() -> str:
    """The ``-std=`` flag the installed torch's cpp_extension compiles with (C++17 on 2.1,
    C++20 on 2.13 and 2.14, whose headers need concepts), read without importing torch."""
    import re

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return "-std=c++17"
    source = Path(next(iter(spec.submodule_search_locations))) / "utils" / "cpp_extension.py"
    text = source.read_text(encoding="utf-8") if source.is_file() else ""
    found = re.findall(r"-std=c\+\+(\d+)", text)
    return f"-std=c++{max(int(v) for v in found)}" if found else "-std=c++17"


def expanded(files: dict[str, str], umbrella: str) -> str:
    """An umbrella header (``op_plugin/OpInterface.h``) with each family header it includes
    written in place: everything a source including the umbrella sees."""
    return re.sub(
        r'#include "(op_plugin/ops/[^"]+\.h)"\n', lambda m: files[m.group(1)], files[umbrella]
    )


def namespace_text(text: str, namespace: str) -> str:
    """The declarations of every ``namespace <namespace> { ... }`` block of a header."""
    pattern = rf"namespace {namespace} \{{\n(.*?)\n\}}  // namespace {namespace}\n"
    return "".join(re.findall(pattern, text, re.S))
