"""ctypes bindings of the simulator's C ABI, for the package's tests and the bench, without torch.

Test support, not part of the wheel: tests/conftest.py puts this directory on sys.path (and
on PYTHONPATH for the interpreters tests start); bench/ascendc_kernels_speed.py does the same.

    import ascendc_kernels_testing as sim
    acl = sim.load()
    x = sim.DeviceArray.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    sim.run_aclnn("aclnnAdd", x.tensor(), x.tensor(), sim.Scalar(1.0), out.tensor())
    sim.check(acl.aclrtSynchronizeStream(None))
    out.to_numpy()

Needs numpy. bfloat16 arrays are numpy uint16 arrays of raw bits
(see float_to_bf16_bits / bf16_bits_to_float).
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

import numpy as np
from ascendc_kernels import library_path

# ---- aclDataType / aclFormat / error codes (acl/acl_base.h, aclnn/acl_meta.h) ----
ACL_FLOAT = 0
ACL_FLOAT16 = 1
ACL_INT8 = 2
ACL_INT32 = 3
ACL_UINT8 = 4
ACL_INT16 = 6
ACL_UINT16 = 7
ACL_UINT32 = 8
ACL_INT64 = 9
ACL_UINT64 = 10
ACL_DOUBLE = 11
ACL_BOOL = 12
ACL_BF16 = 27
ACL_COMPLEX64 = 16
ACL_COMPLEX128 = 17

ACL_FORMAT_NCHW = 0
ACL_FORMAT_ND = 2
ACL_FORMAT_NC1HWC0 = 3
ACL_FORMAT_FRACTAL_NZ = 29

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_INVALID_DEVICE = 200002
ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005
ACL_ERROR_OP_NOT_FOUND = 100024
ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026
ACL_ERROR_FEATURE_UNSUPPORTED = 200006
ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000
ACL_ERROR_RT_MEMORY_ALLOCATION = 207001
ACL_ERROR_RT_AICORE_TIMEOUT = 507014
ACL_ERROR_RT_AICORE_EXCEPTION = 507015
ACL_ERROR_RT_EVENT_NOT_COMPLETE = 507006

ACLNN_SUCCESS = 0
ACLNN_ERR_PARAM_NULLPTR = 161001
ACLNN_ERR_PARAM_INVALID = 161002
ACLNN_ERR_RUNTIME_ERROR = 361001

ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3

ACL_STREAM_STATUS_COMPLETE = 0
ACL_STREAM_STATUS_NOT_READY = 1

ACL_DDR_MEM = 0
ACL_HBM_MEM = 1
ACL_HBM_MEM_HUGE = 4
ACL_MEM_NORMAL = 12

ACL_EVENT_SYNC = 0x1
ACL_EVENT_TIME_LINE = 0x8

ACL_PRECISION_MODE = 0
ACL_OP_COMPILER_CACHE_MODE = 7
ACL_OP_JIT_COMPILE = 10
ACL_OP_DETERMINISTIC = 11
ACL_ALLOW_HF32 = 14
ACL_OP_DEBUG_OPTION = 16

# numpy dtype <-> aclDataType (bfloat16 travels as uint16 bits; see DeviceArray).
_NP_TO_ACL = {
    np.dtype(np.float32): ACL_FLOAT,
    np.dtype(np.float16): ACL_FLOAT16,
    np.dtype(np.float64): ACL_DOUBLE,
    np.dtype(np.int8): ACL_INT8,
    np.dtype(np.uint8): ACL_UINT8,
    np.dtype(np.int16): ACL_INT16,
    np.dtype(np.int32): ACL_INT32,
    np.dtype(np.int64): ACL_INT64,
    np.dtype(np.bool_): ACL_BOOL,
    np.dtype(np.complex64): ACL_COMPLEX64,
    np.dtype(np.complex128): ACL_COMPLEX128,
}
_ACL_TO_NP = {v: k for k, v in _NP_TO_ACL.items()}
_ACL_TO_NP[ACL_BF16] = np.dtype(np.uint16)


def acl_dtype(dtype: Any) -> int:
    """aclDataType of a numpy dtype."""
    return _NP_TO_ACL[np.dtype(dtype)]


def numpy_dtype(acl_type: int) -> np.dtype:
    """numpy storage dtype of an aclDataType (uint16 for ACL_BF16)."""
    return _ACL_TO_NP[acl_type]


def float_to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits (round to nearest even, NaN kept), as uint16."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, ((bits >> 16) | 0x40).astype(np.uint16), rounded)


def bf16_bits_to_float(bits: np.ndarray) -> np.ndarray:
    """bfloat16 bits (uint16) -> float32."""
    # uint32 on both sides: numpy 1.x would widen a 0-d array shifted by a Python int to int64.
    wide = np.left_shift(np.asarray(bits, dtype=np.uint16).astype(np.uint32), np.uint32(16))
    return np.asarray(wide, dtype=np.uint32).view(np.float32)


# ---- library loading ----
_vp = ctypes.c_void_p
_i32 = ctypes.c_int32
_u32 = ctypes.c_uint32
_i64 = ctypes.c_int64
_u64 = ctypes.c_uint64
_size = ctypes.c_size_t
_pp = ctypes.POINTER(ctypes.c_void_p)
_i64p = ctypes.POINTER(ctypes.c_int64)

CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class UtilizationInfo(ctypes.Structure):
    """aclrtUtilizationInfo."""

    _fields_ = [
        ("cubeUtilization", _i32),
        ("vectorUtilization", _i32),
        ("aicpuUtilization", _i32),
        ("memoryUtilization", _i32),
        ("utilizationExtend", _vp),
    ]

_ASCENDCL_PROTOTYPES = {
    "aclGetRecentErrMsg": (ctypes.c_char_p, []),
    "aclDataTypeSize": (_size, [ctypes.c_int]),
    "aclInit": (ctypes.c_int, [ctypes.c_char_p]),
    "aclFinalize": (ctypes.c_int, []),
    "aclrtGetDeviceCount": (ctypes.c_int, [ctypes.POINTER(_u32)]),
    "aclrtSetDevice": (ctypes.c_int, [_i32]),
    "aclrtGetDevice": (ctypes.c_int, [ctypes.POINTER(_i32)]),
    "aclrtResetDevice": (ctypes.c_int, [_i32]),
    "aclrtSynchronizeDevice": (ctypes.c_int, []),
    "aclrtGetSocName": (ctypes.c_char_p, []),
    "aclrtGetMemInfo": (ctypes.c_int, [ctypes.c_int, ctypes.POINTER(_size), ctypes.POINTER(_size)]),  # aclrtMemAttr
    "aclrtDeviceCanAccessPeer": (ctypes.c_int, [ctypes.POINTER(_i32), _i32, _i32]),
    "aclrtGetDeviceUtilizationRate": (ctypes.c_int, [_i32, ctypes.POINTER(UtilizationInfo)]),
    "aclrtMalloc": (ctypes.c_int, [_pp, _size, ctypes.c_int]),
    "aclrtFree": (ctypes.c_int, [_vp]),
    "aclrtPointerGetDevice": (_i32, [_vp]),
    "aclrtMallocHost": (ctypes.c_int, [_pp, _size]),
    "aclrtFreeHost": (ctypes.c_int, [_vp]),
    "aclrtMemcpy": (ctypes.c_int, [_vp, _size, _vp, _size, ctypes.c_int]),
    "aclrtMemcpyAsync": (ctypes.c_int, [_vp, _size, _vp, _size, ctypes.c_int, _vp]),
    "aclrtMemset": (ctypes.c_int, [_vp, _size, _i32, _size]),
    "aclrtMemsetAsync": (ctypes.c_int, [_vp, _size, _i32, _size, _vp]),
    "aclrtCreateStream": (ctypes.c_int, [_pp]),
    "aclrtDestroyStream": (ctypes.c_int, [_vp]),
    "aclrtSynchronizeStream": (ctypes.c_int, [_vp]),
    "aclrtStreamQuery": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_int)]),
    "aclrtStreamWaitEvent": (ctypes.c_int, [_vp, _vp]),
    "aclrtLaunchCallback": (ctypes.c_int, [CALLBACK, _vp, ctypes.c_int, _vp]),
    "aclrtStreamGetDevice": (_i32, [_vp]),
    "aclrtCreateEvent": (ctypes.c_int, [_pp]),
    "aclrtCreateEventWithFlag": (ctypes.c_int, [_pp, _u32]),
    "aclrtDestroyEvent": (ctypes.c_int, [_vp]),
    "aclrtRecordEvent": (ctypes.c_int, [_vp, _vp]),
    "aclrtSynchronizeEvent": (ctypes.c_int, [_vp]),
    "aclrtQueryEventStatus": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_int)]),
    "aclrtEventElapsedTime": (ctypes.c_int, [ctypes.POINTER(ctypes.c_float), _vp, _vp]),
    "aclCreateTensor": (_vp, [_i64p, _u64, ctypes.c_int, _i64p, _i64, ctypes.c_int, _i64p, _u64, _vp]),
    "aclDestroyTensor": (ctypes.c_int, [_vp]),
    "aclGetViewShape": (ctypes.c_int, [_vp, ctypes.POINTER(_i64p), ctypes.POINTER(_u64)]),
    "aclGetDataType": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_int)]),
    "aclCreateScalar": (_vp, [_vp, ctypes.c_int]),
    "aclDestroyScalar": (ctypes.c_int, [_vp]),
    "aclCreateIntArray": (_vp, [_i64p, _u64]),
    "aclDestroyIntArray": (ctypes.c_int, [_vp]),
    "aclCreateBoolArray": (_vp, [ctypes.POINTER(ctypes.c_bool), _u64]),
    "aclDestroyBoolArray": (ctypes.c_int, [_vp]),
    "aclDestroyAclOpExecutor": (ctypes.c_int, [_vp]),
    "aclCreateTensorDesc": (_vp, [ctypes.c_int, ctypes.c_int, _i64p, ctypes.c_int]),
    "aclDestroyTensorDesc": (None, [_vp]),
    "aclSetTensorFormat": (ctypes.c_int, [_vp, ctypes.c_int]),
    "aclSetTensorShape": (ctypes.c_int, [_vp, ctypes.c_int, _i64p]),
    "aclSetTensorOriginFormat": (ctypes.c_int, [_vp, ctypes.c_int]),
    "aclSetTensorOriginShape": (ctypes.c_int, [_vp, ctypes.c_int, _i64p]),
    "aclSetTensorConst": (ctypes.c_int, [_vp, _vp, _size]),
    "aclCreateDataBuffer": (_vp, [_vp, _size]),
    "aclDestroyDataBuffer": (ctypes.c_int, [_vp]),
    "aclopCreateAttr": (_vp, []),
    "aclopDestroyAttr": (None, [_vp]),
    "aclopSetAttrBool": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_uint8]),
    "aclopSetAttrInt": (ctypes.c_int, [_vp, ctypes.c_char_p, _i64]),
    "aclopSetAttrFloat": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_float]),
    "aclopSetAttrString": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_char_p]),
    "aclopSetAttrListInt": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_int, _vp]),
    "aclopCompileAndExecute": (
        ctypes.c_int,
        [ctypes.c_char_p, ctypes.c_int, _pp, _pp, ctypes.c_int, _pp, _pp, _vp, ctypes.c_int, ctypes.c_int,
         ctypes.c_char_p, _vp],
    ),
    "aclopCompileAndExecuteV2": (
        ctypes.c_int,
        [ctypes.c_char_p, ctypes.c_int, _pp, _pp, ctypes.c_int, _pp, _pp, _vp, ctypes.c_int, ctypes.c_int,
         ctypes.c_char_p, _vp],
    ),
    "aclSetCompileopt": (ctypes.c_int, [ctypes.c_int, ctypes.c_char_p]),
    "aclGetCompileopt": (ctypes.c_int, [ctypes.c_int, ctypes.c_char_p, _size]),
    "aclGetTensorDescType": (ctypes.c_int, [_vp]),
    "aclGetTensorDescFormat": (ctypes.c_int, [_vp]),
    "aclGetTensorDescNumDims": (_size, [_vp]),
    "aclGetTensorDescDimV2": (ctypes.c_int, [_vp, _size, ctypes.POINTER(_i64)]),
    "aclSetTensorDescName": (None, [_vp, ctypes.c_char_p]),
    "aclSetTensorPlaceMent": (ctypes.c_int, [_vp, ctypes.c_int]),
    "aclopSetAttrDataType": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_int]),
    "aclopSetAttrListBool": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_uint8)]),
    "aclopSetAttrListFloat": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]),
    "aclopSetAttrListListInt": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                                               ctypes.POINTER(_i64p)]),
    "aclrtCreateStreamWithConfig": (ctypes.c_int, [_pp, _u32, _u32]),
    "aclrtCreateEventExWithFlag": (ctypes.c_int, [_pp, _u32]),
    "aclrtResetEvent": (ctypes.c_int, [_vp, _vp]),
    "aclrtDeviceEnablePeerAccess": (ctypes.c_int, [_i32, _u32]),
    "aclrtDeviceGetBareTgid": (ctypes.c_int, [ctypes.POINTER(_i32)]),
    "aclrtGetCurrentContext": (ctypes.c_int, [_pp]),
    "aclrtSetCurrentContext": (ctypes.c_int, [_vp]),
    "aclGetDeviceCapability": (ctypes.c_int, [_u32, ctypes.c_int, ctypes.POINTER(_i64)]),
    "aclAppLog": (None, [ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, _u32, ctypes.c_char_p]),
    "aclrtSetDeviceSatMode": (ctypes.c_int, [ctypes.c_int]),
    "aclrtGetDeviceSatMode": (ctypes.c_int, [ctypes.POINTER(ctypes.c_int)]),
    "aclrtSetStreamOverflowSwitch": (ctypes.c_int, [_vp, _u32]),
    "aclrtGetStreamOverflowSwitch": (ctypes.c_int, [_vp, ctypes.POINTER(_u32)]),
    "aclrtSetOpExecuteTimeOut": (ctypes.c_int, [_u32]),
    "aclrtSetOpExecuteTimeOutV2": (ctypes.c_int, [_u64, ctypes.POINTER(_u64)]),
    "aclrtSetSysParamOpt": (ctypes.c_int, [ctypes.c_int, _i64]),
    "aclrtCtxSetSysParamOpt": (ctypes.c_int, [ctypes.c_int, _i64]),
    "aclrtGetSysParamOpt": (ctypes.c_int, [ctypes.c_int, ctypes.POINTER(_i64)]),
    "aclrtPeekAtLastError": (ctypes.c_int, [ctypes.c_int]),
    "aclrtGetLastError": (ctypes.c_int, [ctypes.c_int]),
    "aclGetCannAttribute": (ctypes.c_int, [ctypes.c_int, ctypes.POINTER(_i32)]),
    "aclGetCannAttributeList": (ctypes.c_int, [ctypes.POINTER(ctypes.POINTER(ctypes.c_int)), ctypes.POINTER(_size)]),
    "aclGetCompileoptSize": (_size, [ctypes.c_int]),
    "aclrtDestroyStreamForce": (ctypes.c_int, [_vp]),
    "aclrtMallocAlign32": (ctypes.c_int, [_pp, _size, ctypes.c_int]),
    "MsprofSysCycleTime": (_u64, []),
    "MsprofGetHashId": (_u64, [ctypes.c_char_p, _size]),
    "aclsimGetCoreNumAiv": (_u32, []),
    "aclsimGetUbSize": (_u64, []),
    "aclsimGetBlockIdx": (_u32, []),
    "aclsimGetBlockNum": (_u32, []),
    "aclsimCubeMmad": (ctypes.c_int, [_vp, _vp, _vp, _u32, _u32, _u32, _u32, _u32, _u32, ctypes.c_int, ctypes.c_int]),
}

def _aclnn_declarations() -> dict:
    """aclnnX -> the ctypes types of aclnnXGetWorkspaceSize's own parameters, from the
    package's declarations (abi/aclnn/*.decl, read by abi/aclnn_abi.py)."""
    abi_dir = str(Path(__file__).resolve().parent.parent / "abi")
    if abi_dir not in sys.path:
        sys.path.insert(0, abi_dir)
    import aclnn_abi

    return {api.name: [getattr(ctypes, t) for t in aclnn_abi.ctypes_argtypes(api)]
            for api in aclnn_abi.apis(aclnn_abi.load())}


