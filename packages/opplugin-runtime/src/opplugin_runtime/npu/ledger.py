"""Which execution path each op took (see PathLedger.h)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Callable

from ._C import C


def path_ledger() -> dict[str, dict[str, int]]:
    """``{op: {"op_api": n, "acl_op": n, "compat": n, "cpu_fallback": n, "dvm": n}}`` for ops that ran."""
    return C.path_ledger()


def reset_path_ledger() -> None:
    C.reset_path_ledger()


_PATHS = ("op_api", "acl_op", "compat", "cpu_fallback", "dvm")


@contextlib.contextmanager
def expect_paths(expected: Mapping[str, str | Iterable[str]], strict: bool = False) -> Iterator[None]:
    """Fails the op that runs an unexpected path, while the block runs on this thread.

    ``expected`` maps op names as the ledger spells them (``"add.Tensor"``) to a path
    or paths (``"op_api"``, ``"acl_op"``, ``"compat"``, ``"cpu_fallback"``, ``"dvm"``).
    A listed op that records another path raises a RuntimeError naming the op, the
    path that ran and the expected one, from inside that op (checked in C++ where the
    path is recorded). With ``strict=True`` an op missing from ``expected`` raises
    when it records any path.
    """
    normalized: dict[str, list[str]] = {}
    for op, paths in expected.items():
        names = [paths] if isinstance(paths, str) else list(paths)
        unknown = [p for p in names if p not in _PATHS]
        if unknown:
            raise ValueError(f"expect_paths: unknown path {unknown[0]!r} for {op}; expected one of {_PATHS}")
        normalized[op] = names
    handle = C.push_path_expectations(normalized, bool(strict))
    try:
        yield
    finally:
        C.pop_path_expectations(handle)


_STEP_REASONS = {
    "force_aclnn": ("{op} is in FORCE_ACLNN_OP_LIST", "{op} is not in FORCE_ACLNN_OP_LIST"),
    "jit_compile_disabled": (
        "jit compile is off (set_compile_mode(jit_compile=False)): op_api is preferred",
        "jit compile is on (set_compile_mode(jit_compile=True)): acl_op is preferred",
    ),
    "base_format": (
        "argument {subject} has base format {detail}",
        "argument {subject} has internal format {detail}, which op_api does not accept",
    ),
    "aclnn_symbol": ("{subject} is available in the op_api library", "{subject} is missing from the op_api library"),
    "aclnn_only_device": (
        "this device runs only aclnn kernels (NPU_ACLNN_ONLY=1)",
        "this device also runs acl_op kernels",
    ),
}


def explain(op: Callable[..., Any], *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
    """Runs ``op(*args, **kwargs)`` and returns the dual-path decision trace it produced.

    Each step is ``{"op", "step", "subject", "value", "detail", "reason"}``, in the
    order the C++ code evaluated them (a short-circuited condition is absent): the
    ForceAclnn list, the jit compile mode, the base-format check of each tensor
    argument, the aclnn symbol lookup of DO_COMPATIBILITY, the aclnn-only device
    check; and one ``step="path"`` entry per path taken (``value`` names it). Ops
    called by the op appear under their own names. If the op raises, the error is
    re-raised with the trace so far attached as ``error.npu_explain``.
    """
    handle = C.explain_begin()
    try:
        op(*args, **kwargs)
    except Exception as error:
        error.npu_explain = _steps(C.explain_end(handle))  # type: ignore[attr-defined]
        raise
    return _steps(C.explain_end(handle))


def _steps(events: list[tuple[str, str, str, str, bool, str]]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for kind, op, name, subject, value, detail in events:
        if kind == "path":
            steps.append({"op": op, "step": "path", "subject": "", "value": name, "detail": "",
                          "reason": f"{op} runs on the {name} path"})
            continue
        true_reason, false_reason = _STEP_REASONS.get(name, ("{step}: true", "{step}: false"))
        reason = (true_reason if value else false_reason).format(op=op, step=name, subject=subject, detail=detail)
        steps.append({"op": op, "step": name, "subject": subject, "value": bool(value), "detail": detail,
                      "reason": reason})
    return steps
