"""The caching allocator's statistics and cache control (the ``torch.cuda`` memory API)."""

from __future__ import annotations

import contextlib
import pickle
import sys
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import torch

from ._C import C
from .device import DeviceLike, _get_device_index, _optional_index
from .lazy_init import _lazy_init

# What the caching allocator raises when a device (or the memory fraction) has no room:
# c10::OutOfMemoryError, which torch >= 2.5 names torch.OutOfMemoryError and 2.1 torch.cuda.OutOfMemoryError.
OutOfMemoryError = getattr(torch, "OutOfMemoryError", None) or torch._C._OutOfMemoryError


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


def memory_stats_as_nested_dict(device: DeviceLike = None) -> dict[str, Any]:
    """``memory_stats`` with its dotted keys as nested dicts (``["allocated_bytes"]["all"]["current"]``)."""
    stats = memory_stats(device)
    nested: dict[str, Any] = {}
    for key, value in stats.items():
        if any(other.startswith(key + ".") for other in stats):
            continue  # a short name of this runtime's first releases, also a prefix of torch.cuda's keys
        node = nested
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return nested


def reset_max_memory_allocated(device: DeviceLike = None) -> None:
    """Resets the peak of ``memory_allocated`` (as ``torch.cuda``: all peaks, via ``reset_peak_memory_stats``)."""
    warnings.warn(
        "torch.npu.reset_max_memory_allocated now calls torch.npu.reset_peak_memory_stats, which resets all peak "
        "memory stats.",
        FutureWarning,
        stacklevel=2,
    )
    reset_peak_memory_stats(device)


def reset_max_memory_cached(device: DeviceLike = None) -> None:
    """Resets the peak of ``memory_reserved`` (as ``torch.cuda``: all peaks, via ``reset_peak_memory_stats``)."""
    warnings.warn(
        "torch.npu.reset_max_memory_cached now calls torch.npu.reset_peak_memory_stats, which resets all peak "
        "memory stats.",
        FutureWarning,
        stacklevel=2,
    )
    reset_peak_memory_stats(device)


def memory_cached(device: DeviceLike = None) -> int:
    """Deprecated name of ``memory_reserved``."""
    warnings.warn("torch.npu.memory_cached has been renamed to torch.npu.memory_reserved", FutureWarning, stacklevel=2)
    return memory_reserved(device)


def max_memory_cached(device: DeviceLike = None) -> int:
    """Deprecated name of ``max_memory_reserved``."""
    warnings.warn(
        "torch.npu.max_memory_cached has been renamed to torch.npu.max_memory_reserved", FutureWarning, stacklevel=2
    )
    return max_memory_reserved(device)


def get_allocator_backend() -> str:
    """The device allocator in use: always this runtime's caching allocator, ``"native"``."""
    return "native"


def set_per_process_memory_fraction(fraction: float, device: DeviceLike = None) -> None:
    """Caps what the caching allocator may reserve on ``device`` at ``fraction`` of its total memory; beyond it an
    allocation returns the cache to the device and then raises ``torch.npu.OutOfMemoryError``."""
    if not isinstance(fraction, float):
        raise TypeError(f"set_per_process_memory_fraction: fraction must be a float, got {type(fraction).__name__}")
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"set_per_process_memory_fraction: fraction must be in [0, 1], got {fraction}")
    _lazy_init()
    C.set_memory_fraction(fraction, _get_device_index(device))


def get_per_process_memory_fraction(device: DeviceLike = None) -> float:
    """The fraction set by ``set_per_process_memory_fraction`` (default 1.0)."""
    _lazy_init()
    return C.get_memory_fraction(_get_device_index(device))


def caching_allocator_alloc(size: int, device: DeviceLike = None, stream: Any = None) -> int:
    """A device pointer (an int) to ``size`` bytes from the caching allocator, for use on ``stream`` (default: the
    current stream of ``device``); give it back with ``caching_allocator_delete``. 0 bytes give 0."""
    _lazy_init()
    index = _get_device_index(device)
    if stream is None:
        return C.caching_allocator_alloc(int(size), index, 0, index, -1)
    if not isinstance(stream, torch.Stream):
        raise TypeError(f"caching_allocator_alloc: stream must be a torch.npu.Stream, got {type(stream).__name__}")
    return C.caching_allocator_alloc(int(size), index, stream.stream_id, stream.device_index, stream.device_type)


def caching_allocator_delete(mem_ptr: int) -> None:
    """Frees a pointer of ``caching_allocator_alloc`` (the block goes back to the cache of its stream)."""
    _lazy_init()
    C.caching_allocator_delete(int(mem_ptr))


