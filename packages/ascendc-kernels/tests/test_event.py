"""Events: record, query, synchronize, elapsed time, cross-stream waits."""

from __future__ import annotations

import ctypes
import threading

import ascendc_kernels_testing as sim
import numpy as np


def create_event(acl, flags=None) -> int:
    handle = ctypes.c_void_p()
    if flags is None:
        sim.check(acl.aclrtCreateEvent(ctypes.byref(handle)))
    else:
        sim.check(acl.aclrtCreateEventWithFlag(ctypes.byref(handle), flags))
    return handle.value


def status(acl, event) -> int:
    value = ctypes.c_int()
    sim.check(acl.aclrtQueryEventStatus(event, ctypes.byref(value)))
    return value.value


def test_elapsed_time_between_two_records(acl, stream):
    start, end = create_event(acl), create_event(acl)
    x = sim.DeviceArray.from_numpy(np.ones(200000, dtype=np.float32))
    sim.check(acl.aclrtRecordEvent(start, stream))
    sim.check(sim.run_aclnn("aclnnMul", x.tensor(), x.tensor(), x.tensor(), stream=stream))
    sim.check(acl.aclrtRecordEvent(end, stream))
    sim.check(acl.aclrtSynchronizeEvent(end))
    ms = ctypes.c_float()
    sim.check(acl.aclrtEventElapsedTime(ctypes.byref(ms), start, end))
    assert ms.value >= 0.0
    sim.check(acl.aclrtDestroyEvent(start))
    sim.check(acl.aclrtDestroyEvent(end))


def test_query_reflects_completion(acl, stream):
    gate = threading.Event()
    cb = sim.CALLBACK(lambda _: gate.wait(10))
    event = create_event(acl)
    assert status(acl, event) == 1  # never recorded: complete
    sim.check(acl.aclrtLaunchCallback(cb, None, 1, stream))
    sim.check(acl.aclrtRecordEvent(event, stream))
    assert status(acl, event) == 0
    gate.set()
    sim.check(acl.aclrtSynchronizeEvent(event))
    assert status(acl, event) == 1
    sim.check(acl.aclrtDestroyEvent(event))


def test_elapsed_time_needs_timeline_events_that_completed(acl, stream):
    plain = create_event(acl, sim.ACL_EVENT_SYNC)
    timed = create_event(acl, sim.ACL_EVENT_TIME_LINE)
    ms = ctypes.c_float()
    sim.check(acl.aclrtRecordEvent(plain, stream))
    sim.check(acl.aclrtRecordEvent(timed, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert acl.aclrtEventElapsedTime(ctypes.byref(ms), plain, timed) == sim.ACL_ERROR_INVALID_PARAM
    assert "ACL_EVENT_TIME_LINE" in sim.recent_error()
    never = create_event(acl)
    assert acl.aclrtEventElapsedTime(ctypes.byref(ms), timed, never) == sim.ACL_ERROR_RT_EVENT_NOT_COMPLETE
    for e in (plain, timed, never):
        sim.check(acl.aclrtDestroyEvent(e))


def test_stream_wait_event_orders_two_streams(acl, stream):
    other = ctypes.c_void_p()
    sim.check(acl.aclrtCreateStream(ctypes.byref(other)))
    gate = threading.Event()
    cb = sim.CALLBACK(lambda _: gate.wait(10))
    x = sim.DeviceArray.from_numpy(np.full(1000, 5, dtype=np.int32))
    y = sim.DeviceArray.from_numpy(np.zeros(1000, dtype=np.int32))
    event = create_event(acl)
    # stream: wait for the gate, then x *= 2, record; other: wait for the record, then y = x.
    sim.check(acl.aclrtLaunchCallback(cb, None, 1, stream))
    sim.check(sim.run_aclnn("aclnnInplaceAdd", x.tensor(), x.tensor(), sim.Scalar(1), stream=stream))
    sim.check(acl.aclrtRecordEvent(event, stream))
    sim.check(acl.aclrtStreamWaitEvent(other.value, event))
    sim.check(sim.run_aclnn("aclnnInplaceCopy", y.tensor(), x.tensor(), stream=other.value))
    assert sim.stream_status(other.value) == sim.ACL_STREAM_STATUS_NOT_READY
    gate.set()
    sim.check(acl.aclrtSynchronizeStream(other.value))
    assert (y.peek() == 10).all()
    sim.check(acl.aclrtDestroyEvent(event))
    sim.check(acl.aclrtDestroyStream(other.value))


def test_destroyed_event_handle_is_rejected(acl):
    event = create_event(acl)
    sim.check(acl.aclrtDestroyEvent(event))
    assert acl.aclrtSynchronizeEvent(event) == sim.ACL_ERROR_INVALID_RESOURCE_HANDLE
