"""CANN's profiling sessions (acl/acl_prof.h) and the profiler's reporting interface
(toolchain/prof_api.h) on the simulator's recorder: a session turns recording on and tells the
registered modules; the modules' reports and the kernels the session's devices ran go into its
result file at aclprofStop; reports made while nothing records are dropped; the driver's device
query (libascend_hal) says the device has no system counter."""

from __future__ import annotations

import ctypes
import json
from pathlib import Path

import ascendc_kernels_testing as sim
import numpy as np
import pytest

ACL_PROF_TASK_TIME = 0x0002
ACL_PROF_MSPROFTX = 0x0080
ACL_PROF_TASK_TIME_L0 = 0x0800
ACL_AICORE_NONE = 0xFF
ACL_PROF_STORAGE_LIMIT, ACL_PROF_SYS_IO_FREQ, ACL_PROF_ARGS_MAX = 1, 5, 17
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_PROF_ALREADY_RUN, ACL_ERROR_PROF_NOT_RUN = 100042, 100043
ACL_ERROR_PROF_API_CONFLICT, ACL_ERROR_PROF_MODULES_UNSUPPORTED = 148047, 200007
COMMAND_INIT, COMMAND_START, COMMAND_STOP, COMMAND_FINALIZE = 0, 1, 2, 3
MSPROF_ERROR_NONE, MSPROF_ERROR_CONFIG_INVALID = 0, 3
MSPROF_REPORT_DATA_MAGIC_NUM = 0x5A5A


class MsprofApi(ctypes.Structure):
    _fields_ = [("magicNumber", ctypes.c_uint16), ("level", ctypes.c_uint16), ("type", ctypes.c_uint32),
                ("threadId", ctypes.c_uint32), ("reserve", ctypes.c_uint32), ("beginTime", ctypes.c_uint64),
                ("endTime", ctypes.c_uint64), ("itemId", ctypes.c_uint64)]


class ReportRecord(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 64), ("kind", ctypes.c_uint32), ("level", ctypes.c_uint32),
                ("type", ctypes.c_uint32), ("threadId", ctypes.c_uint32), ("itemId", ctypes.c_uint64),
                ("deviceId", ctypes.c_int32), ("dataLength", ctypes.c_uint32), ("startNs", ctypes.c_int64),
                ("endNs", ctypes.c_int64), ("data", ctypes.c_uint8 * 232)]


@pytest.fixture(scope="module")
def prof(acl):
    lib = acl.acl
    vp, u32, size = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t
    for name, restype, argtypes in [
        ("aclprofInit", ctypes.c_int, [ctypes.c_char_p, size]),
        ("aclprofFinalize", ctypes.c_int, []),
        ("aclprofCreateConfig", vp, [ctypes.POINTER(u32), u32, ctypes.c_int, vp, ctypes.c_uint64]),
        ("aclprofDestroyConfig", ctypes.c_int, [vp]),
        ("aclprofSetConfig", ctypes.c_int, [ctypes.c_int, ctypes.c_char_p, size]),
        ("aclprofStart", ctypes.c_int, [vp]),
        ("aclprofStop", ctypes.c_int, [vp]),
        ("aclprofMarkEx", ctypes.c_int, [ctypes.c_char_p, size, vp]),
        ("MsprofReportApi", ctypes.c_int32, [u32, ctypes.POINTER(MsprofApi)]),
        ("MsprofReportCompactInfo", ctypes.c_int32, [u32, vp, u32]),
        ("MsprofRegisterCallback", ctypes.c_int32, [u32, vp]),
        ("aclsimProfTakeReports", size, [ctypes.POINTER(ReportRecord), size]),
    ]:
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def _config(prof, devices=(0,), data_types=ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX):
    ids = (ctypes.c_uint32 * len(devices))(*devices)
    return prof.aclprofCreateConfig(ids, len(devices), ACL_AICORE_NONE, None, data_types)


def _results(directory: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(directory.glob("simulator_profile_*.json"))]


def _take_reports(prof) -> list[ReportRecord]:
    out: list[ReportRecord] = []
    while True:
        buffer = (ReportRecord * 8)()
        n = prof.aclsimProfTakeReports(buffer, 8)
        out += [buffer[i] for i in range(n)]
        if n < 8:
            return out


def test_profiler_clock_and_name_hash(acl):
    a, b = acl.MsprofSysCycleTime(), acl.MsprofSysCycleTime()
    assert 0 < a <= b
    assert acl.MsprofGetHashId(b"aclnnAdd", 8) == acl.MsprofGetHashId(b"aclnnAdd", 8) != acl.MsprofGetHashId(b"x", 1)
    assert acl.MsprofGetHashId(b"", 0) == 14695981039346656037  # FNV-1a's offset basis


