"""Collectives (HCCL, libhccl.so) are not simulated yet: every function hccl/hccl.h declares is
exported by libhccl.so, returns HCCL_E_NOT_SUPPORT and names itself in aclGetRecentErrMsg(),
so a client such as torch_npu learns why its distributed work cannot run."""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from pathlib import Path

import ascendc_kernels
import ascendc_kernels_testing as sim
import numpy as np
import pytest

HCCL_SUCCESS = 0
HCCL_E_NOT_SUPPORT = 5
HCCL_DATA_TYPE_FP32 = 4
HCCL_REDUCE_SUM = 0
HCCL_ROOT_INFO_BYTES = 4108
COMM_NAME_MAX_LENGTH = 128

HEADER = Path(ascendc_kernels.get_include()) / "hccl" / "hccl.h"
DECLARATION = re.compile(r"HCCL_FUNC_VISIBILITY\s+([\w\s*]+?)\s*\b(Hccl\w+)\s*\(([^)]*)\)\s*;")


def declared_functions() -> dict[str, tuple[str, int]]:
    """Each function hccl/hccl.h declares: its return type and its number of parameters."""
    text = re.sub(r"//[^\n]*", "", HEADER.read_text())
    functions = {}
    for returns, name, params in DECLARATION.findall(text):
        params = params.strip()
        functions[name] = (" ".join(returns.split()), 0 if params in ("", "void") else params.count(",") + 1)
    return functions


def not_supported_message(name: str) -> str:
    return f"{name} is not supported by the simulator (collectives are not simulated yet)"


@pytest.fixture(scope="module")
def hccl(acl) -> ctypes.CDLL:
    return ctypes.CDLL(ascendc_kernels.library_path("hccl"))


def test_the_header_declares_hccls_functions():
    functions = declared_functions()
    assert len(functions) == 47, sorted(functions)
    assert functions["HcclAllReduce"] == ("HcclResult", 7)
    assert functions["HcclGroupStart"] == ("HcclResult", 0)


@pytest.mark.skipif(shutil.which("nm") is None, reason="reads the exports with nm")
def test_libhccl_exports_exactly_the_declared_functions():
    out = subprocess.run(["nm", "-D", "--defined-only", ascendc_kernels.library_path("hccl")],
                         capture_output=True, text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.split()[-2:-1] == ["T"]}
    assert exported == set(declared_functions())


def test_forming_a_communicator_is_not_supported(hccl):
    root_info = ctypes.create_string_buffer(HCCL_ROOT_INFO_BYTES)
    hccl.HcclGetRootInfo.argtypes = [ctypes.c_void_p]
    assert hccl.HcclGetRootInfo(root_info) == HCCL_E_NOT_SUPPORT
    assert sim.recent_error() == not_supported_message("HcclGetRootInfo")

    comm = ctypes.c_void_p()
    hccl.HcclCommInitRootInfo.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
    assert hccl.HcclCommInitRootInfo(2, root_info, 0, ctypes.byref(comm)) == HCCL_E_NOT_SUPPORT
    assert sim.recent_error() == not_supported_message("HcclCommInitRootInfo")
    assert comm.value is None


def test_a_collective_is_not_supported(hccl, stream):
    x = sim.DeviceArray.from_numpy(np.arange(8, dtype=np.float32))
    hccl.HcclAllReduce.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_void_p, ctypes.c_void_p]
    assert hccl.HcclAllReduce(x.ptr, x.ptr, 8, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, None,
                              stream) == HCCL_E_NOT_SUPPORT
    assert sim.recent_error() == not_supported_message("HcclAllReduce")
    sim.check(sim.load().aclrtSynchronizeStream(stream))
    assert (x.peek() == np.arange(8)).all()  # nothing was queued


def test_a_communicators_name_is_not_supported(hccl):
    name = ctypes.create_string_buffer(b"unchanged", COMM_NAME_MAX_LENGTH)
    hccl.HcclGetCommName.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    assert hccl.HcclGetCommName(None, name) == HCCL_E_NOT_SUPPORT
    assert sim.recent_error() == not_supported_message("HcclGetCommName")
    assert name.value == b"unchanged"


def test_hccl_leaves_the_last_acl_error_alone(acl, hccl):
    acl.aclrtGetLastError(0)  # takes what earlier calls left
    assert hccl.HcclGroupStart() == HCCL_E_NOT_SUPPORT
    assert acl.aclrtPeekAtLastError(0) == sim.ACL_SUCCESS  # HCCL's codes are not ACL's


def test_error_strings_name_the_code_and_keep_the_recent_error(hccl):
    hccl.HcclGetErrorString.restype = ctypes.c_char_p
    hccl.HcclGetErrorString.argtypes = [ctypes.c_int]
    assert hccl.HcclBarrier(None, None) == HCCL_E_NOT_SUPPORT
    assert hccl.HcclGetErrorString(HCCL_E_NOT_SUPPORT) == b"HCCL_E_NOT_SUPPORT"
    assert hccl.HcclGetErrorString(HCCL_SUCCESS) == b"HCCL_SUCCESS"
    assert hccl.HcclGetErrorString(1000) == b"unknown HcclResult"
    assert sim.recent_error() == not_supported_message("HcclBarrier")


def test_no_communicator_configuration_field_is_understood(hccl):
    hccl.HcclGetCommConfigCapability.restype = ctypes.c_uint32
    assert hccl.HcclGetCommConfigCapability() == 0  # HCCL_COMM_CONFIG_BUFFER_SIZE, the first field
    assert sim.recent_error() == not_supported_message("HcclGetCommConfigCapability")


# Every parameter of HCCL's functions is an integer, a pointer or a union of one int32 (HcclConfigValue),
# each passed like an integer: zeros of pointer width are valid arguments for any of them.
RETURNING_A_STATUS = sorted(name for name, (returns, _) in declared_functions().items() if returns == "HcclResult")


@pytest.mark.parametrize("name", RETURNING_A_STATUS)
def test_every_function_says_it_is_not_supported(hccl, name: str):
    _, arity = declared_functions()[name]
    fn = getattr(hccl, name)
    fn.restype, fn.argtypes = ctypes.c_int, [ctypes.c_void_p] * arity
    assert fn(*[None] * arity) == HCCL_E_NOT_SUPPORT
    assert sim.recent_error() == not_supported_message(name)
