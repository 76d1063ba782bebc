"""Devices: count, per-thread current device, SoC name, memory info."""

from __future__ import annotations

import ctypes
import threading

import ascendc_kernels_testing as sim


def current_device(acl) -> int:
    dev = ctypes.c_int32()
    sim.check(acl.aclrtGetDevice(ctypes.byref(dev)))
    return dev.value


def test_device_count_defaults_to_two(acl):
    count = ctypes.c_uint32()
    sim.check(acl.aclrtGetDeviceCount(ctypes.byref(count)))
    assert count.value == 2


def test_set_and_get_device(acl):
    assert current_device(acl) == 0
    sim.check(acl.aclrtSetDevice(1))
    assert current_device(acl) == 1
    sim.check(acl.aclrtSetDevice(0))
    assert current_device(acl) == 0


def test_invalid_device_is_rejected_with_a_message(acl):
    assert acl.aclrtSetDevice(7) == sim.ACL_ERROR_INVALID_DEVICE
    assert "device 7 does not exist" in sim.recent_error()
    assert current_device(acl) == 0


def test_current_device_is_per_thread(acl):
    sim.check(acl.aclrtSetDevice(1))
    seen = []
    thread = threading.Thread(target=lambda: seen.append(current_device(acl)))
    thread.start()
    thread.join()
    assert seen == [0]
    assert current_device(acl) == 1


def test_soc_name_and_memory_info(acl):
    assert acl.aclrtGetSocName() == b"Ascend910B-sim"
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    sim.check(acl.aclrtGetMemInfo(0, ctypes.byref(free), ctypes.byref(total)))
    assert total.value == 16384 << 20
    before = free.value
    buf = sim.DeviceArray.empty((1 << 20,), sim.ACL_UINT8)
    sim.check(acl.aclrtGetMemInfo(0, ctypes.byref(free), ctypes.byref(total)))
    assert before - free.value >= 1 << 20
    buf.free()


def test_core_count_and_unified_buffer(acl):
    assert 1 <= acl.aclsimGetCoreNumAiv() <= 64
    assert acl.aclsimGetUbSize() == 192 * 1024
