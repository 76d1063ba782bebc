"""``torch.npu``: the device module of the simulated npu device."""

from __future__ import annotations

from . import inductor, serialization  # noqa: F401  (torch.npu.serialization; installed by opplugin_runtime)
from .compile_mode import is_jit_compile_false, set_compile_mode
from .device import (
    can_device_access_peer,
    current_device,
    device,
    device_count,
    device_memory_used,
    device_of,
    get_device_capability,
    get_device_name,
    get_device_properties,
    has_half,
    is_available,
    is_bf16_supported,
    is_current_stream_capturing,
    is_tf32_supported,
    set_device,
    synchronize,
    utilization,
)
from .fallback import get_fallback_mode, set_fallback_mode
from .formats import Format, get_npu_format, npu_format_cast, npu_format_cast_
from .lazy_init import _is_in_bad_fork, _lazy_init, init, is_initialized
from .ledger import expect_paths, explain, path_ledger, reset_path_ledger
from .memory import (
    MemPool,
    OutOfMemoryError,
    caching_allocator_alloc,
    caching_allocator_delete,
    empty_cache,
    get_allocator_backend,
    get_per_process_memory_fraction,
    max_memory_allocated,
    max_memory_cached,
    max_memory_reserved,
    mem_get_info,
    memory_allocated,
    memory_cached,
    memory_reserved,
    memory_snapshot,
    memory_stats,
    memory_stats_as_nested_dict,
    memory_summary,
    reset_accumulated_memory_stats,
    reset_max_memory_allocated,
    reset_max_memory_cached,
    reset_peak_memory_stats,
    set_per_process_memory_fraction,
    use_mem_pool,
)
from .op_hooks import OpHookHandle, register_op_hook
from .random import (
    default_generator,
    get_rng_state,
    get_rng_state_all,
    initial_seed,
    manual_seed,
    manual_seed_all,
    seed,
    seed_all,
    set_rng_state,
    set_rng_state_all,
)
from .streams import Event, Stream, StreamContext, current_stream, default_stream, set_stream, stream

__all__ = [
    "Format",
    "OpHookHandle",
    "Stream",
    "_is_in_bad_fork",
    "_lazy_init",
    "current_device",
    "current_stream",
    "default_generator",
    "default_stream",
    "device",
    "device_count",
    "device_of",
    "empty_cache",
    "expect_paths",
    "explain",
    "get_device_name",
    "get_fallback_mode",
    "get_npu_format",
    "get_rng_state",
    "get_rng_state_all",
    "init",
    "initial_seed",
    "is_available",
    "is_initialized",
    "is_jit_compile_false",
    "manual_seed",
    "manual_seed_all",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "memory_stats",
    "npu_format_cast",
    "npu_format_cast_",
    "path_ledger",
    "register_op_hook",
    "reset_path_ledger",
    "reset_peak_memory_stats",
    "seed",
    "seed_all",
    "set_compile_mode",
    "set_device",
    "set_fallback_mode",
    "set_rng_state",
    "set_rng_state_all",
    "set_stream",
    "synchronize",
]
# Streams, events, allocator and device properties.
__all__ += [
    "Event",
    "StreamContext",
    "get_device_properties",
    "mem_get_info",
    "memory_summary",
    "reset_accumulated_memory_stats",
    "stream",
]
# torch_npu's switches, its compatible-implementation setting and the legacy tensor types.
from . import legacy_types  # noqa: E402
from .compatible_impl import are_compatible_impl_enabled, use_compatible_impl  # noqa: E402
from .legacy_types import *  # noqa: E402, F403
from .switches import config  # noqa: E402

__all__ += ["are_compatible_impl_enabled", "config", "use_compatible_impl", *legacy_types.__all__]
# Pinned host memory.
from . import host_memory  # noqa: E402
from .host_memory import *  # noqa: E402, F403
from .host_memory import _host_empty_cache, _sleep  # noqa: E402, F401

__all__ += host_memory.__all__
# The toolkit's version and the SoC (torch.npu.utils, as torch_npu's).
from . import utils  # noqa: E402
from .utils import get_cann_version, get_soc_version  # noqa: E402

__all__ += ["get_cann_version", "get_soc_version", "utils"]

# Mixed precision: the autocast state of torch.autocast("npu") and torch.npu.amp.
from . import amp  # noqa: E402
from .autocast_utils import (  # noqa: E402
    get_amp_supported_dtype,
    get_autocast_dtype,
    is_autocast_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)

__all__ += ["amp", "get_amp_supported_dtype", "get_autocast_dtype", "is_autocast_enabled", "set_autocast_dtype",
            "set_autocast_enabled"]

# The torch.cuda names of the device, allocator and memory-history API (see the README's list).
__all__ += [
    "MemPool",
    "OutOfMemoryError",
    "caching_allocator_alloc",
    "caching_allocator_delete",
    "can_device_access_peer",
    "device_memory_used",
    "get_allocator_backend",
    "get_device_capability",
    "get_per_process_memory_fraction",
    "has_half",
    "is_bf16_supported",
    "is_current_stream_capturing",
    "is_tf32_supported",
    "max_memory_cached",
    "memory_cached",
    "memory_snapshot",
    "memory_stats_as_nested_dict",
    "reset_max_memory_allocated",
    "reset_max_memory_cached",
    "set_per_process_memory_fraction",
    "use_mem_pool",
    "utilization",
]


def __getattr__(name: str) -> object:
    # torch.cuda.default_generators: one generator per device; made on first use, after lazy init.
    if name == "default_generators":
        return tuple(default_generator(index) for index in range(device_count()))
    # Inductor's backend for npu, which torch looks up here (imported on first use).
    if name in inductor.BACKEND_ATTRIBUTES:
        return inductor.backend_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"default_generators", *inductor.BACKEND_ATTRIBUTES})
