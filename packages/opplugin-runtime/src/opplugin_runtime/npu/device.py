"""Devices: count, current device, synchronisation, the ``device`` context manager."""

from __future__ import annotations

import os
import re
import warnings
from typing import Any, Union

import torch

from ._C import C
from .lazy_init import _lazy_init

DeviceLike = Union[int, str, torch.device, None]


def _get_device_index(device: DeviceLike, optional: bool = True) -> int:
    """The npu device index of ``device`` (None / "npu" without an index: the current device)."""
    if device is None:
        if not optional:
            raise ValueError("expected an npu device, got None")
        return current_device()
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type != "npu":
            raise ValueError(f"expected an npu device, got {device}")
        return current_device() if device.index is None else device.index
    raise TypeError(f"expected an int, str or torch.device, got {type(device).__name__}")


def is_available() -> bool:
    return C.device_count() > 0


def device_count() -> int:
    return C.device_count()


def current_device() -> int:
    _lazy_init()
    return C.current_device()


def set_device(device: DeviceLike) -> None:
    index = _get_device_index(device)
    if index >= 0:
        _lazy_init()
        C.set_device(index)


def synchronize(device: DeviceLike = None) -> None:
    """Waits for all work queued on every stream of ``device`` (default: the current device)."""
    _lazy_init()
    C.synchronize(_get_device_index(device))


class device:
    """Context manager that makes ``device`` current and restores the previous one."""

    def __init__(self, device: Any) -> None:
        self.idx = _get_device_index(device, optional=True) if device is not None else -1
        self.prev_idx = -1

    def __enter__(self) -> device:
        if self.idx >= 0:
            self.prev_idx = current_device()
            if self.prev_idx != self.idx:
                C.set_device(self.idx)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.idx >= 0 and self.prev_idx != self.idx:
            C.set_device(self.prev_idx)


class device_of(device):
    """``device`` for the device of a tensor (no-op for CPU tensors)."""

    def __init__(self, obj: torch.Tensor) -> None:
        super().__init__(obj.get_device() if obj.device.type == "npu" else None)


class _NPUDeviceProperties:
    """What ``get_device_properties`` returns: torch_npu's fields, each as the simulator reports it.

    ``cube_core_num``, ``vector_core_num`` and ``multi_processor_count`` are the simulated AI
    cores (``ASCEND_SIM_AICORE_NUM``), each with a cube and a vector unit. The simulator has no L2
    cache model, so ``L2_cache_size`` is None; ``major``/``minor`` are None as on torch_npu.
    ``ub_size`` (the unified buffer of one core) is this backend's own.
    """

    def __init__(self, index: int, properties: dict[str, Any]) -> None:
        self.index = index
        self.name: str = properties["name"]
        self.total_memory: int = properties["total_memory"]
        self.cube_core_num: int = properties["cube_core_num"]
        self.vector_core_num: int = properties["vector_core_num"]
        self.multi_processor_count: int = properties["multi_processor_count"]
        self.L2_cache_size: int | None = None
        self.major: int | None = None
        self.minor: int | None = None
        self.ub_size: int = properties["ub_size"]

    def __repr__(self) -> str:
        return (
            f"_NPUDeviceProperties(name='{self.name}', total_memory={self.total_memory >> 20}MB, "
            f"cube_core_num={self.cube_core_num}, vector_core_num={self.vector_core_num}, "
            f"L2_cache_size={self.L2_cache_size})"
        )


def get_device_properties(device: DeviceLike = None) -> _NPUDeviceProperties:
    """Name (``aclrtGetSocName``), total memory (``ASCEND_SIM_MEMORY_MB``) and core counts of a simulated device."""
    _lazy_init()
    index = _get_device_index(device)
    return _NPUDeviceProperties(index, C.device_properties(index))


def get_device_name(device: DeviceLike = None) -> str:
    """The SoC name of the simulated device (``Ascend910B1`` unless ``ASCEND_SIM_SOC_NAME`` names another part)."""
    return get_device_properties(device).name


def _optional_index(device: DeviceLike | None) -> int:
    return -1 if device is None else _get_device_index(device)


def get_device_capability(device: DeviceLike = None) -> tuple[int, int] | None:
    """torch_npu's answer: NPUs have no CUDA compute capability, so ``None``, unless
    ``TORCH_NPU_DEVICE_CAPABILITY="major.minor"`` (e.g. ``"8.0"``) asks code written for CUDA to take a branch.
    An unparsable value warns and gives ``None``."""
    _lazy_init()
    index = _get_device_index(device)
    if not 0 <= index < device_count():
        raise ValueError(f"get_device_capability: npu:{index} does not exist ({device_count()} devices)")
    value = os.environ.get("TORCH_NPU_DEVICE_CAPABILITY", "")
    if not value:
        return None
    match = re.fullmatch(r"(\d+)\.(\d+)", value.strip())
    if match is None:
        warnings.warn(
            f"get_device_capability: TORCH_NPU_DEVICE_CAPABILITY={value!r} is not 'major.minor' (e.g. '8.0')",
            stacklevel=2,
        )
        return None
    return int(match.group(1)), int(match.group(2))


# SoC families whose cube and vector units compute in bfloat16.
_BF16_SOC_PREFIXES = ("Ascend910B", "Ascend910_93", "Ascend950")


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Whether the current device's SoC computes in bfloat16 (the Ascend 910B family and later; the simulated
    ``Ascend910B`` parts do, in every kernel that lists bfloat16)."""
    del including_emulation  # no emulated bfloat16: the SoC has it or not
    return is_available() and get_device_name().startswith(_BF16_SOC_PREFIXES)


def is_tf32_supported() -> bool:
    """False: TF32 is a CUDA tensor-core format; npu matmuls of float32 compute in float32."""
    return False


def can_device_access_peer(device: DeviceLike, peer_device: DeviceLike) -> bool:
    """Whether ``device`` can read and write ``peer_device``'s memory (``aclrtDeviceCanAccessPeer``): True for two
    distinct simulated devices, False for a device and itself, as ``torch.cuda``."""
    _lazy_init()
    index, peer = _get_device_index(device, optional=False), _get_device_index(peer_device, optional=False)
    for which, value in (("device", index), ("peer_device", peer)):
        if not 0 <= value < device_count():
            raise ValueError(f"can_device_access_peer: {which} npu:{value} does not exist ({device_count()} devices)")
    return C.can_device_access_peer(index, peer)


def utilization(device: DeviceLike = None) -> int:
    """Percent of the last second in which a kernel ran on ``device`` (``aclrtGetDeviceUtilizationRate``: the mean
    of its cube and vector utilization), as ``torch.cuda.utilization``."""
    _lazy_init()
    rates = C.utilization(_get_device_index(device))
    return (rates["cube"] + rates["vector"]) // 2


def device_memory_used(device: DeviceLike = None) -> int:
    """Bytes of ``device``'s memory in use (``aclrtGetMemInfo``: total - free), caching allocator's cache included."""
    _lazy_init()
    free, total = C.mem_get_info(_get_device_index(device))
    return total - free


def is_current_stream_capturing() -> bool:
    """False: stream capture (npu graphs) is not simulated, so no stream is ever capturing."""
    return False


# Half precision works on every npu device (torch.cuda.has_half).
has_half = True
