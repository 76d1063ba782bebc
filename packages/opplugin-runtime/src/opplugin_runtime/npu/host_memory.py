"""Pinned host memory: the caching host allocator's statistics (``torch.cuda``'s host memory API),
and ``_sleep``, which keeps the current stream busy (``torch.cuda._sleep``)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ._C import C
from .lazy_init import _lazy_init

__all__ = [
    "host_memory_stats",
    "host_memory_stats_as_nested_dict",
    "reset_accumulated_host_memory_stats",
    "reset_peak_host_memory_stats",
]


def host_memory_stats_as_nested_dict() -> dict[str, Any]:
    """The pinned allocator's statistics as ``{"allocations": {"current": ..., "peak": ...}, ...}``."""
    return C.host_memory_stats()


def host_memory_stats() -> dict[str, Any]:
    """The pinned allocator's statistics, flattened as ``torch.cuda.host_memory_stats`` does:
    ``"allocations.current"``, ``"active_bytes.peak"``, ``"num_host_alloc"``, ``"host_alloc_time.avg"`` ...

    ``allocations``/``allocated_bytes`` count the blocks the allocator owns (held and cached, sizes
    rounded up to a power of two); ``active_requests``/``active_bytes`` those handed out and not yet
    reusable (a freed block stays active until the non_blocking copies queued on it have run).
    Times are in microseconds."""
    flat: list[tuple[str, Any]] = []

    def add(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                add(f"{prefix}.{key}" if prefix else key, inner)
        else:
            flat.append((prefix, value))

    add("", host_memory_stats_as_nested_dict())
    return OrderedDict(sorted(flat))


def reset_peak_host_memory_stats() -> None:
    """Sets every ``*.peak`` of the host statistics to its current value."""
    C.reset_peak_host_memory_stats()


def reset_accumulated_host_memory_stats() -> None:
    """Zeroes the cumulative host counters (``*.allocated``, ``*.freed``, ``num_host_*``, the times)."""
    C.reset_accumulated_host_memory_stats()


def _host_empty_cache() -> None:
    """Returns the cached pinned blocks whose queued copies have finished to ``aclrtFreeHost``."""
    C.host_empty_cache()


def _sleep(cycles: int) -> None:
    """Queues on the current stream a task that keeps it busy for ``cycles`` device cycles
    (one nanosecond each on the simulated device), as ``torch.cuda._sleep`` spins a GPU."""
    _lazy_init()
    C._sleep(int(cycles))
