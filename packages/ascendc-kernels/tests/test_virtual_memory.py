"""Virtual device memory as torch_npu's expandable segments use it: a reservation of addresses,
physical memory counted against the device, mappings that kernels and copies treat as device
memory (adjacent ones as one range), and the order the calls must come in."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np
import pytest

MB = 1 << 20
ACL_MEM_LOCATION_TYPE_HOST = 0
ACL_MEM_LOCATION_TYPE_DEVICE = 1


class MemLocation(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("type", ctypes.c_int)]


class PhysicalMemProp(ctypes.Structure):
    _fields_ = [("handleType", ctypes.c_int), ("allocationType", ctypes.c_int), ("memAttr", ctypes.c_int),
                ("location", MemLocation), ("reserve", ctypes.c_uint64)]


@pytest.fixture
def vm(acl):
    lib = acl.acl
    signatures = {
        "aclrtReserveMemAddress": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                                   ctypes.c_uint64],
        "aclrtReleaseMemAddress": [ctypes.c_void_p],
        "aclrtMallocPhysical": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.POINTER(PhysicalMemProp),
                                ctypes.c_uint64],
        "aclrtFreePhysical": [ctypes.c_void_p],
        "aclrtMapMem": [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_uint64],
        "aclrtUnmapMem": [ctypes.c_void_p],
    }
    for name, argtypes in signatures.items():
        getattr(lib, name).argtypes, getattr(lib, name).restype = argtypes, ctypes.c_int
    return lib


def physical(vm, size: int, device: int = 0, location: int = ACL_MEM_LOCATION_TYPE_DEVICE) -> ctypes.c_void_p:
    prop = PhysicalMemProp(0, 0, 1, MemLocation(device, location), 0)  # NONE handle, PINNED, ACL_HBM_MEM
    handle = ctypes.c_void_p()
    sim.check(vm.aclrtMallocPhysical(ctypes.byref(handle), size, ctypes.byref(prop), 0))
    return handle


def free_memory(acl) -> int:
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    sim.check(acl.aclrtGetMemInfo(sim.ACL_HBM_MEM, ctypes.byref(free), ctypes.byref(total)))
    return free.value


def test_adjacent_mappings_are_one_device_range_for_kernels_and_copies(acl, vm, stream):
    base = ctypes.c_void_p()
    sim.check(vm.aclrtReserveMemAddress(ctypes.byref(base), 64 * MB, 2 * MB, None, 1))
    assert base.value % (2 * MB) == 0
    before = free_memory(acl)
    handles = [physical(vm, 2 * MB) for _ in range(2)]
    assert before - free_memory(acl) == 4 * MB  # physical memory is the device's
    for i, handle in enumerate(handles):
        sim.check(vm.aclrtMapMem(base.value + i * 2 * MB, 2 * MB, 0, handle, 0))
    assert acl.aclrtPointerGetDevice(ctypes.c_void_p(base.value + 3 * MB)) == 0
    n = MB  # 4 MB of float32 across both mappings
    data = np.arange(n, dtype=np.float32)
    sim.check(acl.aclrtMemcpy(base, 4 * MB, data.ctypes.data, 4 * MB, sim.ACL_MEMCPY_HOST_TO_DEVICE))
    x = sim.make_tensor(base.value, (n,), (1,), 0, sim.ACL_FLOAT, [n], sim.ACL_FORMAT_ND)
    try:
        sim.check(sim.run_aclnn("aclnnInplaceAdd", x, x, sim.Scalar(1), stream=stream))
        sim.check(acl.aclrtSynchronizeStream(stream))
    finally:
        sim.load().acl.aclDestroyTensor(x)
    out = np.empty(n, dtype=np.float32)
    sim.check(acl.aclrtMemcpy(out.ctypes.data, 4 * MB, base, 4 * MB, sim.ACL_MEMCPY_DEVICE_TO_HOST))
    assert (out == 2 * data).all()
    # A copy running past the mapped run is refused, not a fault.
    assert acl.aclrtMemcpy(out.ctypes.data, 4 * MB, ctypes.c_void_p(base.value + 2 * MB), 4 * MB,
                           sim.ACL_MEMCPY_DEVICE_TO_HOST) == sim.ACL_ERROR_INVALID_PARAM
    # The calls' order: release needs every mapping gone, a physical free its mappings gone.
    assert vm.aclrtReleaseMemAddress(base) == sim.ACL_ERROR_INVALID_PARAM
    assert vm.aclrtFreePhysical(handles[0]) == sim.ACL_ERROR_INVALID_PARAM
    assert "is still mapped" in sim.recent_error()
    for i, handle in enumerate(handles):
        sim.check(vm.aclrtUnmapMem(base.value + i * 2 * MB))
        sim.check(vm.aclrtFreePhysical(handle))
    assert acl.aclrtPointerGetDevice(ctypes.c_void_p(base.value)) == -1
    assert free_memory(acl) == before
    sim.check(vm.aclrtReleaseMemAddress(base))
    assert vm.aclrtReleaseMemAddress(base) == sim.ACL_ERROR_INVALID_PARAM


def test_a_mapping_is_refused_outside_a_reservation_or_over_another(vm):
    base = ctypes.c_void_p()
    sim.check(vm.aclrtReserveMemAddress(ctypes.byref(base), 4 * MB, 0, None, 0))
    handle = physical(vm, 2 * MB)
    try:
        assert vm.aclrtMapMem(base.value + 3 * MB, 2 * MB, 0, handle, 0) == sim.ACL_ERROR_INVALID_PARAM
        assert "not inside one reservation" in sim.recent_error()
        sim.check(vm.aclrtMapMem(base.value, 2 * MB, 0, handle, 0))
        assert vm.aclrtMapMem(base.value + MB, 2 * MB, 0, handle, 0) == sim.ACL_ERROR_INVALID_PARAM
        assert "overlaps a mapping" in sim.recent_error()
        assert vm.aclrtMapMem(base.value + 2 * MB, 2 * MB, MB, handle, 0) == sim.ACL_ERROR_INVALID_PARAM  # past its end
        assert vm.aclrtMapMem(base.value + 2 * MB, MB, 0, ctypes.c_void_p(0x1234), 0) == sim.ACL_ERROR_INVALID_PARAM
        assert vm.aclrtUnmapMem(base.value + MB) == sim.ACL_ERROR_INVALID_PARAM
        sim.check(vm.aclrtUnmapMem(base.value))
    finally:
        sim.check(vm.aclrtFreePhysical(handle))
        sim.check(vm.aclrtReleaseMemAddress(base))
    assert vm.aclrtFreePhysical(handle) == sim.ACL_ERROR_INVALID_PARAM
    assert vm.aclrtReserveMemAddress(ctypes.byref(base), MB, 0, ctypes.c_void_p(0x1000), 0) == \
        sim.ACL_ERROR_INVALID_PARAM


def test_physical_memory_is_device_memory_only_and_limited_by_the_device(acl, vm):
    prop = PhysicalMemProp(0, 0, 1, MemLocation(0, ACL_MEM_LOCATION_TYPE_HOST), 0)
    handle = ctypes.c_void_p()
    assert vm.aclrtMallocPhysical(ctypes.byref(handle), MB, ctypes.byref(prop), 0) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    prop = PhysicalMemProp(0, 0, 1, MemLocation(9, ACL_MEM_LOCATION_TYPE_DEVICE), 0)
    assert vm.aclrtMallocPhysical(ctypes.byref(handle), MB, ctypes.byref(prop), 0) == sim.ACL_ERROR_INVALID_DEVICE
    prop = PhysicalMemProp(0, 0, 1, MemLocation(0, ACL_MEM_LOCATION_TYPE_DEVICE), 0)
    assert vm.aclrtMallocPhysical(ctypes.byref(handle), free_memory(acl) + MB, ctypes.byref(prop), 0) == \
        sim.ACL_ERROR_RT_MEMORY_ALLOCATION
    assert "out of memory on device 0" in sim.recent_error()
