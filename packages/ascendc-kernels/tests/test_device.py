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
    assert acl.aclrtGetSocName() == b"Ascend910B1"
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    sim.check(acl.aclrtGetMemInfo(sim.ACL_HBM_MEM, ctypes.byref(free), ctypes.byref(total)))
    assert total.value == 16384 << 20
    before = free.value
    buf = sim.DeviceArray.empty((1 << 20,), sim.ACL_UINT8)
    sim.check(acl.aclrtGetMemInfo(sim.ACL_HBM_MEM, ctypes.byref(free), ctypes.byref(total)))
    assert before - free.value >= 1 << 20
    buf.free()


def test_memory_info_kinds(acl):
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    sim.check(acl.aclrtGetMemInfo(sim.ACL_HBM_MEM, ctypes.byref(free), ctypes.byref(total)))
    hbm_total = total.value
    for kind in (sim.ACL_HBM_MEM_HUGE, sim.ACL_MEM_NORMAL):
        sim.check(acl.aclrtGetMemInfo(kind, ctypes.byref(free), ctypes.byref(total)))
        assert total.value == hbm_total
    assert acl.aclrtGetMemInfo(sim.ACL_DDR_MEM, ctypes.byref(free), ctypes.byref(total)) == \
        sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "has no DDR memory" in sim.recent_error()
    assert acl.aclrtGetMemInfo(99, ctypes.byref(free), ctypes.byref(total)) == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclrtGetMemInfo(sim.ACL_HBM_MEM, None, ctypes.byref(total)) == sim.ACL_ERROR_INVALID_PARAM


def test_core_count_and_unified_buffer(acl):
    assert 1 <= acl.aclsimGetCoreNumAiv() <= 64
    assert acl.aclsimGetUbSize() == 192 * 1024


def test_peer_access_between_distinct_devices(acl):
    can = ctypes.c_int32(-1)
    sim.check(acl.aclrtDeviceCanAccessPeer(ctypes.byref(can), 0, 1))
    assert can.value == 1
    sim.check(acl.aclrtDeviceCanAccessPeer(ctypes.byref(can), 1, 1))
    assert can.value == 0
    assert acl.aclrtDeviceCanAccessPeer(ctypes.byref(can), 0, 5) == sim.ACL_ERROR_INVALID_DEVICE
    assert "device 5 does not exist" in sim.recent_error()


def _utilization(acl, device: int = 0) -> sim.UtilizationInfo:
    info = sim.UtilizationInfo()
    sim.check(acl.aclrtGetDeviceUtilizationRate(device, ctypes.byref(info)))
    return info


def test_utilization_counts_the_last_second_of_kernel_time(acl):
    import time

    import numpy as np

    time.sleep(1.05)  # earlier tests' kernels leave the window
    idle = _utilization(acl)
    assert (idle.cubeUtilization, idle.vectorUtilization, idle.aicpuUtilization) == (0, 0, 0)
    rng = np.random.default_rng(0)
    a = sim.DeviceArray.from_numpy(rng.standard_normal((256, 256)).astype(np.float32))
    out = sim.DeviceArray.empty((256, 256), sim.ACL_FLOAT)
    start = time.monotonic()
    while time.monotonic() - start < 1.2:  # the device is busy as long as the host keeps up
        for _ in range(8):
            sim.check(sim.run_aclnn("aclnnMm", a.tensor(), a.tensor(), out.tensor(), 0))
        sim.check(acl.aclrtSynchronizeDevice())
    busy = _utilization(acl)
    assert busy.cubeUtilization == busy.vectorUtilization
    assert 20 <= busy.vectorUtilization <= 100
    assert 0 <= busy.memoryUtilization <= 100
    time.sleep(1.05)
    assert _utilization(acl).vectorUtilization == 0
    a.free()
    out.free()


def test_utilization_memory_share_and_arguments(acl):
    before = _utilization(acl, 1).memoryUtilization
    buf = sim.DeviceArray.empty((4 << 30,), sim.ACL_UINT8, device=1)  # a quarter of 16 GiB
    assert _utilization(acl, 1).memoryUtilization - before == 25
    buf.free()
    info = sim.UtilizationInfo()
    assert acl.aclrtGetDeviceUtilizationRate(9, ctypes.byref(info)) == sim.ACL_ERROR_INVALID_DEVICE
    info.utilizationExtend = ctypes.c_void_p(1)
    assert acl.aclrtGetDeviceUtilizationRate(0, ctypes.byref(info)) == sim.ACL_ERROR_INVALID_PARAM
    assert "utilizationExtend must be null" in sim.recent_error()
