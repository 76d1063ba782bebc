"""Streams and events as a torch.cuda user writes them: torch.npu.Event, wait_event,
wait_stream, ``with torch.npu.stream(s)``, tensor.record_stream and stream-safe reuse.

A stream is held back with a gate: a host callback (aclrtLaunchCallback) queued on
it that waits until the test opens it, so work queued behind it has provably not
run yet when the test looks.
"""

from __future__ import annotations

import ctypes
import threading

import ascendc_kernels
import pytest
import torch

_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class StreamGate:
    """Blocks `stream`'s queue at the point of construction until `open()`."""

    def __init__(self, stream: torch.npu.Stream) -> None:
        acl = ctypes.CDLL(ascendc_kernels.library_path("ascendcl"))  # the instance _C uses
        acl.aclrtLaunchCallback.argtypes = [_CALLBACK, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
        acl.aclrtLaunchCallback.restype = ctypes.c_int
        self._opened = threading.Event()
        # Bounded, so that a test that forgets to open it fails instead of hanging.
        self._callback = _CALLBACK(lambda _: self._opened.wait(timeout=60))
        assert acl.aclrtLaunchCallback(self._callback, None, 0, ctypes.c_void_p(stream.npu_stream)) == 0

    def open(self) -> None:
        self._opened.set()


def test_event_query_synchronize_and_elapsed_time():
    side = torch.npu.Stream()
    start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
    assert start.query() and start.device is None  # never recorded: complete
    start.record(side)
    gate = StreamGate(side)
    with torch.npu.stream(side):
        y = torch.full((1024,), 4.0, device="npu") * 2  # no host copy: that would wait for the gate
        end.record()
    assert start.device == torch.device("npu:0") and start.npu_event != 0
    assert not end.query()  # behind the gate
    gate.open()
    end.synchronize()
    assert end.query()
    assert start.elapsed_time(end) >= 0.0
    torch.testing.assert_close(y.cpu(), torch.full((1024,), 4.0) * 2)


def test_elapsed_time_needs_timing_events():
    a, b = torch.npu.Event(), torch.npu.Event()
    a.record()
    b.record()
    b.synchronize()
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        a.elapsed_time(b)
    with pytest.raises(ValueError, match="interprocess"):
        torch.npu.Event(interprocess=True)


def test_wait_event_orders_another_stream():
    producer, consumer = torch.npu.Stream(), torch.npu.Stream()
    x = torch.zeros(4096, device="npu")
    torch.npu.synchronize()
    gate = StreamGate(producer)
    with torch.npu.stream(producer):
        x.add_(5.0)  # runs only after the gate opens
        done = producer.record_event()
    assert isinstance(done, torch.npu.Event)
    consumer.wait_event(done)
    with torch.npu.stream(consumer):
        y = x * 3  # must see x == 5
    assert not consumer.query()  # waiting for the producer
    gate.open()
    consumer.synchronize()
    torch.testing.assert_close(y.cpu(), torch.full((4096,), 5.0) * 3)


def test_wait_stream():
    producer, consumer = torch.npu.Stream(), torch.npu.Stream()
    x = torch.ones(256, device="npu")
    torch.npu.synchronize()
    gate = StreamGate(producer)
    with torch.npu.stream(producer):
        x.mul_(7.0)
    consumer.wait_stream(producer)
    with torch.npu.stream(consumer):
        y = x.abs() + 1
    gate.open()
    consumer.synchronize()
    torch.testing.assert_close(y.cpu(), torch.ones(256) * 7 + 1)


def test_stream_context_manager_sets_and_restores_stream_and_device():
    default0 = torch.npu.current_stream()
    side1 = torch.npu.Stream("npu:1")
    with torch.npu.stream(side1) as entered:
        assert entered is side1
        assert torch.npu.current_device() == 1
        assert torch.npu.current_stream() == side1
        y = torch.full((8,), 2.0, device="npu") + 1
    assert torch.npu.current_device() == 0
    assert torch.npu.current_stream() == default0
    assert torch.npu.current_stream(1) == torch.npu.default_stream(1)
    assert y.device == torch.device("npu:1")
    torch.testing.assert_close(y.cpu(), torch.full((8,), 3.0))
    with torch.npu.stream(None):  # a no-op, as in torch.cuda
        assert torch.npu.current_stream() == default0
    assert isinstance(torch.npu.StreamContext(None), torch.npu.StreamContext)


# 4 MiB: a large-pool block that is a whole segment, so the reuse is unambiguous.
_LARGE = 1 << 20


def test_record_stream_defers_reuse_until_the_other_stream_is_done():
    torch.npu.synchronize()
    torch.npu.empty_cache()
    side = torch.npu.Stream()
    x = torch.full((_LARGE,), 3.0, device="npu")  # allocated on the default stream
    gate = StreamGate(side)
    with torch.npu.stream(side):
        y = x * 2  # queued behind the gate: reads x later
    x.record_stream(side)
    freed_ptr = x.data_ptr()
    del x
    z = torch.empty(_LARGE, device="npu")  # same size, same (default) stream
    assert z.data_ptr() != freed_ptr
    z.fill_(-1.0)
    torch.npu.current_stream().synchronize()
    assert not side.query()
    gate.open()
    side.synchronize()
    torch.testing.assert_close(y.cpu(), torch.full((_LARGE,), 6.0))
    # Once the side stream passed its uses, the block is handed out again.
    w = torch.empty(_LARGE, device="npu")
    assert w.data_ptr() == freed_ptr


def test_without_record_stream_the_block_is_reused_at_once():
    """The hazard record_stream exists for: the freed block goes straight back to the
    default stream, whose next user overwrites what the side stream has yet to read."""
    torch.npu.synchronize()
    torch.npu.empty_cache()
    side = torch.npu.Stream()
    x = torch.full((_LARGE,), 3.0, device="npu")
    gate = StreamGate(side)
    with torch.npu.stream(side):
        y = x * 2
    freed_ptr = x.data_ptr()
    del x
    z = torch.empty(_LARGE, device="npu")
    assert z.data_ptr() == freed_ptr
    z.fill_(-1.0)
    torch.npu.current_stream().synchronize()
    gate.open()
    side.synchronize()
    torch.testing.assert_close(y.cpu(), torch.full((_LARGE,), -2.0))


def test_record_stream_checks_the_stream_device():
    x = torch.ones(4, device="npu:0")
    with pytest.raises(RuntimeError, match="record_stream"):
        x.record_stream(torch.npu.Stream("npu:1"))


@pytest.mark.skipif(not hasattr(torch, "Event"), reason="torch.Event is absent on this torch (2.1)")
def test_generic_torch_event_and_npu_stream_interoperate():
    side = torch.npu.Stream()
    x = torch.zeros(64, device="npu")
    torch.npu.synchronize()
    gate = StreamGate(side)
    with torch.npu.stream(side):
        x.add_(2.0)
    event = torch.Event(device="npu")
    event.record(side)
    assert not event.query()
    torch.npu.current_stream().wait_event(event)  # a torch.Event works with torch.npu.Stream
    y = x + 1
    gate.open()
    event.synchronize()
    torch.testing.assert_close(y.cpu(), torch.full((64,), 3.0))


def test_a_miss_takes_a_completed_free_segment_of_another_stream():
    """Caches are per stream, but a whole free segment whose last use has completed
    moves to the stream that misses instead of a new segment being allocated."""
    torch.npu.synchronize()
    torch.npu.empty_cache()
    side = torch.npu.Stream()
    with torch.npu.stream(side):
        x = torch.full((_LARGE,), 3.0, device="npu")
        y = x * 2
    del x  # x (and the temporaries of x * 2) free in the side stream's cache
    side.synchronize()  # their last uses have completed
    reserved = torch.npu.memory_reserved()
    mallocs = torch.npu.memory_stats()["num_device_alloc"]
    z = torch.full((_LARGE,), -1.0, device="npu")  # the default stream's cache is empty
    assert torch.npu.memory_stats()["num_device_alloc"] == mallocs
    assert torch.npu.memory_reserved() == reserved
    torch.testing.assert_close(y.cpu(), torch.full((_LARGE,), 6.0))
    torch.testing.assert_close(z.cpu(), torch.full((_LARGE,), -1.0))


def test_a_free_segment_with_queued_work_is_neither_taken_nor_released():
    torch.npu.synchronize()
    torch.npu.empty_cache()
    side = torch.npu.Stream()
    gate = StreamGate(side)
    with torch.npu.stream(side):
        x = torch.full((_LARGE,), 3.0, device="npu")  # queued behind the gate
        y = x * 2
    del x  # whole free segments of the side stream whose uses have not run yet
    stats = torch.npu.memory_stats()
    z = torch.empty(_LARGE, device="npu")  # default stream: may not take one of them
    big = torch.empty(4 * _LARGE, device="npu")  # another miss: they stay cached
    after = torch.npu.memory_stats()
    assert after["num_device_alloc"] == stats["num_device_alloc"] + 2
    assert after["num_device_free"] == stats["num_device_free"]
    z.fill_(-1.0)
    gate.open()
    side.synchronize()
    torch.testing.assert_close(y.cpu(), torch.full((_LARGE,), 6.0))
    torch.testing.assert_close(z.cpu(), torch.full((_LARGE,), -1.0))
    # Once the side stream is done, the next miss takes one of them.
    w = torch.empty(_LARGE, device="npu")
    assert torch.npu.memory_stats()["num_device_alloc"] == after["num_device_alloc"]
    del big, w


def test_ten_thousand_streams_and_events_leave_threads_memory_and_rss_at_baseline(run_python):
    """Streams come from the device's pool and events are destroyed with their last
    reference; the simulator stops idle stream workers, so making, using and dropping
    10,000 of each ends where it began (threads, reserved device memory, RSS)."""
    result = run_python(
        """
        import gc, os, time
        import torch, opplugin_runtime

        def threads():
            return len(os.listdir("/proc/self/task"))

        def rss_mib():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

        def cycles(n):
            for i in range(n):
                stream = torch.npu.Stream(device=i % 2)
                event = torch.npu.Event()
                with torch.npu.stream(stream):
                    y = torch.ones(256, device=stream.device) + 1
                    event.record(stream)
                event.synchronize()
                assert i % 1000 or y.sum().item() == 512
                del stream, event, y

        def settle():
            gc.collect()
            for d in range(2):
                torch.npu.synchronize(d)
            torch.npu.empty_cache()
            time.sleep(0.6)  # idle stream workers exit after 200 ms

        cycles(200)          # warm-up: pools, allocator segments, first-use caches
        settle()
        base = (threads(), [torch.npu.memory_reserved(d) for d in range(2)], rss_mib())
        cycles(10_000)
        settle()
        after = (threads(), [torch.npu.memory_reserved(d) for d in range(2)], rss_mib())
        print(base[0], after[0], base[1], after[1], round(after[2] - base[2], 1))
        assert after[0] <= base[0], ("threads", base[0], after[0])
        assert after[1] == base[1], ("reserved", base[1], after[1])
        if "libasan" not in os.environ.get("LD_PRELOAD", ""):  # ASan's quarantine keeps freed memory
            assert after[2] - base[2] < 16, ("rss grew by MiB", after[2] - base[2])
        """,
    )
    assert result.returncode == 0, result.stdout + result.stderr
