"""The npu's autocast state, as torch_npu's ``torch.npu`` exposes it: the dtypes autocast accepts and the
thread-local switch and dtype of ``torch.autocast("npu")`` (at::autocast's PrivateUse1 state)."""

from __future__ import annotations

import torch

from ._C import C
from .device import is_bf16_supported

__all__ = ["get_amp_supported_dtype", "get_autocast_dtype", "is_autocast_enabled", "set_autocast_dtype",
           "set_autocast_enabled"]


def get_amp_supported_dtype() -> list[torch.dtype]:
    """The dtypes ``torch.autocast("npu", dtype=...)`` accepts: float16 and float32, and bfloat16 where the SoC
    has it (``is_bf16_supported``). torch disables autocast with a warning for any other."""
    if is_bf16_supported():
        return [torch.float16, torch.bfloat16, torch.float32]
    return [torch.float16, torch.float32]


def is_autocast_enabled() -> bool:
    """Whether autocast is on for npu in this thread."""
    return bool(C.is_autocast_enabled())


def set_autocast_enabled(enabled: bool) -> None:
    """Turns autocast for npu on or off in this thread (``torch.autocast`` does this on enter and exit)."""
    if not isinstance(enabled, bool):
        raise TypeError(f"set_autocast_enabled: enabled must be a bool (got {type(enabled).__name__})")
    C.set_autocast_enabled(enabled)


def get_autocast_dtype() -> torch.dtype:
    """The dtype the lower-precision ops run in under autocast on npu (float16 unless set)."""
    return C.get_autocast_dtype()


def set_autocast_dtype(dtype: torch.dtype) -> None:
    """Sets that dtype for this thread."""
    C.set_autocast_dtype(dtype)