def test_a_session_records_the_modules_reports_and_the_kernels(prof, stream, test_kernels, tmp_path):
    assert test_kernels.test_profiled_register(77) == MSPROF_ERROR_NONE
    sim.check(prof.aclprofInit(str(tmp_path / "out").encode(), len(str(tmp_path / "out"))))
    try:
        assert test_kernels.test_profiled_command() == COMMAND_INIT
        config = _config(prof)
        assert config
        sim.check(prof.aclprofStart(config))
        assert test_kernels.test_profiled_command() == COMMAND_START
        assert test_kernels.test_profiled_switch() == ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX
        assert test_kernels.test_profiled_devices() == 1

        n = 4096
        a = np.arange(n, dtype=np.float32)
        x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(a)
        z = sim.DeviceArray.empty((n,), sim.ACL_FLOAT)
        sim.check(test_kernels.test_profiled_launch_add(b"triton_add_0", x.ptr, y.ptr, z.ptr, n, 2, stream))
        sim.check(prof.aclprofMarkEx(b"step 1", 6, stream))
        sim.check(prof.aclprofStop(config))  # waits for the device: the kernel and the mark are in
        assert test_kernels.test_profiled_command() == COMMAND_STOP
        np.testing.assert_array_equal(z.peek(), a + a)
        sim.check(prof.aclprofDestroyConfig(config))
    finally:
        sim.check(prof.aclprofFinalize())
    assert test_kernels.test_profiled_command() == COMMAND_FINALIZE

    (result,) = _results(tmp_path / "out")
    assert result["devices"] == [0] and result["aicore_metrics"] == ACL_AICORE_NONE
    (kernel,) = [k for k in result["kernels"] if k["name"].startswith("user_add")]
    assert kernel["block_dim"] == 2 and kernel["device"] == 0 and kernel["stream"] == stream
    by_kind = {r["kind"]: r for r in result["reports"]}
    assert sorted(by_kind) == ["additional", "api", "compact", "mark"]
    api, node, extra, mark = by_kind["api"], by_kind["compact"], by_kind["additional"], by_kind["mark"]
    assert api["name"] == node["name"] == "triton_add_0"
    assert (api["level"], api["type"]) == (10000, 5) and (node["level"], node["type"]) == (10000, 0)
    assert api["item_id"] == node["item_id"] == prof.MsprofGetHashId(b"triton_add_0", 12)
    # the launch's host call began before the kernel (which may end before that call returns)
    assert api["start_ns"] <= api["end_ns"]
    assert api["start_ns"] <= kernel["start_ns"] + 1_000_000  # the clocks agree to within a millisecond
    assert bytes.fromhex(extra["data"]) == b"tile"
    block_dim = int.from_bytes(bytes.fromhex(node["data"])[20:24], "little")  # nodeBasicInfo.blockDim
    assert block_dim == 2
    assert mark["name"] == "step 1" and mark["device"] == 0 and mark["start_ns"] >= kernel["end_ns"]


def test_reports_made_while_nothing_records_are_dropped(prof, stream, test_kernels):
    _take_reports(prof)
    api = MsprofApi(MSPROF_REPORT_DATA_MAGIC_NUM, 10000, 5, 1, 0, 10, 20, 99)
    assert prof.MsprofReportApi(0, ctypes.byref(api)) == MSPROF_ERROR_NONE
    assert _take_reports(prof) == []
    sim.check(prof.aclsimProfStart())
    try:
        assert prof.MsprofReportApi(0, ctypes.byref(api)) == MSPROF_ERROR_NONE
    finally:
        sim.check(prof.aclsimProfStop())
    (record,) = _take_reports(prof)
    assert record.kind == 0 and record.itemId == 99 and record.threadId == 1 and record.name == b""
    assert record.endNs - record.startNs == 10


def test_malformed_reports_are_refused(prof):
    bad = MsprofApi(0x1234, 10000, 5, 1, 0, 10, 20, 99)
    assert prof.MsprofReportApi(0, ctypes.byref(bad)) == MSPROF_ERROR_CONFIG_INVALID
    assert "magic number 0x1234" in sim.recent_error()
    assert prof.MsprofReportApi(0, None) == MSPROF_ERROR_CONFIG_INVALID
    buffer = ctypes.create_string_buffer(16)
    assert prof.MsprofReportCompactInfo(0, buffer, 16) == MSPROF_ERROR_CONFIG_INVALID
    assert "must be a MsprofCompactInfo" in sim.recent_error()
    assert prof.MsprofRegisterCallback(1, None) == MSPROF_ERROR_CONFIG_INVALID