class MemPool:
    """A private pool of the caching allocator: allocations made inside ``use_mem_pool(pool)`` come from segments of
    their own, which the default pool (and ``empty_cache``) never uses; they go back to the device once the pool is
    deleted and its blocks are freed."""

    def __init__(self, allocator: Any = None, use_on_oom: bool = False, no_split: bool = False) -> None:
        if allocator is not None:
            raise ValueError("MemPool: only the caching allocator's own pools exist here (allocator must be None)")
        if use_on_oom or no_split:
            raise ValueError("MemPool: use_on_oom and no_split are not supported by the npu caching allocator")
        _lazy_init()
        self._pool = C.mem_pool_create()
        self._contexts = 0

    @property
    def id(self) -> tuple[int, int]:
        """The pool's id, as ``segment_pool_id`` in ``memory_snapshot()``."""
        return (0, self._pool)

    @property
    def allocator(self) -> None:
        return None

    def use_count(self) -> int:
        """References to the pool: the pool object and each active ``use_mem_pool`` context."""
        return 1 + self._contexts

    def snapshot(self) -> list[dict[str, Any]]:
        """``memory_snapshot()`` of this pool's segments only."""
        return memory_snapshot(mempool_id=self.id)

    def __del__(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None and C is not None:
            C.mem_pool_release(pool)


@contextlib.contextmanager
def use_mem_pool(pool: MemPool, device: DeviceLike = None) -> Iterator[None]:
    """Routes this thread's allocations on ``device`` (default: the current device) to ``pool``."""
    if not isinstance(pool, MemPool):
        raise TypeError(f"use_mem_pool: pool must be a torch.npu.MemPool, got {type(pool).__name__}")
    _lazy_init()
    index = _get_device_index(device)
    C.mem_pool_begin(index, pool._pool)
    pool._contexts += 1
    try:
        yield
    finally:
        pool._contexts -= 1
        C.mem_pool_end(index, pool._pool)


def _record_memory_history(
    enabled: str | None = "all",
    context: str | None = "all",
    stacks: str = "all",
    max_entries: int = sys.maxsize,
    device: DeviceLike = None,
    clear_history: bool = False,
) -> None:
    """Records the caching allocator's history for ``_snapshot()``: with ``enabled="all"`` every allocation, free and
    segment change goes to a trace of at most ``max_entries`` entries (the oldest go first); ``"state"`` only keeps
    each live block's allocation frames; ``None`` stops recording. ``context``: frames of allocations and frees
    (``"all"``), of allocations (``"alloc"``, ``"state"``) or none (``None``). Frames are the Python stack of the
    allocating thread (``stacks`` "python" or "all" alike: there are no C++ frames); allocations of threads that run no
    Python code (autograd's) have none. ``device`` is accepted for ``torch.cuda``'s signature: the history
    covers every device. A bool ``enabled`` (torch 2.1's form) means ``"all"`` or ``None``."""
    del device
    if isinstance(enabled, bool):
        enabled = "all" if enabled else None
    _lazy_init()
    C.record_memory_history(enabled, context, stacks, int(max_entries), bool(clear_history))


def _snapshot(device: DeviceLike = None, augment_with_fx_traces: bool = False) -> dict[str, Any]:
    """The allocator's state as ``torch.cuda.memory._snapshot()`` lays it out: ``"segments"`` (every segment with
    its blocks, states and allocation frames) and ``"device_traces"`` (per device, the recorded events oldest first:
    ``action``, ``addr``, ``size``, ``stream``, ``time_us``, ``frames``)."""
    del device
    if augment_with_fx_traces:
        raise ValueError("_snapshot: augment_with_fx_traces is not supported on npu")
    _lazy_init()
    return C.memory_snapshot()


def _dump_snapshot(filename: str = "dump_snapshot.pickle", augment_with_fx_traces: bool = False) -> None:
    """Pickles ``_snapshot()`` to ``filename`` (the format pytorch.org/memory_viz reads)."""
    snapshot = _snapshot(augment_with_fx_traces=augment_with_fx_traces)
    with open(filename, "wb") as f:
        pickle.dump(snapshot, f)


def memory_snapshot(mempool_id: tuple[int, int] | None = None) -> list[dict[str, Any]]:
    """Every segment of the caching allocator (all devices) with its blocks, as ``torch.cuda.memory_snapshot()``;
    with ``mempool_id`` only that ``MemPool``'s segments."""
    segments = _snapshot()["segments"]
    if mempool_id is not None:
        segments = [s for s in segments if s["segment_pool_id"] == tuple(mempool_id)]
    return segments
