"""Streams: the calling thread's current stream per device (as torch.Stream objects)."""

from __future__ import annotations

import torch

from ._C import C
from .device import DeviceLike, _optional_index
from .lazy_init import _lazy_init


def current_stream(device: DeviceLike = None) -> torch.Stream:
    _lazy_init()
    return C.current_stream(_optional_index(device))


def default_stream(device: DeviceLike = None) -> torch.Stream:
    _lazy_init()
    return C.default_stream(_optional_index(device))


def set_stream(stream: torch.Stream) -> None:
    _lazy_init()
    C.set_stream(stream)
