"""Kernel execution records (ascendc_sim/prof.h): recorded only while recording is on,
with the kernel's name, launching API, device, stream, executing thread, correlation id
and a start/end time taken on the thread that ran it."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np


class KernelRecord(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 64),
        ("origin", ctypes.c_char * 64),
        ("deviceId", ctypes.c_int32),
        ("blockDim", ctypes.c_uint32),
        ("stream", ctypes.c_uint64),
        ("threadId", ctypes.c_uint64),
        ("correlationId", ctypes.c_uint64),
        ("startNs", ctypes.c_int64),
        ("endNs", ctypes.c_int64),
    ]


def _prof(acl):
    lib = acl.acl
    lib.aclsimProfTakeRecords.restype = ctypes.c_size_t
    lib.aclsimProfTakeRecords.argtypes = [ctypes.POINTER(KernelRecord), ctypes.c_size_t]
    lib.aclsimProfSetCorrelationId.restype = ctypes.c_uint64
    lib.aclsimProfSetCorrelationId.argtypes = [ctypes.c_uint64]
    return lib


def _take(lib) -> list[KernelRecord]:
    records: list[KernelRecord] = []
    while True:
        buffer = (KernelRecord * 4)()
        n = lib.aclsimProfTakeRecords(buffer, 4)
        records += [buffer[i] for i in range(n)]
        if n < 4:
            return records


def _launch_add(acl, stream, test_kernels, n=4096, block_dim=4):
    a = np.arange(n, dtype=np.float32)
    x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(a)
    z = sim.DeviceArray.empty((n,), sim.ACL_FLOAT)
    sim.check(test_kernels.test_launch_user_add(x.ptr, y.ptr, z.ptr, n, block_dim, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    np.testing.assert_array_equal(z.peek(), a + a)


def test_records_only_while_recording(acl, stream, test_kernels):
    lib = _prof(acl)
    _take(lib)
    _launch_add(acl, stream, test_kernels)
    assert _take(lib) == [] and lib.aclsimProfIsRecording() == 0

    sim.check(lib.aclsimProfStart())
    previous = lib.aclsimProfSetCorrelationId(4242)
    try:
        _launch_add(acl, stream, test_kernels, block_dim=2)
    finally:
        lib.aclsimProfSetCorrelationId(previous)
        sim.check(lib.aclsimProfStop())
    records = _take(lib)
    assert len(records) == 1
    (record,) = records
    assert record.name.decode().startswith("user_add")
    assert record.deviceId == 0 and record.blockDim == 2
    assert record.stream == stream
    assert record.correlationId == 4242
    assert record.threadId > 0
    assert 0 < record.startNs < record.endNs

    _launch_add(acl, stream, test_kernels)  # stopped again: nothing recorded
    assert _take(lib) == []


def test_aclnn_launch_names_its_api(acl, stream):
    lib = _prof(acl)
    _take(lib)
    a = np.array([-1.5, 2.0, -3.0], dtype=np.float32)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    sim.check(lib.aclsimProfStart())
    try:
        sim.check(sim.run_aclnn("aclnnAbs", x.tensor(), out.tensor(), stream=stream))
        sim.check(acl.aclrtSynchronizeStream(stream))
    finally:
        sim.check(lib.aclsimProfStop())
    np.testing.assert_array_equal(out.peek(), np.abs(a))
    origins = {r.origin.decode() for r in _take(lib)}
    assert origins == {"aclnnAbs"}


def test_stop_without_start_is_an_error(acl):
    lib = _prof(acl)
    assert lib.aclsimProfStop() == sim.ACL_ERROR_INVALID_PARAM
    assert "not started" in sim.recent_error()
