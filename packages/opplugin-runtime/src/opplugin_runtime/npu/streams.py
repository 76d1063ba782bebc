"""Streams: the calling thread's current stream per device, and ``torch.npu.Stream``.

``torch.npu.Stream`` is a ``torch.Stream`` whose ``query``, ``synchronize`` and ``==`` go
straight to the runtime. torch.Stream itself gained device-generic versions of them
(through the device guard) only in later releases: on torch 2.1 it is a bare record of
(id, device index, device type) with identity equality, so code written against
``torch.npu.Stream`` works on every supported torch.
"""

from __future__ import annotations

from typing import Any

import torch

from ._C import C
from .device import DeviceLike, _optional_index
from .lazy_init import _lazy_init


class Stream(torch.Stream):
    """An npu stream. ``torch.npu.Stream()`` creates a new one on the current (or given)
    device; streams returned by ``current_stream``/``default_stream`` are of this type too."""

    def __new__(cls, device: DeviceLike = None, priority: int = 0, **existing: Any) -> Stream:
        if existing:  # wrap an existing stream: stream_id, device_index, device_type
            return super().__new__(cls, **existing)
        _lazy_init()
        stream_id, device_index, device_type = C.new_stream(_optional_index(device))
        return super().__new__(cls, stream_id=stream_id, device_index=device_index, device_type=device_type)

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # everything happened in __new__
        pass

    @classmethod
    def _wrap(cls, stream: torch.Stream) -> Stream:
        return cls(stream_id=stream.stream_id, device_index=stream.device_index, device_type=stream.device_type)

    def _key(self) -> tuple[int, int, int]:
        return (self.stream_id, self.device_index, self.device_type)

    def query(self) -> bool:
        """True when all work queued on the stream has completed."""
        return C.query_stream(*self._key())

    def synchronize(self) -> None:
        """Wait for all work queued on the stream."""
        C.synchronize_stream(*self._key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, torch.Stream):
            return NotImplemented
        return self._key() == (other.stream_id, other.device_index, other.device_type)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"torch.npu.Stream(device={self.device}, stream_id={self.stream_id})"


def current_stream(device: DeviceLike = None) -> Stream:
    _lazy_init()
    return Stream._wrap(C.current_stream(_optional_index(device)))


def default_stream(device: DeviceLike = None) -> Stream:
    _lazy_init()
    return Stream._wrap(C.default_stream(_optional_index(device)))


def set_stream(stream: torch.Stream) -> None:
    _lazy_init()
    C.set_stream(stream.stream_id, stream.device_index, stream.device_type)
