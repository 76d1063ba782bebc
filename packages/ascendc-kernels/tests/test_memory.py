"""Device memory: ownership, interior pointers, misuse errors, copies and memset."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np


def malloc(acl, size: int) -> int:
    ptr = ctypes.c_void_p()
    sim.check(acl.aclrtMalloc(ctypes.byref(ptr), size, 0))
    return ptr.value


def test_allocation_belongs_to_the_current_device_including_interior_pointers(acl):
    p0 = malloc(acl, 4096)
    sim.check(acl.aclrtSetDevice(1))
    p1 = malloc(acl, 100)
    sim.check(acl.aclrtSetDevice(0))
    assert acl.aclrtPointerGetDevice(p0) == 0
    assert acl.aclrtPointerGetDevice(p0 + 4000) == 0
    assert acl.aclrtPointerGetDevice(p1) == 1
    assert acl.aclrtPointerGetDevice(p1 + 99) == 1
    host = np.zeros(4)
    assert acl.aclrtPointerGetDevice(host.ctypes.data) == -1
    sim.check(acl.aclrtFree(p0))
    sim.check(acl.aclrtFree(p1))
    assert acl.aclrtPointerGetDevice(p0) == -1


def test_double_free_is_an_error_with_a_message(acl):
    p = malloc(acl, 64)
    sim.check(acl.aclrtFree(p))
    assert acl.aclrtFree(p) == sim.ACL_ERROR_INVALID_PARAM
    assert "double free" in sim.recent_error()


def test_foreign_and_interior_pointers_cannot_be_freed(acl):
    host = np.zeros(16)
    assert acl.aclrtFree(host.ctypes.data) == sim.ACL_ERROR_INVALID_PARAM
    assert "not a live device allocation" in sim.recent_error()
    p = malloc(acl, 1024)
    assert acl.aclrtFree(p + 8) == sim.ACL_ERROR_INVALID_PARAM
    assert "inside the allocation" in sim.recent_error()
    sim.check(acl.aclrtFree(p))


def test_zero_size_and_out_of_memory(acl):
    ptr = ctypes.c_void_p()
    assert acl.aclrtMalloc(ctypes.byref(ptr), 0, 0) == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclrtMalloc(ctypes.byref(ptr), 1 << 40, 0) == sim.ACL_ERROR_RT_MEMORY_ALLOCATION
    assert "out of memory on device 0" in sim.recent_error()


def test_memcpy_round_trip_and_device_to_device(acl):
    data = np.arange(1000, dtype=np.float32)
    a = sim.DeviceArray.from_numpy(data)
    b = sim.DeviceArray.empty(data.shape, sim.ACL_FLOAT)
    sim.check(acl.aclrtMemcpy(b.ptr, b.nbytes, a.ptr, a.nbytes, sim.ACL_MEMCPY_DEVICE_TO_DEVICE))
    np.testing.assert_array_equal(b.to_numpy(), data)


def test_memcpy_checks_sizes_and_kinds(acl):
    a = sim.DeviceArray.empty((16,), sim.ACL_FLOAT)
    host = np.zeros(16, dtype=np.float32)
    assert acl.aclrtMemcpy(host.ctypes.data, 32, a.ptr, 64, sim.ACL_MEMCPY_DEVICE_TO_HOST) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "larger than destMax" in sim.recent_error()
    assert acl.aclrtMemcpy(a.ptr, 64, host.ctypes.data, 64, sim.ACL_MEMCPY_DEVICE_TO_HOST) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "dst" in sim.recent_error() and "but kind is ACL_MEMCPY_DEVICE_TO_HOST" in sim.recent_error()
    assert acl.aclrtMemcpy(host.ctypes.data, 64, host.ctypes.data, 64, sim.ACL_MEMCPY_DEVICE_TO_HOST) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "src" in sim.recent_error() and "not device memory" in sim.recent_error()
    big = np.zeros(1024, dtype=np.float32)
    assert acl.aclrtMemcpy(big.ctypes.data, big.nbytes, a.ptr, big.nbytes, sim.ACL_MEMCPY_DEVICE_TO_HOST) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "runs past the end" in sim.recent_error()


def test_memset_and_async_copies_are_stream_ordered(acl, stream):
    a = sim.DeviceArray.empty((256,), sim.ACL_UINT8)
    sim.check(acl.aclrtMemset(a.ptr, a.nbytes, 7, a.nbytes))
    assert (a.to_numpy() == 7).all()
    sim.check(acl.aclrtMemsetAsync(a.ptr, a.nbytes, 9, 128, stream))
    host = np.zeros(256, dtype=np.uint8)
    sim.check(acl.aclrtMemcpyAsync(host.ctypes.data, host.nbytes, a.ptr, a.nbytes,
                                   sim.ACL_MEMCPY_DEVICE_TO_HOST, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert (host[:128] == 9).all() and (host[128:] == 7).all()


def test_host_pinned_memory(acl):
    ptr = ctypes.c_void_p()
    sim.check(acl.aclrtMallocHost(ctypes.byref(ptr), 100))
    assert acl.aclrtPointerGetDevice(ptr.value) == -1
    sim.check(acl.aclrtFreeHost(ptr.value))
    assert acl.aclrtFreeHost(ptr.value) == sim.ACL_ERROR_INVALID_PARAM
