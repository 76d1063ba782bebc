"""Lazy initialisation and fork safety (what torch asks of a device module)."""

from __future__ import annotations

import os
import threading

from ._C import C

_initialized = False
_in_bad_fork = False
_lock = threading.Lock()


def _after_fork_in_child() -> None:
    # The simulated device's stream workers do not survive fork().
    global _initialized, _in_bad_fork
    if _initialized:
        _in_bad_fork = True
    _initialized = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _is_in_bad_fork() -> bool:
    return _in_bad_fork


def is_initialized() -> bool:
    return _initialized and not _in_bad_fork


def _lazy_init() -> None:
    global _initialized
    if _initialized:
        return
    with _lock:
        if _initialized:
            return
        if _in_bad_fork:
            raise RuntimeError(
                "Cannot re-initialize the npu device in a forked subprocess. To use npu with multiprocessing, "
                "use the 'spawn' start method"
            )
        C._init()
        _initialized = True


def init() -> None:
    _lazy_init()
