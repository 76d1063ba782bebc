"""Hand-written kernels take their version ranges from the YAML.

An op declared with ``op_api: [v2.4, newest]`` whose op_api kernel is written by hand must
not be compiled in the labels before v2.4 (its ATen types or calls may not exist there). The
kernel asks the op's family header, ``#if OP_API_LIVE(_batch_norm_with_update)``, instead of
restating the range as ``#if VERSION_BETWEEN(V2R4, VERSION_NEWEST)``, so that a range changed
in the YAML moves the kernel with it. These tests read the runtime's sources: every
``OP_API_LIVE``/``ACL_OP_LIVE`` names an op of the YAML that has the path in some label and
includes its family header, and no ``VERSION_BETWEEN`` block of a kernel file encloses the
definition of a YAML op.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from opplugin_codegen import load_model
from opplugin_codegen.model import CODE_SECTIONS
from opplugin_codegen.projection import op_family

REPO = Path(__file__).resolve().parent.parent
CSRC = REPO / "packages/opplugin-runtime/csrc"
KERNELS = CSRC / "op_plugin/ops"

_LIVE_USE = re.compile(r"\b(OP_API|ACL_OP)_LIVE\((\w+)\)")
_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
# The first line of a function definition at namespace scope: `type name(` at column 0.
_DEFINITION = re.compile(r"^[A-Za-z_:][^;(]*?\b(\w+)\(")


@cache
def _ops() -> dict[str, tuple[str, set[str]]]:
    """Per op's macro name: (its family, the paths it has in some label)."""
    ops: dict[str, tuple[str, set[str]]] = {}
    for e in load_model(REPO / "yaml").entries:
        if e.section in CODE_SECTIONS:
            _, paths = ops.setdefault(e.macro_name, (op_family(e), set()))
            paths.update(p for p in ("op_api", "acl_op") if getattr(e, p) is not None)
    return ops


@cache
def _kernel_names() -> set[str]:
    return {e.cpp.name for e in load_model(REPO / "yaml").entries if e.section in CODE_SECTIONS}


def liveness_problems(text: str) -> list[str]:
    """What is wrong with the OP_API_LIVE / ACL_OP_LIVE uses of one source file."""
    problems = []
    for m in _LIVE_USE.finditer(text):
        path, name = m.group(1).lower(), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        if name not in _ops():
            problems.append(f"{line}: {m.group(0)}: no op of the YAML is spelled {name} in C macros")
            continue
        family, paths = _ops()[name]
        if path not in paths:
            problems.append(f"{line}: {m.group(0)}: {name} has no {path} path in any label")
        if f'#include "op_plugin/ops/{family}.h"' not in text:
            problems.append(f"{line}: {m.group(0)}: the file does not include op_plugin/ops/{family}.h")
    return problems


def restated_ranges(text: str) -> list[str]:
    """Definitions of YAML ops inside a ``#if VERSION_BETWEEN`` block."""
    found = []
    stack: list[bool] = []  # per open #if: whether it tests VERSION_BETWEEN
    for number, line in enumerate(text.splitlines(), 1):
        d = _DIRECTIVE.match(line)
        if d:
            kind, rest = d.groups()
            if kind.startswith("if"):
                stack.append("VERSION_BETWEEN" in rest)
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if any(stack):
            m = _DEFINITION.match(line)
            if m and m.group(1) in _kernel_names() and not line.startswith(("namespace", "using")):
                found.append(f"{number}: {m.group(1)} is defined under VERSION_BETWEEN")
    return found


def _sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in (".cpp", ".h"))


@pytest.mark.parametrize("source", _sources(CSRC), ids=lambda p: str(p.relative_to(CSRC)))
def test_liveness_macros_name_declared_ops(source: Path) -> None:
    assert liveness_problems(source.read_text()) == []


@pytest.mark.parametrize("source", _sources(KERNELS), ids=lambda p: str(p.relative_to(KERNELS)))
def test_no_kernel_restates_a_yaml_range(source: Path) -> None:
    assert restated_ranges(source.read_text()) == []


def test_a_version_ranged_hand_written_kernel_asks_the_yaml() -> None:
    text = (KERNELS / "opapi/BatchNormKernelNpuOpApi.cpp").read_text()
    for op in ("_batch_norm_with_update", "_batch_norm_no_update", "batch_norm_backward"):
        assert f"#if OP_API_LIVE({op})\n" in text, op


RESTATED = """\
#include "op_plugin/ops/_batch_norm_with_update.h"
namespace op_api {
#if VERSION_BETWEEN(V2R4, VERSION_NEWEST)
std::tuple<at::Tensor, at::Tensor> _batch_norm_with_update(
    const at::Tensor& input) {
#if VERSION_BETWEEN(V2R13, VERSION_NEWEST)
  check(input);
#endif
}
#endif
}  // namespace op_api
"""


def test_the_checks_find_what_they_look_for() -> None:
    assert restated_ranges(RESTATED) == ["4: _batch_norm_with_update is defined under VERSION_BETWEEN"]
    asked = RESTATED.replace("VERSION_BETWEEN(V2R4, VERSION_NEWEST)", "OP_API_LIVE(_batch_norm_with_update)")
    assert restated_ranges(asked) == [] and liveness_problems(asked) == []
    assert liveness_problems(asked.replace("(_batch_norm_with_update)", "(_batch_norm_with_updat)")) == [
        "3: OP_API_LIVE(_batch_norm_with_updat): no op of the YAML is spelled _batch_norm_with_updat in C macros"
    ]
    assert liveness_problems(asked.replace("OP_API_LIVE", "ACL_OP_LIVE")) == [
        "3: ACL_OP_LIVE(_batch_norm_with_update): _batch_norm_with_update has no acl_op path in any label"
    ]
    assert liveness_problems(asked.split("\n", 1)[1]) == [
        "2: OP_API_LIVE(_batch_norm_with_update): the file does not include op_plugin/ops/_batch_norm_with_update.h"
    ]