# aclnnX: (workspace, size, executor, stream); aclnnXGetWorkspaceSize: (args..., &size, &executor)
_ACLNN_ARGS = _aclnn_declarations()


class Libraries:
    """The loaded libascendcl.so (``.acl``) and libopapi.so (``.opapi``)."""

    def __init__(self) -> None:
        self.acl = ctypes.CDLL(library_path("ascendcl"), mode=ctypes.RTLD_GLOBAL)
        self.opapi = ctypes.CDLL(library_path("opapi"))
        for name, (restype, argtypes) in _ASCENDCL_PROTOTYPES.items():
            fn = getattr(self.acl, name)
            fn.restype = restype
            fn.argtypes = argtypes
        for name, args in _ACLNN_ARGS.items():
            ws = getattr(self.opapi, name + "GetWorkspaceSize")
            ws.restype = ctypes.c_int
            ws.argtypes = args + [ctypes.POINTER(_u64), _pp]
            launch = getattr(self.opapi, name)
            launch.restype = ctypes.c_int
            launch.argtypes = [_vp, _u64, _vp, _vp]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.acl, name)


_LIBS: Optional[Libraries] = None


def load() -> Libraries:
    """The libraries, loaded once per process."""
    global _LIBS
    if _LIBS is None:
        _LIBS = Libraries()
    return _LIBS


