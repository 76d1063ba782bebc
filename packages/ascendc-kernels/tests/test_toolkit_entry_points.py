"""The CANN entry points torch_npu links beyond the simulator's own use of them: streams with a
config, events with flags, contexts, peer access, the SoC part and its core counts, the settings
torch_npu makes at start-up (overflow mode, op execute timeout, system parameters, compile
options, CANN attributes, the last error), tensor descriptor getters, list attributes,
host-placed acl_op inputs, the application log, and the entry points without behaviour yet,
which return CANN's "not supported" status naming themselves."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import ascendc_kernels_testing as sim
import numpy as np
import pytest

TESTS = Path(__file__).resolve().parent


def test_stream_with_config_queues_work(acl):
    stream = ctypes.c_void_p()
    sim.check(acl.aclrtCreateStreamWithConfig(ctypes.byref(stream), 0, 0x1 | 0x2))  # FAST_LAUNCH | FAST_SYNC
    try:
        x = sim.DeviceArray.from_numpy(np.arange(16, dtype=np.float32))
        sim.check(sim.run_aclnn("aclnnInplaceAdd", x.tensor(), x.tensor(), sim.Scalar(1), stream=stream.value))
        sim.check(acl.aclrtSynchronizeStream(stream))
        assert (x.peek() == 2 * np.arange(16)).all()
    finally:
        sim.check(acl.aclrtDestroyStream(stream))
    assert acl.aclrtCreateStreamWithConfig(ctypes.byref(stream), 0, 0x1000) == sim.ACL_ERROR_INVALID_PARAM
    assert "unknown flag bits 0x1000" in sim.recent_error()
    assert acl.aclrtCreateStreamWithConfig(None, 0, 0) == sim.ACL_ERROR_INVALID_PARAM


def test_a_forced_stream_destruction_runs_the_queued_work_first(acl):
    stream = ctypes.c_void_p()
    sim.check(acl.aclrtCreateStream(ctypes.byref(stream)))
    x = sim.DeviceArray.from_numpy(np.arange(1 << 20, dtype=np.float32))
    sim.check(sim.run_aclnn("aclnnInplaceAdd", x.tensor(), x.tensor(), sim.Scalar(1), stream=stream.value))
    sim.check(acl.aclrtDestroyStreamForce(stream))
    assert (x.peek() == 2 * np.arange(1 << 20)).all()
    assert acl.aclrtDestroyStreamForce(stream) == sim.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert "aclrtDestroyStreamForce: " in sim.recent_error() and "is not a live stream" in sim.recent_error()
    assert acl.aclrtDestroyStreamForce(None) == sim.ACL_ERROR_INVALID_PARAM


def test_malloc_align32_is_device_memory(acl):
    ptr = ctypes.c_void_p()
    sim.check(acl.aclrtMallocAlign32(ctypes.byref(ptr), 100, 0))
    try:
        assert ptr.value % 32 == 0 and acl.aclrtPointerGetDevice(ptr) == 0
    finally:
        sim.check(acl.aclrtFree(ptr))
    assert acl.aclrtMallocAlign32(ctypes.byref(ptr), 0, 0) == sim.ACL_ERROR_INVALID_PARAM


def test_event_ex_with_flag_times_work(acl, stream):
    start, end = ctypes.c_void_p(), ctypes.c_void_p()
    sim.check(acl.aclrtCreateEventExWithFlag(ctypes.byref(start), sim.ACL_EVENT_TIME_LINE))
    sim.check(acl.aclrtCreateEventExWithFlag(ctypes.byref(end), sim.ACL_EVENT_TIME_LINE))
    sim.check(acl.aclrtRecordEvent(start, stream))
    sim.check(acl.aclrtRecordEvent(end, stream))
    sim.check(acl.aclrtSynchronizeEvent(end))
    ms = ctypes.c_float(-1)
    sim.check(acl.aclrtEventElapsedTime(ctypes.byref(ms), start, end))
    assert ms.value >= 0
    assert acl.aclrtResetEvent(start, stream) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "aclrtResetEvent is not supported by the simulator" in sim.recent_error()
    for event in (start, end):
        sim.check(acl.aclrtDestroyEvent(event))
    assert acl.aclrtCreateEventExWithFlag(ctypes.byref(start), 0x4000) == sim.ACL_ERROR_INVALID_PARAM


def test_contexts_follow_the_current_device(acl):
    first, second = ctypes.c_void_p(), ctypes.c_void_p()
    sim.check(acl.aclrtGetCurrentContext(ctypes.byref(first)))
    sim.check(acl.aclrtSetDevice(1))
    sim.check(acl.aclrtGetCurrentContext(ctypes.byref(second)))
    assert first.value and second.value and first.value != second.value
    sim.check(acl.aclrtSetCurrentContext(first))
    device = ctypes.c_int32(-1)
    sim.check(acl.aclrtGetDevice(ctypes.byref(device)))
    assert device.value == 0
    assert acl.aclrtSetCurrentContext(ctypes.c_void_p(0x1234)) == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclrtSetCurrentContext(None) == sim.ACL_ERROR_INVALID_PARAM


def test_peer_access_and_the_device_process_id(acl):
    sim.check(acl.aclrtDeviceEnablePeerAccess(1, 0))
    assert acl.aclrtDeviceEnablePeerAccess(0, 0) == sim.ACL_ERROR_INVALID_PARAM  # the current device itself
    assert acl.aclrtDeviceEnablePeerAccess(1, 1) == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclrtDeviceEnablePeerAccess(9, 0) == sim.ACL_ERROR_INVALID_DEVICE
    pid = ctypes.c_int32()
    sim.check(acl.aclrtDeviceGetBareTgid(ctypes.byref(pid)))
    assert pid.value == os.getpid()


def test_device_capability_reports_the_socs_cores(acl):
    value = ctypes.c_int64(-1)
    sim.check(acl.aclGetDeviceCapability(0, 0, ctypes.byref(value)))  # ACL_DEVICE_INFO_AI_CORE_NUM
    assert value.value == 24  # Ascend910B1's cube cores
    sim.check(acl.aclGetDeviceCapability(0, 1, ctypes.byref(value)))  # ACL_DEVICE_INFO_VECTOR_CORE_NUM
    assert value.value == 48
    assert acl.aclGetDeviceCapability(0, 2, ctypes.byref(value)) == sim.ACL_ERROR_FEATURE_UNSUPPORTED  # L2 size
    assert acl.aclGetDeviceCapability(0, 7, ctypes.byref(value)) == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclGetDeviceCapability(5, 0, ctypes.byref(value)) == sim.ACL_ERROR_INVALID_DEVICE


SOC_PROGRAM = """
import ctypes, sys
sys.path.insert(0, {tests!r})
import ascendc_kernels_testing as sim
acl = sim.load()
value = ctypes.c_int64(-1)
counts = []
for info in (0, 1):
    sim.check(acl.aclGetDeviceCapability(0, info, ctypes.byref(value)))
    counts.append(value.value)
