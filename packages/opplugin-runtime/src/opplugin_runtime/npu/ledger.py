"""Which execution path each op took (see PathLedger.h)."""

from __future__ import annotations

from ._C import C


def path_ledger() -> dict[str, dict[str, int]]:
    """``{op: {"op_api": n, "acl_op": n, "compat": n, "cpu_fallback": n, "dvm": n}}`` for ops that ran."""
    return C.path_ledger()


def reset_path_ledger() -> None:
    C.reset_path_ledger()