class AclError(RuntimeError):
    def __init__(self, code: int, message: str, what: str = "") -> None:
        super().__init__(f"{what + ': ' if what else ''}error {code}: {message}")
        self.code = code
        self.message = message


def recent_error() -> str:
    """aclGetRecentErrMsg() of the calling thread."""
    return load().acl.aclGetRecentErrMsg().decode()


def check(rc: int, what: str = "") -> None:
    """Raises AclError (with aclGetRecentErrMsg) when rc is not 0."""
    if rc != 0:
        raise AclError(rc, recent_error(), what)


def stream_status(stream: Any) -> int:
    """aclrtStreamQuery's status of `stream`: ACL_STREAM_STATUS_COMPLETE or ACL_STREAM_STATUS_NOT_READY."""
    status = ctypes.c_int(-1)
    check(load().acl.aclrtStreamQuery(stream, ctypes.byref(status)), "aclrtStreamQuery")
    return status.value


def _int64_array(values: Sequence[int]) -> Any:
    return (ctypes.c_int64 * max(1, len(values)))(*values)


# ---- device memory and tensors ----
class DeviceArray:
    """A device allocation holding a dense array (shape/dtype describe the whole storage)."""

    def __init__(self, shape: Sequence[int], acl_type: int, device: Optional[int] = None) -> None:
        libs = load()
        self.shape = tuple(int(d) for d in shape)
        self.acl_type = acl_type
        self.np_dtype = numpy_dtype(acl_type)
        self.numel = int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1
        self.nbytes = self.numel * self.np_dtype.itemsize
        self._previous_device = None
        if device is not None:
            prev = ctypes.c_int32()
            check(libs.aclrtGetDevice(ctypes.byref(prev)))
            check(libs.aclrtSetDevice(device))
            self._previous_device = prev.value
        ptr = ctypes.c_void_p()
        try:
            check(libs.aclrtMalloc(ctypes.byref(ptr), max(1, self.nbytes), 0), "aclrtMalloc")
        finally:
            if self._previous_device is not None:
                libs.aclrtSetDevice(self._previous_device)
        self.ptr: Optional[int] = ptr.value
        self._tensors: list = []

    @classmethod
    def empty(cls, shape: Sequence[int], acl_type: int, device: Optional[int] = None) -> "DeviceArray":
        return cls(shape, acl_type, device)

    @classmethod
    def from_numpy(cls, array: np.ndarray, acl_type: Optional[int] = None,
                   device: Optional[int] = None) -> "DeviceArray":
        """Uploads a C-contiguous copy of `array` (uint16 bits when acl_type is ACL_BF16)."""
        acl_type = acl_dtype(array.dtype) if acl_type is None else acl_type
        out = cls(array.shape, acl_type, device)
        out.upload(array)
        return out

    def upload(self, array: np.ndarray) -> None:
        host = np.ascontiguousarray(array, dtype=self.np_dtype)
        assert host.nbytes == self.nbytes, (host.nbytes, self.nbytes)
        if self.nbytes:
            check(load().aclrtMemcpy(self.ptr, self.nbytes, host.ctypes.data, self.nbytes,
                                     ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy H2D")

    def to_numpy(self) -> np.ndarray:
        """Synchronous download (waits for the device's queued work)."""
        host = np.empty(self.shape, dtype=self.np_dtype)
        if self.nbytes:
            check(load().aclrtMemcpy(host.ctypes.data, self.nbytes, self.ptr, self.nbytes,
                                     ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy D2H")
        return host

    def peek(self) -> np.ndarray:
        """The current bytes without any synchronisation (device memory is host memory here)."""
        host = np.empty(self.shape, dtype=self.np_dtype)
        if self.nbytes:
            ctypes.memmove(host.ctypes.data, self.ptr, self.nbytes)
        return host

    def tensor(self, shape: Optional[Sequence[int]] = None, strides: Optional[Sequence[int]] = None,
               offset: int = 0, acl_type: Optional[int] = None, fmt: int = ACL_FORMAT_ND) -> int:
        """An aclTensor view of this storage (destroyed with the array or by free_tensors)."""
        shape = self.shape if shape is None else tuple(shape)
        if strides is None:
            strides, step = [], 1
            for d in reversed(shape):
                strides.insert(0, step)
                step *= max(int(d), 1)
        handle = make_tensor(self.ptr, shape, strides, offset, self.acl_type if acl_type is None else acl_type,
                             [self.numel], fmt)
        self._tensors.append(handle)
        return handle

    def free_tensors(self) -> None:
        libs = load()
        for t in self._tensors:
            libs.aclDestroyTensor(t)
        self._tensors.clear()

    def free(self) -> None:
        if self.ptr is not None:
            self.free_tensors()
            check(load().aclrtFree(self.ptr), "aclrtFree")
            self.ptr = None

    def __del__(self) -> None:
        try:
            self.free()
        except Exception:  # interpreter shutdown or an already reported error
            pass


def make_tensor(data: Optional[int], shape: Sequence[int], strides: Sequence[int], offset: int, acl_type: int,
                storage_shape: Sequence[int], fmt: int = ACL_FORMAT_ND) -> int:
    handle = load().aclCreateTensor(_int64_array(shape), len(shape), acl_type, _int64_array(strides), offset, fmt,
                                    _int64_array(storage_shape), len(storage_shape), data)
    if not handle:
        raise AclError(-1, recent_error(), "aclCreateTensor")
    return handle


class Scalar:
    """An aclScalar of a Python value (dtype from the value unless given)."""

    def __init__(self, value: Any, acl_type: Optional[int] = None) -> None:
        if acl_type is None:
            acl_type = (ACL_BOOL if isinstance(value, bool) else ACL_INT64 if isinstance(value, int)
                        else ACL_COMPLEX128 if isinstance(value, complex) else ACL_DOUBLE)
        if acl_type == ACL_BF16:
            raw = float_to_bf16_bits(np.array([value], dtype=np.float32))
        else:
            raw = np.array([value], dtype=numpy_dtype(acl_type))
        self._raw = raw
        self.handle = load().aclCreateScalar(raw.ctypes.data, acl_type)
        if not self.handle:
            raise AclError(-1, recent_error(), "aclCreateScalar")

    def __del__(self) -> None:
        try:
            load().aclDestroyScalar(self.handle)
        except Exception:
            pass


class IntArray:
    """An aclIntArray of Python ints."""

    def __init__(self, values: Sequence[int]) -> None:
        self._values = _int64_array(values)
        self.handle = load().aclCreateIntArray(self._values, len(values))
        if not self.handle:
            raise AclError(-1, recent_error(), "aclCreateIntArray")

    def __del__(self) -> None:
        try:
            load().aclDestroyIntArray(self.handle)
        except Exception:
            pass


class BoolArray:
    """An aclBoolArray of Python bools."""

    def __init__(self, values: Sequence[bool]) -> None:
        self._values = (ctypes.c_bool * max(1, len(values)))(*values)
        self.handle = load().aclCreateBoolArray(self._values, len(values))
        if not self.handle:
            raise AclError(-1, recent_error(), "aclCreateBoolArray")

    def __del__(self) -> None:
        try:
            load().aclDestroyBoolArray(self.handle)
        except Exception:
            pass


def _arg(value: Any) -> Any:
    return value.handle if isinstance(value, (Scalar, IntArray, BoolArray)) else value


def aclnn_workspace(api: str, *args: Any) -> tuple:
    """Runs `api`GetWorkspaceSize; returns (status, workspace size, executor handle)."""
    libs = load()
    size = ctypes.c_uint64()
    executor = ctypes.c_void_p()
    rc = getattr(libs.opapi, api + "GetWorkspaceSize")(*[_arg(a) for a in args], ctypes.byref(size),
                                                      ctypes.byref(executor))
    return rc, size.value, executor.value


def run_aclnn(api: str, *args: Any, stream: Optional[int] = None) -> int:
    """Both phases of an aclnn api on `stream` (workspace from aclrtMalloc, freed after a sync)."""
    libs = load()
    rc, size, executor = aclnn_workspace(api, *args)
    check(rc, api + "GetWorkspaceSize")
    workspace = None
    if size:
        ptr = ctypes.c_void_p()
        check(libs.aclrtMalloc(ctypes.byref(ptr), size, 0))
        workspace = ptr.value
    rc = getattr(libs.opapi, api)(workspace, size, executor, stream)
    if workspace is not None:
        libs.aclrtFree(workspace)  # waits for the device's queued work, like cudaFree
    return rc


# ---- acl_op ----
class DataTypeAttr(int):
    """An aclDataType set as a data type attribute (aclopSetAttrDataType), not as an int."""


def descriptor_shape(desc: Any) -> list[int]:
    libs = load()
    dims = []
    for i in range(libs.aclGetTensorDescNumDims(desc)):
        dim = _i64()
        check(libs.aclGetTensorDescDimV2(desc, i, ctypes.byref(dim)))
        dims.append(dim.value)
    return dims


def run_aclop(op_type: str, inputs: Iterable[tuple], outputs: Iterable[tuple], attrs: Optional[dict] = None,
              stream: Optional[int] = None, reported_shapes: Optional[list] = None) -> int:
    """aclopCompileAndExecute. inputs/outputs: (DeviceArray or None, shape, acl_type[, fmt[, const bytes[, origin]]]).

    `shape` is the storage shape in `fmt`; `origin` (default: `shape`) the logical shape.
    With `reported_shapes` (a list) the call is aclopCompileAndExecuteV2, and the list receives each
    output descriptor's shape after it (the sizes an op with data-dependent shapes produced).

    attrs: name -> bool | int | float | str | list of ints | list with a float (aclopSetAttrListFloat) |
    DataTypeAttr (floats set with aclopSetAttrFloat).
    """
    libs = load()
    descs, buffers, keep = [], [], []

    def describe(items: Iterable[tuple]) -> tuple:
        d_list, b_list = [], []
        for item in items:
            array, shape, acl_type = item[0], item[1], item[2]
            fmt = item[3] if len(item) > 3 else ACL_FORMAT_ND
            desc = libs.aclCreateTensorDesc(acl_type, len(shape), _int64_array(shape), fmt)
            if not desc:
                raise AclError(-1, recent_error(), "aclCreateTensorDesc")
            descs.append(desc)
            if len(item) > 4 and item[4] is not None:
                const = np.ascontiguousarray(item[4])
                keep.append(const)
                check(libs.aclSetTensorConst(desc, const.ctypes.data, const.nbytes))
            if len(item) > 5 and item[5] is not None:
                check(libs.aclSetTensorOriginShape(desc, len(item[5]), _int64_array(item[5])))
            ptr = array.ptr if array is not None else None
            nbytes = array.nbytes if array is not None else 0
            buf = libs.aclCreateDataBuffer(ptr, nbytes)
            buffers.append(buf)
            d_list.append(desc)
            b_list.append(buf)
        return d_list, b_list

    in_d, in_b = describe(inputs)
    out_d, out_b = describe(outputs)
    attr = libs.aclopCreateAttr()
    for name, value in (attrs or {}).items():
        key = name.encode()
        if isinstance(value, DataTypeAttr):
            check(libs.aclopSetAttrDataType(attr, key, int(value)))
        elif isinstance(value, bool):
            check(libs.aclopSetAttrBool(attr, key, int(value)))
        elif isinstance(value, int):
            check(libs.aclopSetAttrInt(attr, key, value))
        elif isinstance(value, float):
            check(libs.aclopSetAttrFloat(attr, key, value))
        elif isinstance(value, (list, tuple)) and any(isinstance(v, float) for v in value):
            floats = (ctypes.c_float * len(value))(*value)
            check(libs.aclopSetAttrListFloat(attr, key, len(value), floats))
        elif isinstance(value, (list, tuple)):
            values = _int64_array(value)
            check(libs.aclopSetAttrListInt(attr, key, len(value), ctypes.cast(values, _vp)))
        else:
            check(libs.aclopSetAttrString(attr, key, str(value).encode()))

    def array_of(handles: list) -> Any:
        return (ctypes.c_void_p * max(1, len(handles)))(*handles)

    execute = libs.aclopCompileAndExecute if reported_shapes is None else libs.aclopCompileAndExecuteV2
    try:
        rc = execute(op_type.encode(), len(in_d), array_of(in_d), array_of(in_b), len(out_d), array_of(out_d),
                     array_of(out_b), attr, 0, 0, None, stream)
        if reported_shapes is not None:
            reported_shapes[:] = [descriptor_shape(d) for d in out_d]
        return rc
    finally:
        libs.aclopDestroyAttr(attr)
        for d in descs:
            libs.aclDestroyTensorDesc(d)
        for b in buffers:
            libs.aclDestroyDataBuffer(b)


# ---- operands of run_aclop ----
def op_in(array: DeviceArray) -> tuple:
    """A device array as a run_aclop operand of its own shape and type."""
    return (array, tuple(array.shape), array.acl_type)


def dev(values: Any) -> DeviceArray:
    """`values` (anything numpy takes) uploaded as a dense device array of their dtype."""
    return DeviceArray.from_numpy(np.ascontiguousarray(values))


def out_of(shape: Sequence[int], acl_type: int = ACL_FLOAT) -> DeviceArray:
    """An uninitialised device array for an op's output."""
    return DeviceArray.empty(tuple(shape), acl_type)


# ---- host references for kernel tests: values exact in a dtype, uploads, downloads ----
DTYPES = {
    "float32": ACL_FLOAT,
    "float16": ACL_FLOAT16,
    "bfloat16": ACL_BF16,
    "int32": ACL_INT32,
    "int64": ACL_INT64,
}


def random_values(shape, acl_type, rng, low=-100, high=100) -> np.ndarray:
    """Host values exactly representable in `acl_type`, as float32 for float types (bf16 rounded)."""
    if acl_type in (ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE):
        values = rng.uniform(low, high, size=shape).astype(np.float32)
        if acl_type == ACL_FLOAT16:
            values = values.astype(np.float16).astype(np.float32)
        if acl_type == ACL_BF16:
            values = bf16_bits_to_float(float_to_bf16_bits(values)).reshape(shape)
        return values
    if acl_type == ACL_BOOL:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    return rng.integers(low, high, size=shape).astype(numpy_dtype(acl_type))


def to_device(values: np.ndarray, acl_type: int) -> DeviceArray:
    if acl_type == ACL_BF16:
        return DeviceArray.from_numpy(float_to_bf16_bits(values).reshape(values.shape), ACL_BF16)
    return DeviceArray.from_numpy(np.asarray(values).astype(numpy_dtype(acl_type)), acl_type)


def from_device(array: DeviceArray) -> np.ndarray:
    """Synchronous download; bf16 comes back as float32."""
    host = array.to_numpy()
    if array.acl_type == ACL_BF16:
        return bf16_bits_to_float(host).reshape(host.shape)
    return host


def round_to(values: np.ndarray, acl_type: int) -> np.ndarray:
    """What storing float32 `values` in `acl_type` gives (as float32 for float types)."""
    if acl_type == ACL_FLOAT16:
        return values.astype(np.float32).astype(np.float16).astype(np.float32)
    if acl_type == ACL_BF16:
        return bf16_bits_to_float(float_to_bf16_bits(values.astype(np.float32))).reshape(values.shape)
    if acl_type == ACL_FLOAT:
        return values.astype(np.float32)
    return values.astype(numpy_dtype(acl_type))


# ---- the random kernels' generator (kernels/philox.h), for reference values ----
_PHILOX_M0, _PHILOX_M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_PHILOX_W0, _PHILOX_W1 = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)


def philox4x32_10(counter: np.ndarray, key: Sequence[int]) -> np.ndarray:
    """Philox4x32-10 of counters (uint32, shape (n, 4)) under key (k0, k1): uint32 (n, 4)."""
    c = [np.asarray(counter, dtype=np.uint32)[:, j].astype(np.uint64) for j in range(4)]
    k0, k1 = np.uint32(key[0]), np.uint32(key[1])
    mask = np.uint64(0xFFFFFFFF)
    with np.errstate(over="ignore"):
        for _ in range(10):
            p0 = _PHILOX_M0 * c[0]
            p1 = _PHILOX_M1 * c[2]
            c = [((p1 >> np.uint64(32)) ^ c[1] ^ np.uint64(k0)) & mask, p1 & mask,
                 ((p0 >> np.uint64(32)) ^ c[3] ^ np.uint64(k1)) & mask, p0 & mask]
            k0 = np.uint32(k0 + _PHILOX_W0)
            k1 = np.uint32(k1 + _PHILOX_W1)
    return np.stack(c, axis=1).astype(np.uint32)


def philox_blocks(n: int, seed: int, offset: int) -> np.ndarray:
    """The blocks elements 0..n-1 of a random kernel launched with (seed, offset) read."""
    index = np.arange(n, dtype=np.uint64)
    counter = np.stack([index & np.uint64(0xFFFFFFFF), index >> np.uint64(32),
                        np.full(n, offset & 0xFFFFFFFF, dtype=np.uint64),
                        np.full(n, (offset >> 32) & 0xFFFFFFFF, dtype=np.uint64)], axis=1)
    return philox4x32_10(counter, (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF))


# ---- HCCL (libhccl.so, hccl/hccl.h): bindings and ranks in separate processes ----
HCCL_SUCCESS = 0
HCCL_E_PARA = 1
HCCL_E_PTR = 2
HCCL_E_NOT_SUPPORT = 5
HCCL_E_TIMEOUT = 9
HCCL_E_REMOTE = 21
HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN = 0, 1, 2, 3
HCCL_SEND, HCCL_RECV = 0, 1
HCCL_ROOT_INFO_BYTES = 4108
COMM_NAME_MAX_LENGTH = 128
ACL_ERROR_RT_LINK_ERROR = 507056  # what a stream reports after a failed collective

# HcclDataType values and the numpy dtype that holds each (bfloat16 as uint16 bits).
HCCL_TYPES = {
    "int8": (0, np.int8), "int16": (1, np.int16), "int32": (2, np.int32), "float16": (3, np.float16),
    "float32": (4, np.float32), "int64": (5, np.int64), "uint64": (6, np.uint64), "uint8": (7, np.uint8),
    "uint16": (8, np.uint16), "uint32": (9, np.uint32), "float64": (10, np.float64), "bfloat16": (11, np.uint16),
}
HCCL_DATA_TYPE_FP8E4M3 = 15


class HcclSendRecvItem(ctypes.Structure):
    _fields_ = [("sendRecvType", ctypes.c_int), ("buf", _vp), ("count", _u64), ("dataType", ctypes.c_int),
                ("remoteRank", _u32)]


_c_int = ctypes.c_int
_HCCL_PROTOTYPES = {
    "HcclGetRootInfo": [_vp],
    "HcclCommInitRootInfo": [_u32, _vp, _u32, _pp],
    "HcclCommInitAll": [_u32, ctypes.POINTER(_i32), _pp],
    "HcclCommInitClusterInfo": [ctypes.c_char_p, _u32, _pp],
    "HcclCommDestroy": [_vp],
    "HcclGetRankSize": [_vp, ctypes.POINTER(_u32)],
    "HcclGetRankId": [_vp, ctypes.POINTER(_u32)],
    "HcclGetCommName": [_vp, ctypes.c_char_p],
    "HcclGetCommAsyncError": [_vp, ctypes.POINTER(_c_int)],
    "HcclAllReduce": [_vp, _vp, _u64, _c_int, _c_int, _vp, _vp],
    "HcclBroadcast": [_vp, _u64, _c_int, _u32, _vp, _vp],
    "HcclReduce": [_vp, _vp, _u64, _c_int, _c_int, _u32, _vp, _vp],
    "HcclReduceScatter": [_vp, _vp, _u64, _c_int, _c_int, _vp, _vp],
    "HcclAllGather": [_vp, _vp, _u64, _c_int, _vp, _vp],
    "HcclAlltoAll": [_vp, _u64, _c_int, _vp, _u64, _c_int, _vp, _vp],
    "HcclAlltoAllV": [_vp, _vp, _vp, _c_int, _vp, _vp, _vp, _c_int, _vp, _vp],
    "HcclBarrier": [_vp, _vp],
    "HcclAllGatherV": [_vp, _u64, _vp, _vp, _vp, _c_int, _vp, _vp],
    "HcclReduceScatterV": [_vp, _vp, _vp, _vp, _u64, _c_int, _c_int, _vp, _vp],
    "HcclScatter": [_vp, _vp, _u64, _c_int, _u32, _vp, _vp],
    "HcclAlltoAllVC": [_vp, _vp, _c_int, _vp, _c_int, _vp, _vp],
    "HcclGroupStart": [],
    "HcclGroupEnd": [],
    "HcclSend": [_vp, _u64, _c_int, _u32, _vp, _vp],
    "HcclRecv": [_vp, _u64, _c_int, _u32, _vp, _vp],
    "HcclBatchSendRecv": [ctypes.POINTER(HcclSendRecvItem), _u32, _vp, _vp],
}
_HCCL: Optional[ctypes.CDLL] = None


def load_hccl() -> ctypes.CDLL:
    """libhccl.so with the prototypes of the functions the tests call (loaded once per process)."""
    global _HCCL
    if _HCCL is None:
        load()
        lib = ctypes.CDLL(library_path("hccl"))
        for name, argtypes in _HCCL_PROTOTYPES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = ctypes.c_int, argtypes
        _HCCL = lib
    return _HCCL


def hccl_check(rc: int, what: str) -> None:
    if rc != HCCL_SUCCESS:
        raise AclError(rc, recent_error(), what)


def new_stream(device: int) -> int:
    """A stream on `device` (which becomes the calling thread's current device)."""
    check(load().aclrtSetDevice(device), "aclrtSetDevice")
    handle = ctypes.c_void_p()
    check(load().aclrtCreateStream(ctypes.byref(handle)), "aclrtCreateStream")
    return handle.value


class Rank:
    """One rank of a communicator: its id, the group's size, its comm, device and stream."""

    def __init__(self, rank: int, size: int, comm: int, device: int, stream: int) -> None:
        self.rank, self.size, self.comm, self.device, self.stream = rank, size, comm, device, stream

    def name(self) -> str:
        buf = ctypes.create_string_buffer(COMM_NAME_MAX_LENGTH)
        hccl_check(load_hccl().HcclGetCommName(self.comm, buf), "HcclGetCommName")
        return buf.value.decode()

    def async_error(self) -> int:
        code = ctypes.c_int(-1)
        hccl_check(load_hccl().HcclGetCommAsyncError(self.comm, ctypes.byref(code)), "HcclGetCommAsyncError")
        return code.value

    def synchronize(self) -> tuple[int, str]:
        """aclrtSynchronizeStream's status and, on failure, its message."""
        rc = load().aclrtSynchronizeStream(self.stream)
        return rc, recent_error() if rc else ""


def _rank_main(rank: int, size: int, scenario: Any, args: tuple, env: dict, roots: Any, results: Any,
               form: str) -> None:
    import os
    import traceback

    os.environ.update(env)
    try:
        libs = load()
        check(libs.aclInit(None), "aclInit")
        hccl = load_hccl()
        if form == "root_info":
            device = rank % 2
            stream = new_stream(device)
            info = ctypes.create_string_buffer(HCCL_ROOT_INFO_BYTES)
            if rank == 0:
                hccl_check(hccl.HcclGetRootInfo(info), "HcclGetRootInfo")
                for _ in range(size - 1):
                    roots.put(info.raw)
            else:
                ctypes.memmove(info, roots.get(timeout=30), HCCL_ROOT_INFO_BYTES)
            comm = ctypes.c_void_p()
            hccl_check(hccl.HcclCommInitRootInfo(size, info, rank, ctypes.byref(comm)), "HcclCommInitRootInfo")
            ranks = [Rank(rank, size, comm.value, device, stream)]
        elif form == "rank_table":  # the table's path in RANK_TABLE_FILE, as torch_npu reads it
            device = rank % 2
            stream = new_stream(device)
            comm = ctypes.c_void_p()
            hccl_check(hccl.HcclCommInitClusterInfo(os.environ["RANK_TABLE_FILE"].encode(), rank, ctypes.byref(comm)),
                       "HcclCommInitClusterInfo")
            ranks = [Rank(rank, size, comm.value, device, stream)]
        else:  # the devices of this process (HcclCommInitAll)
            devices = (_i32 * size)(*range(size))
            comms = (ctypes.c_void_p * size)()
            hccl_check(hccl.HcclCommInitAll(size, devices, comms), "HcclCommInitAll")
            ranks = [Rank(r, size, comms[r], r, new_stream(r)) for r in range(size)]
        result = ("ok", scenario(ranks, *args))
        for r in ranks:
            if r.comm is not None:  # None: the scenario destroyed it
                hccl_check(hccl.HcclCommDestroy(r.comm), "HcclCommDestroy")
    except BaseException:
        result = ("error", traceback.format_exc())
    results.put((rank, result))


def run_ranks(size: int, scenario: Any, *args: Any, env: Optional[dict] = None, timeout: float = 60.0,
              form: str = "root_info") -> list:
    """Runs `scenario(ranks, *args)` on each rank of a communicator of `size` ranks and returns what
    each returned (None for a rank whose process ended without answering).

    form "root_info": one process per rank (multiprocessing, spawn), rank 0's root info handed to
    the others through a queue, `ranks` the process's one Rank. form "rank_table": the same, each
    process joining through the rank table in env's RANK_TABLE_FILE. form "devices": one process whose
    devices are the ranks (HcclCommInitAll), `ranks` all of them; the result is then a list of one.
    Each communicator is destroyed after the scenario unless it set the Rank's `comm` to None.
    Every wait is bounded: processes still running at `timeout` are killed and reported.
    """
    import multiprocessing
    import queue
    import time

    ctx = multiprocessing.get_context("spawn")
    env = {"ASCEND_SIM_DEVICE_COUNT": str(max(size, 2)), **(env or {})}
    roots, results = ctx.Queue(), ctx.Queue()
    count = 1 if form == "devices" else size
    procs = [ctx.Process(target=_rank_main, args=(r, size, scenario, args, env, roots, results, form), daemon=True)
             for r in range(count)]
    for p in procs:
        p.start()
    answers: dict = {}
    deadline = time.monotonic() + timeout
    try:
        while len(answers) < count and time.monotonic() < deadline:
            try:
                rank, answer = results.get(timeout=0.1)
                answers[rank] = answer
            except queue.Empty:
                if not any(p.is_alive() for p in procs):
                    try:  # what the last of them put before exiting
                        while True:
                            rank, answer = results.get(timeout=0.5)
                            answers[rank] = answer
                    except queue.Empty:
                        break
    finally:
        stragglers = []
        for r, p in enumerate(procs):
            p.join(timeout=max(0.1, deadline - time.monotonic()))
            if p.is_alive():
                stragglers.append(r)
                p.kill()
                p.join(5)
    assert not stragglers, f"ranks {stragglers} still ran after {timeout} s and were killed"
    out = []
    for r in range(count):
        answer = answers.get(r)
        if answer is not None and answer[0] == "error":
            raise AssertionError(f"rank {r} failed:\n{answer[1]}")
        out.append(None if answer is None else answer[1])
    return out