print(acl.aclrtGetSocName().decode(), *counts)
"""


@pytest.mark.parametrize(("setting", "reported", "warned"), [
    ("Ascend910B3", "Ascend910B3 20 40", False),
    ("Ascend910B2", "Ascend910B2 24 48", False),
    ("Ascend910B-sim", "Ascend910B1 24 48", True),  # a part the simulator does not know: the default, with a warning
])
def test_the_soc_part_is_configurable(setting: str, reported: str, warned: bool):
    env = {**os.environ, "ASCEND_SIM_SOC_NAME": setting}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(SOC_PROGRAM.format(tests=str(TESTS)))],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == reported
    assert ("ignoring ASCEND_SIM_SOC_NAME=Ascend910B-sim" in result.stderr) == warned


def test_overflow_mode_is_ieee_and_saturation_is_refused(acl, stream):
    sim.check(acl.aclrtSetDeviceSatMode(1))  # ACL_RT_OVERFLOW_MODE_INFNAN
    mode = ctypes.c_int(-1)
    sim.check(acl.aclrtGetDeviceSatMode(ctypes.byref(mode)))
    assert mode.value == 1
    assert acl.aclrtSetDeviceSatMode(0) == sim.ACL_ERROR_FEATURE_UNSUPPORTED  # saturation
    assert "saturation mode is not supported" in sim.recent_error()
    assert acl.aclrtSetDeviceSatMode(7) == sim.ACL_ERROR_INVALID_PARAM
    # IEEE overflow really is what the device computes: float32 max + max is inf.
    x = sim.DeviceArray.from_numpy(np.full(4, np.finfo(np.float32).max, dtype=np.float32))
    sim.check(sim.run_aclnn("aclnnInplaceAdd", x.tensor(), x.tensor(), sim.Scalar(1), stream=stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert np.isinf(x.peek()).all()
    sim.check(acl.aclrtSetStreamOverflowSwitch(stream, 0))
    flag = ctypes.c_uint32(9)
    sim.check(acl.aclrtGetStreamOverflowSwitch(stream, ctypes.byref(flag)))
    assert flag.value == 0
    assert acl.aclrtSetStreamOverflowSwitch(stream, 1) == sim.ACL_ERROR_FEATURE_UNSUPPORTED


def test_a_kernel_longer_than_the_op_execute_timeout_fails_its_stream(acl, stream):
    actual = ctypes.c_uint64()
    x = sim.DeviceArray.from_numpy(np.ones(1 << 22, dtype=np.float32))
    try:
        sim.check(acl.aclrtSetOpExecuteTimeOutV2(1, ctypes.byref(actual)))  # 1 us: shorter than any 16 MB add
        assert actual.value == 1
        sim.check(sim.run_aclnn("aclnnInplaceAdd", x.tensor(), x.tensor(), sim.Scalar(1), stream=stream))
        assert acl.aclrtSynchronizeStream(stream) == sim.ACL_ERROR_RT_AICORE_TIMEOUT
        assert "longer than the op execute timeout of 1 us" in sim.recent_error()
    finally:
        sim.check(acl.aclrtSetOpExecuteTimeOut(0))  # no limit again
    sim.check(sim.run_aclnn("aclnnInplaceAdd", x.tensor(), x.tensor(), sim.Scalar(1), stream=stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    assert acl.aclrtSetOpExecuteTimeOutV2(5, None) == sim.ACL_ERROR_INVALID_PARAM


def test_system_parameters_read_back_and_unsupported_ones_are_refused(acl):
    value = ctypes.c_int64(-1)
    sim.check(acl.aclrtGetSysParamOpt(0, ctypes.byref(value)))  # ACL_OPT_DETERMINISTIC
    assert value.value == 0
    sim.check(acl.aclrtCtxSetSysParamOpt(0, 1))
    sim.check(acl.aclrtGetSysParamOpt(0, ctypes.byref(value)))
    assert value.value == 1
    sim.check(acl.aclrtSetSysParamOpt(0, 0))
    sim.check(acl.aclrtCtxSetSysParamOpt(1, 0))  # ACL_OPT_ENABLE_DEBUG_KERNEL off: what the simulator does
    assert acl.aclrtCtxSetSysParamOpt(1, 1) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert acl.aclrtCtxSetSysParamOpt(2, 1) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert acl.aclrtCtxSetSysParamOpt(0, 2) == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclrtGetSysParamOpt(3, ctypes.byref(value)) == sim.ACL_ERROR_INVALID_PARAM


def test_last_error_is_peeked_and_taken(acl):
    acl.aclrtGetLastError(0)  # takes what earlier calls left
    assert acl.aclrtPeekAtLastError(0) == sim.ACL_SUCCESS
    assert acl.aclrtSetDeviceSatMode(0) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert acl.aclrtPeekAtLastError(0) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert acl.aclrtPeekAtLastError(0) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert acl.aclrtGetLastError(0) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert acl.aclrtGetLastError(0) == sim.ACL_SUCCESS


def test_cann_attributes(acl):
    value = ctypes.c_int32(-1)
    for attr in (0, 1, 2):  # ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE
        sim.check(acl.aclGetCannAttribute(attr, ctypes.byref(value)))
        assert value.value == 1
    assert acl.aclGetCannAttribute(9, ctypes.byref(value)) == sim.ACL_ERROR_INVALID_PARAM
    attrs, num = ctypes.POINTER(ctypes.c_int)(), ctypes.c_size_t()
    sim.check(acl.aclGetCannAttributeList(ctypes.byref(attrs), ctypes.byref(num)))
    assert sorted(attrs[i] for i in range(num.value)) == [0, 1, 2]


def test_compile_options_torch_npu_sets_read_back(acl):
    size = acl.aclGetCompileoptSize(sim.ACL_ALLOW_HF32)
    assert size > 2
    buffer = ctypes.create_string_buffer(size)
    settings = ((sim.ACL_ALLOW_HF32, b"01"), (sim.ACL_OP_DETERMINISTIC, b"1"),
                (sim.ACL_OP_COMPILER_CACHE_MODE, b"disable"), (sim.ACL_PRECISION_MODE, b"must_keep_origin_dtype"))
    for option, value in settings:
        sim.check(acl.aclGetCompileopt(option, buffer, size))
        before = buffer.value
        sim.check(acl.aclSetCompileopt(option, value))
        sim.check(acl.aclGetCompileopt(option, buffer, size))
        assert buffer.value == value
        sim.check(acl.aclSetCompileopt(option, before))
    assert acl.aclSetCompileopt(sim.ACL_ALLOW_HF32, b"2") == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclSetCompileopt(sim.ACL_OP_DETERMINISTIC, b"yes") == sim.ACL_ERROR_INVALID_PARAM
    assert acl.aclGetCompileoptSize(2) == 0  # ACL_AUTO_TUNE_MODE: not taken
    assert acl.aclSetCompileopt(2, b"x") == sim.ACL_ERROR_FEATURE_UNSUPPORTED


def test_tensor_desc_getters_read_back_what_was_set(acl):
    dims = (ctypes.c_int64 * 3)(2, 3, 4)
    desc = acl.aclCreateTensorDesc(sim.ACL_FLOAT16, 3, dims, sim.ACL_FORMAT_ND)
    try:
        assert acl.aclGetTensorDescType(desc) == sim.ACL_FLOAT16
        assert acl.aclGetTensorDescFormat(desc) == sim.ACL_FORMAT_ND
        assert acl.aclGetTensorDescNumDims(desc) == 3
        dim = ctypes.c_int64()
        sim.check(acl.aclGetTensorDescDimV2(desc, 2, ctypes.byref(dim)))
        assert dim.value == 4
        assert acl.aclGetTensorDescDimV2(desc, 3, ctypes.byref(dim)) == sim.ACL_ERROR_INVALID_PARAM
        acl.aclSetTensorDescName(desc, b"x")
        assert acl.aclSetTensorPlaceMent(desc, 9) == sim.ACL_ERROR_INVALID_PARAM
    finally:
        acl.aclDestroyTensorDesc(desc)
    assert acl.aclGetTensorDescType(None) == -1
    assert acl.aclGetTensorDescNumDims(None) == 0


def test_list_attributes_are_stored(acl):
    attr = acl.aclopCreateAttr()
    try:
        sim.check(acl.aclopSetAttrDataType(attr, b"dst_type", sim.ACL_FLOAT16))
        sim.check(acl.aclopSetAttrListBool(attr, b"flags", 2, (ctypes.c_uint8 * 2)(1, 0)))
        sim.check(acl.aclopSetAttrListFloat(attr, b"scales", 2, (ctypes.c_float * 2)(0.5, 2.0)))
        rows = [(ctypes.c_int64 * 2)(1, 2), (ctypes.c_int64 * 1)(3)]
        pointers = (sim._i64p * 2)(*[ctypes.cast(r, sim._i64p) for r in rows])
        sim.check(acl.aclopSetAttrListListInt(attr, b"pads", 2, (ctypes.c_int * 2)(2, 1), pointers))
        assert acl.aclopSetAttrListFloat(attr, b"bad", -1, None) == sim.ACL_ERROR_INVALID_PARAM
        assert acl.aclopSetAttrListListInt(attr, b"bad", 1, (ctypes.c_int * 1)(2), None) == \
            sim.ACL_ERROR_INVALID_PARAM
    finally:
        acl.aclopDestroyAttr(attr)


def test_a_host_placed_input_is_read_from_host_memory(acl):
    """An acl_op input with ACL_MEMTYPE_HOST placement is host memory, read when the op is queued."""
    x = np.arange(6, dtype=np.float32)
    y_host = np.full(6, 10.0, dtype=np.float32)
    xd = sim.DeviceArray.from_numpy(x)
    out = sim.DeviceArray.empty((6,), sim.ACL_FLOAT)
    dims = (ctypes.c_int64 * 1)(6)
    descs = [acl.aclCreateTensorDesc(sim.ACL_FLOAT, 1, dims, sim.ACL_FORMAT_ND) for _ in range(3)]
    sim.check(acl.aclSetTensorPlaceMent(descs[1], 1))  # ACL_MEMTYPE_HOST
    buffers = [acl.aclCreateDataBuffer(xd.ptr, 24), acl.aclCreateDataBuffer(y_host.ctypes.data, 24),
               acl.aclCreateDataBuffer(out.ptr, 24)]
    try:
        in_descs = (ctypes.c_void_p * 2)(descs[0], descs[1])
        in_bufs = (ctypes.c_void_p * 2)(buffers[0], buffers[1])
        out_descs = (ctypes.c_void_p * 1)(descs[2])
        out_bufs = (ctypes.c_void_p * 1)(buffers[2])
        sim.check(acl.aclopCompileAndExecute(b"Add", 2, in_descs, in_bufs, 1, out_descs, out_bufs, None, 0, 0,
                                             None, None))
        y_host[:] = -1  # read at enqueue time: later host writes do not reach the op
        sim.check(acl.aclrtSynchronizeDevice())
        assert (out.peek() == x + 10).all()
        sim.check(acl.aclSetTensorPlaceMent(descs[2], 1))
        assert acl.aclopCompileAndExecute(b"Add", 2, in_descs, in_bufs, 1, out_descs, out_bufs, None, 0, 0,
                                          None, None) == sim.ACL_ERROR_INVALID_PARAM
        assert "output 0 is placed in host memory" in sim.recent_error()
    finally:
        for b in buffers:
            acl.aclDestroyDataBuffer(b)
        for d in descs:
            acl.aclDestroyTensorDesc(d)


# Each entry point without behaviour yet, called with arguments of its CANN type, and the status it returns.
NOT_SIMULATED = {
    "aclrtProcessReport": ([ctypes.c_int32], [100], sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclrtMemExportToShareableHandle": ([ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_void_p],
                                        [None, 0, 0, None], sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclrtMemImportFromShareableHandle": ([ctypes.c_uint64, ctypes.c_int32, ctypes.c_void_p], [0, 0, None],
                                          sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclrtMemSetPidToShareableHandle": ([ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t], [0, None, 0],
                                        sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclrtBinaryLoadFromData": ([ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p],
                                [None, 0, None, None], sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclrtBinaryGetFunction": ([ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p], [None, b"k", None],
                               sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclrtGetFunctionAddr": ([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p], [None, None, None],
                             sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclmdlInitDump": ([], [], sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclmdlSetDump": ([ctypes.c_char_p], [b"dump.json"], sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "aclmdlFinalizeDump": ([], [], sim.ACL_ERROR_FEATURE_UNSUPPORTED),
    "rtDevBinaryRegister": ([ctypes.c_void_p, ctypes.c_void_p], [None, None], sim.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
    "rtFunctionRegister": ([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_uint32],
                           [None, None, b"k", None, 0], sim.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
    "rtKernelLaunch": ([ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p,
                        ctypes.c_void_p], [None, 1, None, 0, None, None], sim.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
    "rtGetC2cCtrlAddr": ([ctypes.c_void_p, ctypes.c_void_p], [None, None], sim.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
}


@pytest.mark.parametrize("name", sorted(NOT_SIMULATED))
def test_entry_points_without_behaviour_say_so(acl, name: str):
    argtypes, args, status = NOT_SIMULATED[name]
    fn = getattr(acl.acl, name)
    fn.restype, fn.argtypes = ctypes.c_int, argtypes
    assert fn(*args) == status
    assert sim.recent_error() == f"{name} is not supported by the simulator"


LOG_PROGRAM = """
import ctypes, sys
sys.path.insert(0, {tests!r})
import ascendc_kernels_testing as sim
acl = sim.load()
for level in range(4):
    acl.aclAppLog(level, b"probe", b"file.cpp", 7 + level, b"level %d", level)
"""


@pytest.mark.parametrize(("threshold", "shown"), [("", ["ERROR"]), ("0", ["DEBUG", "INFO", "WARNING", "ERROR"]),
                                                  ("2", ["WARNING", "ERROR"]), ("4", [])])
def test_application_log_follows_the_global_log_level(threshold: str, shown: list[str]):
    env = {**os.environ, "ASCEND_GLOBAL_LOG_LEVEL": threshold}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(LOG_PROGRAM.format(tests=str(TESTS)))],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("[")]
    assert [line.split("]")[0][1:] for line in lines] == shown
    if shown:
        assert lines[-1] == "[ERROR] file.cpp:10 probe: level 3"
