"""``torch_npu.testing.common_utils``: the same input on the CPU and on the npu, the check that a
profile ran the expected operators, and the skip decorators of upstream's operator tests."""

from __future__ import annotations

import functools
import os
import unittest
import warnings
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import product
from typing import Any, Callable

import numpy as np
import torch

import torch_npu


def get_npu_device() -> str:
    """The device the tests run on: ``npu:<SET_NPU_DEVICE>``, ``npu:0`` when it is not set."""
    index = os.environ.get("SET_NPU_DEVICE")
    return "npu:0" if index is None else f"npu:{index}"


def set_npu_device() -> str:
    """Makes the test device current and returns it."""
    device = get_npu_device()
    torch.npu.set_device(device)
    return device


def is_iterable(obj: Any) -> bool:
    try:
        iter(obj)
    except TypeError:
        return False
    return True


def iter_indices(tensor: torch.Tensor) -> Iterable[Any]:
    """Every index of ``tensor``'s elements (ints for 1-d, tuples beyond; none for a 0-d tensor)."""
    if tensor.dim() == 0:
        return range(0)
    if tensor.dim() == 1:
        return range(tensor.size(0))
    return product(*(range(size) for size in tensor.size()))


@contextmanager
def freeze_rng_state() -> Iterator[None]:
    """Restores the CPU generator's state on exit."""
    state = torch.get_rng_state()
    try:
        yield
    finally:
        torch.set_rng_state(state)


def _on_npu(values: np.ndarray | torch.Tensor, device: str | None, npu_format: int) -> torch.Tensor:
    tensor = (torch.from_numpy(values) if isinstance(values, np.ndarray) else values).to(device or get_npu_device())
    if npu_format != -1:
        tensor = torch_npu.npu_format_cast(tensor, npu_format)
    return tensor


