"""``torch.npu``: the device module of the simulated npu device."""

from __future__ import annotations

from . import serialization  # noqa: F401  (torch.npu.serialization; installed by opplugin_runtime)
from .compile_mode import is_jit_compile_false, set_compile_mode
from .device import (
    current_device,
    device,
    device_count,
    device_of,
    get_device_name,
    get_device_properties,
    is_available,
    set_device,
    synchronize,
)
from .fallback import get_fallback_mode, set_fallback_mode
from .formats import Format, get_npu_format, npu_format_cast, npu_format_cast_
from .lazy_init import _is_in_bad_fork, _lazy_init, init, is_initialized
from .ledger import expect_paths, explain, path_ledger, reset_path_ledger
from .memory import (
    empty_cache,
    max_memory_allocated,
    max_memory_reserved,
    mem_get_info,
    memory_allocated,
    memory_reserved,
    memory_stats,
    memory_summary,
    reset_accumulated_memory_stats,
    reset_peak_memory_stats,
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
