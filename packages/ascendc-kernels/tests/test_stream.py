"""Streams: asynchronous in-order execution, callbacks, synchronisation, launch blocking."""

from __future__ import annotations

import ctypes
import subprocess
import sys
import textwrap
import threading

import ascendc_kernels_testing as sim
import numpy as np


def add_async(x, y, out, stream):
    rc = sim.run_aclnn("aclnnAdd", x.tensor(), y.tensor(), sim.Scalar(1), out.tensor(), stream=stream)
    sim.check(rc)


def test_work_runs_off_the_calling_thread_after_a_blocking_callback(acl, stream):
    released = threading.Event()
    entered = threading.Event()

    @sim.CALLBACK
    def wait_for_host(_):
        entered.set()
        released.wait(10)

    x = sim.DeviceArray.from_numpy(np.ones(1000, dtype=np.float32))
    out = sim.DeviceArray.from_numpy(np.zeros(1000, dtype=np.float32))
    sim.check(acl.aclrtLaunchCallback(wait_for_host, None, 1, stream))
    # Enqueue without synchronising (no workspace needed: dense float32 inputs).
    rc, size, executor = sim.aclnn_workspace("aclnnAdd", x.tensor(), x.tensor(), sim.Scalar(1.0), out.tensor())
    sim.check(rc)
    assert size == 0
    sim.check(acl.opapi.aclnnAdd(None, 0, executor, stream))
    assert entered.wait(10)
    assert sim.stream_status(stream) == sim.ACL_STREAM_STATUS_NOT_READY
    assert (out.peek() == 0).all()  # the kernel has not run: the callback holds the stream
    released.set()
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert sim.stream_status(stream) == sim.ACL_STREAM_STATUS_COMPLETE
    assert (out.peek() == 2).all()


