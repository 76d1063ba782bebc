"""Per-device random generators: Philox (seed, offset) states used by the device random kernels (NPUGenerator.h)."""

from __future__ import annotations

from collections.abc import Iterable

import torch

from ._C import C
from .device import DeviceLike, _get_device_index, device_count
from .lazy_init import _lazy_init


def default_generator(device: DeviceLike = None) -> torch.Generator:
    _lazy_init()
    return C.default_generator(_get_device_index(device))


def manual_seed(seed: int) -> None:
    default_generator().manual_seed(int(seed))


def manual_seed_all(seed: int) -> None:
    for index in range(device_count()):
        default_generator(index).manual_seed(int(seed))


def seed() -> None:
    default_generator().seed()


def seed_all() -> None:
    first = default_generator(0)
    first.seed()
    for index in range(1, device_count()):
        default_generator(index).manual_seed(first.initial_seed())


def initial_seed() -> int:
    return default_generator().initial_seed()


def get_rng_state(device: DeviceLike = "npu") -> torch.Tensor:
    return default_generator(device).get_state()


def set_rng_state(new_state: torch.Tensor, device: DeviceLike = "npu") -> None:
    default_generator(device).set_state(new_state.clone().cpu())


def get_rng_state_all() -> list[torch.Tensor]:
    return [get_rng_state(index) for index in range(device_count())]


def set_rng_state_all(new_states: Iterable[torch.Tensor]) -> None:
    for index, state in enumerate(new_states):
        set_rng_state(state, index)

