"""The CPU fallback policy for ops without an npu kernel (NPU_FALLBACK)."""

from __future__ import annotations

from ._C import C


def set_fallback_mode(mode: str) -> None:
    """``"warn"`` (once per op), ``"silent"`` or ``"error"``."""
    C.set_fallback_mode(mode)


def get_fallback_mode() -> str:
    return C.get_fallback_mode()