def test_many_launches_run_in_order(acl, stream):
    acc = sim.DeviceArray.from_numpy(np.zeros(4096, dtype=np.int64))
    one = sim.DeviceArray.from_numpy(np.ones(4096, dtype=np.int64))
    for _ in range(200):
        sim.check(sim.run_aclnn("aclnnInplaceAdd", acc.tensor(), one.tensor(), sim.Scalar(1), stream=stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert (acc.to_numpy() == 200).all()


def test_callbacks_run_in_stream_order(acl, stream):
    order = []
    callbacks = [sim.CALLBACK(lambda _, i=i: order.append(i)) for i in range(20)]
    for cb in callbacks:
        sim.check(acl.aclrtLaunchCallback(cb, None, 0, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert order == list(range(20))


def test_synchronous_memcpy_waits_for_queued_work(acl, stream):
    x = sim.DeviceArray.from_numpy(np.full(50000, 3, dtype=np.int32))
    out = sim.DeviceArray.empty(x.shape, sim.ACL_INT32)
    add_async(x, x, out, stream)
    assert (out.to_numpy() == 6).all()  # aclrtMemcpy D2H waits for the device's streams


def test_default_stream_is_the_null_handle(acl):
    assert acl.aclrtStreamGetDevice(None) == 0
    x = sim.DeviceArray.from_numpy(np.arange(10, dtype=np.int64))
    out = sim.DeviceArray.empty(x.shape, sim.ACL_INT64)
    add_async(x, x, out, None)
    sim.check(acl.aclrtSynchronizeStream(None))
    np.testing.assert_array_equal(out.peek(), 2 * np.arange(10))


def test_work_on_the_second_device(acl):
    sim.check(acl.aclrtSetDevice(1))
    x = sim.DeviceArray.from_numpy(np.arange(100_000, dtype=np.float32))
    assert acl.aclrtPointerGetDevice(x.ptr) == 1
    out = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    add_async(x, x, out, None)  # device 1's default stream
    sim.check(acl.aclrtSynchronizeDevice())
    np.testing.assert_array_equal(out.to_numpy(), 2 * np.arange(100_000, dtype=np.float32))
    sim.check(acl.aclrtSetDevice(0))


def test_stream_handles_are_checked(acl):
    handle = ctypes.c_void_p()
    sim.check(acl.aclrtCreateStream(ctypes.byref(handle)))
    sim.check(acl.aclrtDestroyStream(handle.value))
    assert acl.aclrtDestroyStream(handle.value) == sim.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert "not a live stream" in sim.recent_error()
    status = ctypes.c_int(-1)
    assert acl.aclrtStreamQuery(handle.value, ctypes.byref(status)) == sim.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert acl.aclrtStreamQuery(None, None) == sim.ACL_ERROR_INVALID_PARAM
    assert "aclrtStreamQuery: status is null" in sim.recent_error()


def test_streams_belong_to_the_current_device(acl):
    sim.check(acl.aclrtSetDevice(1))
    handle = ctypes.c_void_p()
    sim.check(acl.aclrtCreateStream(ctypes.byref(handle)))
    sim.check(acl.aclrtSetDevice(0))
    assert acl.aclrtStreamGetDevice(handle.value) == 1
    sim.check(acl.aclrtDestroyStream(handle.value))


def test_launch_on_a_stream_of_another_device_is_rejected(acl):
    x = sim.DeviceArray.from_numpy(np.ones(8, dtype=np.float32))
    sim.check(acl.aclrtSetDevice(1))
    handle = ctypes.c_void_p()
    sim.check(acl.aclrtCreateStream(ctypes.byref(handle)))
    sim.check(acl.aclrtSetDevice(0))
    rc = sim.run_aclnn("aclnnAdd", x.tensor(), x.tensor(), sim.Scalar(1.0), x.tensor(), stream=handle.value)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnAdd: self is on device 0 but the stream belongs to device 1" in sim.recent_error()
    sim.check(acl.aclrtDestroyStream(handle.value))


LAUNCH_BLOCKING_SCRIPT = textwrap.dedent("""
    import threading
    import numpy as np
    import ascendc_kernels_testing as sim
    acl = sim.load()
    ran_on = []
    cb = sim.CALLBACK(lambda _: ran_on.append(threading.get_ident()))
    sim.check(acl.aclrtLaunchCallback(cb, None, 0, None))
    assert ran_on == [threading.get_ident()], ran_on  # ran synchronously, on this thread
    x = sim.DeviceArray.from_numpy(np.arange(100, dtype=np.float32))
    out = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    rc, size, executor = sim.aclnn_workspace("aclnnAdd", x.tensor(), x.tensor(), sim.Scalar(1.0), out.tensor())
    sim.check(acl.opapi.aclnnAdd(None, 0, executor, None))
    assert sim.stream_status(None) == sim.ACL_STREAM_STATUS_COMPLETE
    assert (out.peek() == 2 * np.arange(100)).all()  # written before the launch returned
    # a failing kernel fails its launch call (nothing is left pending)
    tiny = sim.DeviceArray.from_numpy(np.ones(1000, dtype=np.float64))
    rc = sim.run_aclnn("aclnnAdd", tiny.tensor(), tiny.tensor(), sim.Scalar(1.0), tiny.tensor())
    assert rc == sim.ACLNN_ERR_RUNTIME_ERROR, rc
    assert "kernel 'add_custom' (launched by aclnnAdd) failed: TPipe::InitBuffer" in sim.recent_error()
    assert acl.aclrtSynchronizeStream(None) == 0
    print("blocking ok")
""")


def test_launch_blocking_runs_every_enqueue_synchronously():
    # A 1 KiB unified buffer fits add_custom's smallest float32 tiles but not float64 ones.
    env = dict(__import__("os").environ, ASCEND_LAUNCH_BLOCKING="1", ASCEND_SIM_UB_SIZE="1024")
    result = subprocess.run(
        [sys.executable, "-c", LAUNCH_BLOCKING_SCRIPT], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "blocking ok" in result.stdout


def free_device_bytes(acl) -> int:
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    sim.check(acl.aclrtGetMemInfo(sim.ACL_HBM_MEM, ctypes.byref(free), ctypes.byref(total)))
    return free.value


def test_free_does_not_wait_for_queued_work_and_keeps_its_bytes_for_it(acl, stream):
    """aclrtFree of memory that queued work still reads returns at once (the host does not
    wait for the device) and the queued work still sees the bytes."""
    released = threading.Event()

    @sim.CALLBACK
    def wait_for_host(_):
        released.wait(30)

    x = sim.DeviceArray.from_numpy(np.full(4096, 3.0, dtype=np.float32))
    out = sim.DeviceArray.from_numpy(np.zeros(4096, dtype=np.float32))
    sim.check(acl.aclrtLaunchCallback(wait_for_host, None, 1, stream))
    add_async(x, x, out, stream)  # queued behind the callback: reads x later
    free_before = free_device_bytes(acl)
    x.free()  # returns while the stream is still held
    assert sim.stream_status(stream) == sim.ACL_STREAM_STATUS_NOT_READY
    assert not released.is_set()
    assert free_device_bytes(acl) > free_before  # the allocation is gone already
    released.set()
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert (out.peek() == 6).all()


def _stream_worker_threads() -> int:
    import os

    names = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as f:
                names.append(f.read().strip())
        except FileNotFoundError:  # the thread ended while we listed
            pass
    return names.count("aclsim_stream")


def _wait_for(condition, seconds: float) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_an_idle_stream_releases_its_worker_thread_and_a_new_launch_starts_one(acl):
    acc = sim.DeviceArray.from_numpy(np.zeros(64, dtype=np.int64))
    one = sim.DeviceArray.from_numpy(np.ones(64, dtype=np.int64))
    streams = []
    for _ in range(4):
        s = ctypes.c_void_p()
        sim.check(acl.aclrtCreateStream(ctypes.byref(s)))
        streams.append(s.value)
    try:
        assert _wait_for(lambda: _stream_worker_threads() == 0, 5)  # earlier tests' workers idled out
        for s in streams:
            sim.check(sim.run_aclnn("aclnnInplaceAdd", acc.tensor(), one.tensor(), sim.Scalar(1), stream=s))
            sim.check(acl.aclrtSynchronizeStream(s))
        assert _wait_for(lambda: _stream_worker_threads() == 0, 5), "idle stream workers kept their threads"
        # The streams still work: the next launch starts a worker again, and runs.
        sim.check(sim.run_aclnn("aclnnInplaceAdd", acc.tensor(), one.tensor(), sim.Scalar(1), stream=streams[0]))
        sim.check(acl.aclrtSynchronizeStream(streams[0]))
        assert (acc.peek() == 5).all()
    finally:
        for s in streams:
            sim.check(acl.aclrtDestroyStream(s))