def create_common_tensor(item: Sequence[Any], minValue: float, maxValue: float,
                         device: str | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """``(cpu, npu)``: the same values, drawn uniformly from [minValue, maxValue), on both devices.

    ``item`` is ``[numpy dtype, npu format, shape]``; the npu tensor is cast to that format with
    ``npu_format_cast`` unless it is -1 (keep the base format).
    """
    dtype, npu_format, shape = item[0], item[1], item[2]
    values = np.random.uniform(minValue, maxValue, shape).astype(dtype)
    return torch.from_numpy(values), _on_npu(values, device, npu_format)


def create_dtype_tensor(shape: Sequence[int] | int, dtype: torch.dtype, npu_format: int = -1, min_value: float = -5,
                        max_value: float = 5, no_zero: bool = False,
                        device: str | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """``(cpu, npu)`` tensors of ``dtype`` with the same values: random bools; uniform values in
    [min_value, max_value) for floating dtypes; integers in [min_value, max_value] otherwise.
    ``no_zero`` turns zeros into ones (divisors); ``npu_format`` applies to floating dtypes only."""
    if dtype == torch.bool:
        cpu = torch.from_numpy(np.random.randint(0, 2, size=shape).astype(np.bool_))
    elif dtype.is_floating_point:
        cpu = torch.from_numpy(np.random.uniform(min_value, max_value, shape)).to(dtype)
    else:
        cpu = torch.from_numpy(np.random.randint(int(min_value), int(max_value) + 1, size=shape)).to(dtype)
    if no_zero:
        cpu = torch.where(cpu == 0, torch.ones_like(cpu), cpu)
    return cpu, _on_npu(cpu, device, npu_format if dtype.is_floating_point else -1)


def _broadcast_cases() -> Iterator[tuple[np.ndarray, np.ndarray]]:
    yield np.random.rand(2, 3, 4, 5).astype(np.float32), np.random.rand(1, 1, 1).astype(np.float32)  # size-1 dims
    yield np.random.rand(2, 3, 4, 5).astype(np.float32), np.random.rand(4, 5).astype(np.float32)  # trailing dims


def test_2args_broadcast(fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> list[list[np.ndarray]]:
    """``[[cpu result, npu result], ...]`` of ``fn`` over broadcasting float32 operand pairs."""
    results = []
    for x, y in _broadcast_cases():
        cpu = fn(torch.from_numpy(x), torch.from_numpy(y)).numpy()
        npu = fn(_on_npu(x, None, -1), _on_npu(y, None, -1)).cpu().numpy()
        results.append([cpu, npu])
    return results


test_2args_broadcast.__test__ = False  # a helper, not a test, when a test module imports it under pytest


def _profiled_names(prof: Any) -> set[str]:
    """The operator names of a profile: each event key (``npu::add.Tensor``, the runtime's range of
    the npu op; ``aten::add``, the dispatcher's; a kernel's name with device activity), also without
    its ``npu::`` prefix, and with torch_npu's ``cached_`` prefix dropped."""
    names = set()
    for event in prof.key_averages():
        key = event.key.replace("cached_", "")
        names.add(key)
        if key.startswith("npu::"):
            names.add(key[len("npu::"):])
    return names


def check_operators_in_prof(expected_operators: Iterable[str], prof: Any,
                            unexpected_operators: Iterable[str] | None = None) -> bool:
    """True when the profile ``prof`` (``torch.profiler.profile`` or ``torch.autograd.profiler.profile``)
    ran every operator of ``expected_operators`` and none of ``unexpected_operators``.

    An operator is named as the profile names it: ``npu::add.Tensor`` or ``add.Tensor`` (the npu op
    the runtime ran), ``aten::add``, or a kernel name when device activity was recorded.
    """
    if not prof.key_averages():
        warnings.warn("check_operators_in_prof: the profile is empty (was the code run inside it?)", stacklevel=2)
        return False
    names = _profiled_names(prof)
    if any(name in names for name in unexpected_operators or ()):
        return False
    return all(name in names for name in expected_operators)


def _device_family(soc_name: str) -> str:
    """The SoC family upstream's tests name in ``SupportedDevices``: ``Ascend910B`` for
    ``Ascend910B3`` (the simulator's ``Ascend910B1``), ``Ascend910_93`` for ``Ascend910_9391``,
    ``Ascend950`` for every Ascend950."""
    if soc_name.startswith("Ascend950"):
        return "Ascend950"
    if soc_name.startswith("Ascend910_"):
        return soc_name[:12]
    return soc_name[:10]


class SupportedDevices:
    """Runs the decorated test only on the named SoC families (``@SupportedDevices(['Ascend910B'])``)
    and skips it elsewhere, naming the device."""

    def __init__(self, supported_devices: Sequence[str]) -> None:
        self.supported_devices = list(supported_devices)

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run_if_supported(*args: Any, **kwargs: Any) -> Any:
            family = _device_family(torch.npu.get_device_name(0))
            if family not in self.supported_devices:
                raise unittest.SkipTest(f"runs only on {self.supported_devices}; this device is {family}")
            return fn(*args, **kwargs)

        return run_if_supported


class SkipIfNotGteCANNVersion:
    """Runs the decorated test only when the toolkit's ``module`` is ``base_version`` or newer
    (``@SkipIfNotGteCANNVersion("8.3.RC1")``); the simulator reports ``NPU_SIM_CANN_VERSION``."""

    def __init__(self, base_version: str, module: str = "CANN") -> None:
        self.base_version = base_version
        self.module = module

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run_if_new_enough(*args: Any, **kwargs: Any) -> Any:
            if not torch_npu.npu.utils._is_gte_cann_version(self.base_version, module=self.module):
                current = torch_npu.utils.get_cann_version(module=self.module) or "unknown"
                raise unittest.SkipTest(f"needs {self.module} {self.base_version} or newer; this toolkit has {current}")
            return fn(*args, **kwargs)

        return run_if_new_enough


__all__ = [
    "SkipIfNotGteCANNVersion",
    "SupportedDevices",
    "check_operators_in_prof",
    "create_common_tensor",
    "create_dtype_tensor",
    "freeze_rng_state",
    "get_npu_device",
    "is_iterable",
    "iter_indices",
    "set_npu_device",
    "test_2args_broadcast",
]
