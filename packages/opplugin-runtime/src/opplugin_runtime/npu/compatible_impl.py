"""``torch_npu.npu.use_compatible_impl``: upstream's switch between an op's NPU-specific
behaviour and the behaviour of PyTorch's reference implementation.

Every op of this backend is written to the reference behaviour (the tests compare each one
with CPU), so there is no NPU-specific variant to switch to: the setting is kept and reported
by ``are_compatible_impl_enabled``, and both settings run the same kernels.
"""

from __future__ import annotations

_enabled = False


def use_compatible_impl(is_enable: bool) -> None:
    """Record the setting (ops here always follow PyTorch's reference behaviour)."""
    global _enabled
    if not isinstance(is_enable, bool):
        raise TypeError(f"use_compatible_impl: is_enable must be a bool, got {type(is_enable).__name__}")
    _enabled = is_enable


def are_compatible_impl_enabled() -> bool:
    return _enabled