def test_a_module_registering_during_a_session_is_told_it_runs(prof, test_kernels, tmp_path):
    sim.check(prof.aclprofInit(str(tmp_path).encode(), len(str(tmp_path))))
    config = _config(prof, data_types=ACL_PROF_TASK_TIME_L0)
    try:
        sim.check(prof.aclprofStart(config))
        calls = test_kernels.test_profiled_calls()
        assert test_kernels.test_profiled_register(78) == MSPROF_ERROR_NONE
        assert test_kernels.test_profiled_calls() == calls + 1
        assert test_kernels.test_profiled_command() == COMMAND_START
        assert test_kernels.test_profiled_switch() == ACL_PROF_TASK_TIME_L0
        sim.check(prof.aclprofStop(config))
    finally:
        prof.aclprofDestroyConfig(config)
        sim.check(prof.aclprofFinalize())


def test_session_order_and_arguments_are_checked(prof, tmp_path):
    config = _config(prof)
    try:
        assert prof.aclprofStart(config) == ACL_ERROR_PROF_NOT_RUN
        assert "aclprofInit was not called" in sim.recent_error()
        assert prof.aclprofFinalize() == ACL_ERROR_PROF_NOT_RUN
        assert prof.aclprofInit(b"", 0) == sim.ACL_ERROR_INVALID_PARAM
        assert prof.aclprofInit(b"abc", 2) == sim.ACL_ERROR_INVALID_PARAM  # length is not the string's
        (tmp_path / "file").write_text("")
        target = str(tmp_path / "file" / "sub")
        assert prof.aclprofInit(target.encode(), len(target)) == sim.ACL_ERROR_INVALID_PARAM
        assert "cannot create the result directory" in sim.recent_error()

        sim.check(prof.aclprofInit(str(tmp_path).encode(), len(str(tmp_path))))
        try:
            assert prof.aclprofInit(str(tmp_path).encode(), len(str(tmp_path))) == ACL_ERROR_REPEAT_INITIALIZE
            assert prof.aclprofStop(config) == ACL_ERROR_PROF_NOT_RUN
            sim.check(prof.aclprofStart(config))
            other = _config(prof)
            try:
                assert prof.aclprofStart(other) == ACL_ERROR_PROF_ALREADY_RUN
                assert prof.aclprofStop(other) == sim.ACL_ERROR_INVALID_PARAM
            finally:
                sim.check(prof.aclprofDestroyConfig(other))
            assert prof.aclprofDestroyConfig(config) == ACL_ERROR_PROF_API_CONFLICT
            assert prof.aclprofFinalize() == ACL_ERROR_PROF_API_CONFLICT
            sim.check(prof.aclprofStop(config))
        finally:
            sim.check(prof.aclprofFinalize())
    finally:
        sim.check(prof.aclprofDestroyConfig(config))

    assert _config(prof, devices=(7,)) is None
    assert "device 7 does not exist" in sim.recent_error()
    assert prof.aclprofCreateConfig(None, 0, ACL_AICORE_NONE, None, 0) is None
    ids = (ctypes.c_uint32 * 1)(0)
    assert prof.aclprofCreateConfig(ids, 1, 42, None, 0) is None
    assert prof.aclprofDestroyConfig(None) == sim.ACL_ERROR_INVALID_PARAM


def test_set_config_takes_the_storage_limit_and_refuses_hardware_samplers(prof):
    sim.check(prof.aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, b"200MB", 5))
    assert prof.aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, b"200", 3) == sim.ACL_ERROR_INVALID_PARAM
    assert prof.aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, b"100", 3) == ACL_ERROR_PROF_MODULES_UNSUPPORTED
    assert "does not model" in sim.recent_error()
    assert prof.aclprofSetConfig(ACL_PROF_ARGS_MAX, b"1", 1) == sim.ACL_ERROR_INVALID_PARAM


def test_marks_outside_a_session_are_dropped_but_checked(prof, stream):
    sim.check(prof.aclprofMarkEx(b"x", 1, stream))
    assert prof.aclprofMarkEx(None, 0, stream) == sim.ACL_ERROR_INVALID_PARAM
    assert prof.aclprofMarkEx(b"x", 1, ctypes.c_void_p(0x1234)) == sim.ACL_ERROR_INVALID_RESOURCE_HANDLE


def test_the_driver_reports_no_system_counter(acl):
    import ascendc_kernels

    hal = ctypes.CDLL(str(Path(ascendc_kernels.get_library_dir()) / "libascend_hal.so"))
    hal.halGetDeviceInfo.argtypes = [ctypes.c_uint32, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_int64)]
    version, value = ctypes.c_int32(), ctypes.c_int64(-1)
    assert hal.halGetAPIVersion(ctypes.byref(version)) == 0 and version.value > 0
    assert hal.halGetDeviceInfo(0, 0, 24, ctypes.byref(value)) == 0xFFFE  # the system counter's frequency
    assert value.value == -1
    assert hal.halGetDeviceInfo(9, 0, 24, ctypes.byref(value)) == 2  # DRV_ERROR_INVALID_DEVICE
    assert hal.halGetAPIVersion(None) == 3
