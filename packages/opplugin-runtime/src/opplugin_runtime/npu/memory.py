"""The caching allocator's statistics and cache control."""

from __future__ import annotations

from ._C import C
from .device import DeviceLike, _optional_index
from .lazy_init import _lazy_init


def memory_stats(device: DeviceLike = None) -> dict[str, int]:
    _lazy_init()
    return C.memory_stats(_optional_index(device))


def memory_allocated(device: DeviceLike = None) -> int:
    """Bytes held by live tensors (and workspaces) on ``device``."""
    return memory_stats(device)["allocated_bytes"]


def memory_reserved(device: DeviceLike = None) -> int:
    """Bytes the caching allocator holds on ``device`` (allocated plus cached)."""
    return memory_stats(device)["reserved_bytes"]


def max_memory_allocated(device: DeviceLike = None) -> int:
    return memory_stats(device)["peak_allocated_bytes"]


def max_memory_reserved(device: DeviceLike = None) -> int:
    return memory_stats(device)["peak_reserved_bytes"]


def reset_peak_memory_stats(device: DeviceLike = None) -> None:
    _lazy_init()
    C.reset_peak_memory_stats(_optional_index(device))


def empty_cache() -> None:
    """Returns every cached, unused block to the device (synchronizes first)."""
    _lazy_init()
    C.empty_cache()
