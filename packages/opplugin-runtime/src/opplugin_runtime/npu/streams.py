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
    """An npu stream. ``torch.npu.Stream()`` takes the next stream of the current (or given)
    device's pool of 32 (round robin, as ``torch.cuda.Stream``), so making and dropping
    streams costs nothing; streams returned by ``current_stream``/``default_stream`` are of
    this type too."""

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

    @property
    def npu_stream(self) -> int:
        """The simulator's ``aclrtStream`` handle (what ``cuda_stream`` is for CUDA)."""
        return C.stream_handle(*self._key())

    def wait_event(self, event: Event) -> None:
        """Makes all work queued on this stream after now wait for ``event`` (on the device)."""
        event.wait(self)

    def wait_stream(self, stream: torch.Stream) -> None:
        """Makes all work queued on this stream after now wait for the work queued on ``stream`` so far."""
        self.wait_event(Stream._wrap(stream).record_event())

    def record_event(self, event: Event | None = None) -> Event:
        """Records ``event`` (a new one when None) on this stream and returns it."""
        event = Event() if event is None else event
        event.record(self)
        return event

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


class Event:
    """An npu event: a marker in a stream's queue, to wait for, query, or time.

    ``enable_timing`` makes ``elapsed_time`` available; ``blocking`` is accepted for
    ``torch.cuda.Event`` compatibility (a simulated host wait is the same either way).
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False) -> None:
        if interprocess:
            raise ValueError("torch.npu.Event: interprocess events are not supported by the simulated npu device")
        _lazy_init()
        self._event = C._NPUEvent(enable_timing, blocking)

    def record(self, stream: torch.Stream | None = None) -> None:
        """Records the event on ``stream`` (default: the current stream)."""
        stream = current_stream() if stream is None else stream
        self._event.record(stream.stream_id, stream.device_index, stream.device_type)

    def wait(self, stream: torch.Stream | None = None) -> None:
        """Makes work queued on ``stream`` (default: the current stream) after now wait for this event."""
        stream = current_stream() if stream is None else stream
        self._event.block(stream.stream_id, stream.device_index, stream.device_type)

    def query(self) -> bool:
        """True when the work before the latest record has completed (or it was never recorded)."""
        return self._event.query()

    def synchronize(self) -> None:
        """Waits on the host for the latest record; raises errors of the work queued before it."""
        self._event.synchronize()

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds between this event's record and ``end_event``'s (both completed, timing enabled)."""
        return self._event.elapsed_time(end_event._event)

    @property
    def device(self) -> torch.device | None:
        index = self._event.device_index
        return None if index < 0 else torch.device("npu", index)

    @property
    def npu_event(self) -> int:
        """The simulator's ``aclrtEvent`` handle (0 before the first record)."""
        return self._event.handle

    def __repr__(self) -> str:
        state = f"device={self.device}" if self.device is not None else "uninitialized"
        return f"torch.npu.Event({state}, enable_timing={self._event.enable_timing})"


class StreamContext:
    """Context manager that makes ``stream`` current (and its device current) and restores
    both on exit; ``None`` makes it a no-op."""

    def __init__(self, stream: torch.Stream | None) -> None:
        self.stream = stream
        self._prev_device = -1
        self._prev_stream: Stream | None = None

    def __enter__(self) -> torch.Stream | None:
        if self.stream is None:
            return None
        _lazy_init()
        self._prev_device = C.current_device()
        self._prev_stream = current_stream(self.stream.device_index)
        set_stream(self.stream)
        if self.stream.device_index != self._prev_device:
            C.set_device(self.stream.device_index)
        return self.stream

    def __exit__(self, *exc: object) -> None:
        if self.stream is None or self._prev_stream is None:
            return
        set_stream(self._prev_stream)
        C.set_device(self._prev_device)


def stream(stream: torch.Stream | None) -> StreamContext:
    """``with torch.npu.stream(s):`` queues the work of the block on ``s``."""
    return StreamContext(stream)
