"""The caching allocator's statistics and cache control (the ``torch.cuda`` memory API)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ._C import C
from .device import DeviceLike, _optional_index
from .lazy_init import _lazy_init


def memory_stats(device: DeviceLike = None) -> dict[str, int]:
    """The allocator's statistics for ``device``, with ``torch.cuda.memory_stats``' keys
    (``"allocated_bytes.all.current"``, ``"reserved_bytes.large_pool.peak"``, ``"num_ooms"`` ...)."""
    _lazy_init()
    return OrderedDict(sorted(C.memory_stats(_optional_index(device)).items()))


def memory_allocated(device: DeviceLike = None) -> int:
    """Bytes held by live tensors (and workspaces) on ``device``."""
    return memory_stats(device)["allocated_bytes.all.current"]


def memory_reserved(device: DeviceLike = None) -> int:
    """Bytes the caching allocator holds on ``device`` (allocated plus cached)."""
    return memory_stats(device)["reserved_bytes.all.current"]


def max_memory_allocated(device: DeviceLike = None) -> int:
    """Peak of ``memory_allocated`` since the start or the last ``reset_peak_memory_stats``."""
    return memory_stats(device)["allocated_bytes.all.peak"]


def max_memory_reserved(device: DeviceLike = None) -> int:
    """Peak of ``memory_reserved`` since the start or the last ``reset_peak_memory_stats``."""
    return memory_stats(device)["reserved_bytes.all.peak"]


def reset_peak_memory_stats(device: DeviceLike = None) -> None:
    _lazy_init()
    C.reset_peak_memory_stats(_optional_index(device))


def reset_accumulated_memory_stats(device: DeviceLike = None) -> None:
    """Zeroes the cumulative counters (``*.allocated``, ``*.freed``, ``num_*``)."""
    _lazy_init()
    C.reset_accumulated_memory_stats(_optional_index(device))


def empty_cache() -> None:
    """Returns every cached, unused segment to the device (synchronizes first)."""
    _lazy_init()
    C.empty_cache()


def mem_get_info(device: DeviceLike = None) -> tuple[int, int]:
    """(free, total) bytes of the simulated device memory (``ASCEND_SIM_MEMORY_MB`` per device)."""
    _lazy_init()
    free, total = C.mem_get_info(_optional_index(device))
    return free, total


def _format_bytes(value: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(value) >= scale:
            return f"{value / scale:.2f} {unit}"
    return f"{value} B"


def memory_summary(device: DeviceLike = None, abbreviated: bool = False) -> str:
    """A short table of the allocator's statistics (current, peak, cumulative in/out)."""
    stats = memory_stats(device)
    rows: list[tuple[str, str, Any]] = [
        ("Allocated memory", "allocated_bytes", _format_bytes),
        ("Active memory", "active_bytes", _format_bytes),
        ("Requested memory", "requested_bytes", _format_bytes),
        ("Reserved memory", "reserved_bytes", _format_bytes),
        ("Allocations", "allocation", str),
        ("Active allocs", "active", str),
        ("Segments", "segment", str),
    ]
    pools = ("all",) if abbreviated else ("all", "large_pool", "small_pool")
    index = _optional_index(device)
    header = f"|{'npu memory summary, device ' + str(C.current_device() if index < 0 else index):^80}|"
    lines = [
        "=" * 82,
        header,
        "-" * 82,
        f"| {'metric':<30}| {'current':>10} | {'peak':>10} | {'tot alloc':>10} | {'tot freed':>10} |",
        "-" * 82,
    ]
    for title, key, fmt in rows:
        for pool in pools:
            name = title if pool == "all" else f"  from {pool.replace('_', ' ')}"
            values = [fmt(stats[f"{key}.{pool}.{field}"]) for field in ("current", "peak", "allocated", "freed")]
            lines.append(f"| {name:<30}| {values[0]:>10} | {values[1]:>10} | {values[2]:>10} | {values[3]:>10} |")
    lines.append("-" * 82)
    lines.append(
        f"| alloc retries: {stats['num_alloc_retries']:<6} OOMs: {stats['num_ooms']:<6} "
        f"device mallocs: {stats['num_device_alloc']:<8} device frees: {stats['num_device_free']:<10}|"
    )
    lines.append("=" * 82)
    return "\n".join(lines) + "\n"
