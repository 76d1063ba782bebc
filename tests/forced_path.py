"""Running an expression with the dual-path choice forced (jit_compile=True: acl_op, False: op_api) and
checking from the path ledger that the operator took that path."""

from __future__ import annotations

from typing import Any, Callable

import torch


def on_path(path: str, op: str, fn: Callable[[], Any]) -> Any:
    """fn() with the choice forced onto `path` ("op_api" or "acl_op"); fails unless `op` (an overload
    name of the ledger, e.g. "index.Tensor") ran on that path at least once."""
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        result = fn()
        counts = torch.npu.path_ledger().get(op, {})
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    assert counts.get(path, 0) >= 1, f"{op}: expected the {path} path, ledger: {counts}"
    return result
