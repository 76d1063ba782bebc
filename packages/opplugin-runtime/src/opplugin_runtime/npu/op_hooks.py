"""Per-op hooks: ``pre(op_name, args)`` before and ``post(op_name, result)`` after
every npu op that goes through a generated wrapper."""

from __future__ import annotations

from typing import Any, Callable

from ._C import C

PreHook = Callable[[str, tuple], Any]
PostHook = Callable[[str, Any], Any]


class OpHookHandle:
    """Returned by :func:`register_op_hook`; ``remove()`` unregisters (idempotent)."""

    def __init__(self, handle_id: int) -> None:
        self.id = handle_id
        self._removed = False

    def remove(self) -> None:
        if not self._removed:
            C.remove_op_hook(self.id)
            self._removed = True

    def __enter__(self) -> OpHookHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def register_op_hook(pre: PreHook | None = None, post: PostHook | None = None) -> OpHookHandle:
    """Calls ``pre(op_name, args)`` before and ``post(op_name, result)`` after each op.

    Hooks cost nothing while none is registered. Ops run inside a hook do not
    trigger hooks again.
    """
    return OpHookHandle(C.register_op_hook(pre, post))
