"""Issue 7 audit: every aclnn entry point rejects an unsupported dtype in its first phase
with ACLNN_ERR_PARAM_INVALID and a message naming the api, the argument and the dtype;
every kernel's launch is tiled from the input size and the core count (one block for a
tiny input, every core for a large one)."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from ascendc_kernels import testing as sim

F32, I32, U32, BOOL = sim.ACL_FLOAT, sim.ACL_INT32, sim.ACL_UINT32, sim.ACL_BOOL


class Args:
    """Device tensors of 8 float32 slots described with any dtype (the check runs before any access)."""

    def __init__(self) -> None:
        self.arrays: list[sim.DeviceArray] = []

    def t(self, acl_type: int, shape=(2, 4)) -> int:
        array = sim.DeviceArray.empty((int(np.prod(shape)) * 2,), sim.ACL_FLOAT)  # room for 8-byte types
        self.arrays.append(array)
        strides, step = [], 1
        for d in reversed(shape):
            strides.insert(0, step)
            step *= d
        return array.tensor(shape=shape, strides=strides, acl_type=acl_type)


# api -> (argument named in the message, the rejected dtype's name, builder of the GetWorkspaceSize args)
CASES = {
    "aclnnAbs": ("self", "ACL_BOOL", lambda a: [a.t(BOOL), a.t(BOOL)]),
    "aclnnAdd": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), sim.Scalar(1.0), a.t(F32)]),
    "aclnnInplaceAdd": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), sim.Scalar(1.0)]),
    "aclnnMul": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnClampMin": ("self", "ACL_BOOL", lambda a: [a.t(BOOL), sim.Scalar(0.0), a.t(BOOL)]),
    "aclnnInplaceClampMin": ("selfRef", "ACL_BOOL", lambda a: [a.t(BOOL), sim.Scalar(0.0)]),
    "aclnnInplaceCopy": ("src", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32)]),
    "aclnnInplaceFillScalar": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0)]),
    "aclnnInplaceZero": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnInplaceUniform": ("selfRef", "ACL_INT32", lambda a: [a.t(I32), 0.0, 1.0, 1, 0]),
    "aclnnInplaceNormal": ("selfRef", "ACL_INT32", lambda a: [a.t(I32), 0.0, 1.0, 1, 0]),
    "aclnnInplaceBernoulli": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(0.5), 1, 0]),
    "aclnnInplaceBernoulliTensor": ("prob", "ACL_INT32", lambda a: [a.t(F32), a.t(I32), 1, 0]),
    "aclnnDropoutGenMask": ("out", "ACL_FLOAT", lambda a: [sim.IntArray([2, 4]), 0.5, 1, 0, a.t(F32, (32,))]),
    "aclnnDropoutDoMask": ("self", "ACL_INT32", lambda a: [a.t(I32), a.t(sim.ACL_UINT8, (32,)), 0.5, a.t(I32)]),
    "aclnnMaskedScale": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(sim.ACL_UINT8), 2.0, a.t(U32)]),
    "aclnnSoftmax": ("self", "ACL_INT32", lambda a: [a.t(I32), -1, a.t(I32)]),
    "aclnnLayerNorm": ("input", "ACL_INT32",
                       lambda a: [a.t(I32), sim.IntArray([4]), None, None, 1e-5, a.t(I32), None, None]),
    "aclnnReduceSum": ("self", "ACL_INT32", lambda a: [a.t(I32), sim.IntArray([1]), False, F32, a.t(F32, (2,))]),
    "aclnnAmax": ("self", "ACL_INT32", lambda a: [a.t(I32), sim.IntArray([1]), False, a.t(I32, (2,))]),
    "aclnnMm": ("self", "ACL_INT32", lambda a: [a.t(I32, (2, 2)), a.t(I32, (2, 2)), a.t(I32, (2, 2)), 0]),
    "aclnnMatmul": ("self", "ACL_INT32", lambda a: [a.t(I32, (2, 2)), a.t(I32, (2, 2)), a.t(I32, (2, 2)), 0]),
    "aclnnBmm": ("self", "ACL_INT32",
                 lambda a: [a.t(I32, (1, 2, 2)), a.t(I32, (1, 2, 2)), a.t(I32, (1, 2, 2)), 0]),
    "aclnnMv": ("vec", "ACL_INT32", lambda a: [a.t(F32, (2, 2)), a.t(I32, (2,)), a.t(F32, (2,)), 0]),
    "aclnnDot": ("self", "ACL_INT32", lambda a: [a.t(I32, (2,)), a.t(I32, (2,)), a.t(I32, ())]),
    "aclnnAddmm": ("self", "ACL_INT32", lambda a: [a.t(I32, (2, 2)), a.t(F32, (2, 2)), a.t(F32, (2, 2)),
                                                   sim.Scalar(1.0), sim.Scalar(1.0), a.t(F32, (2, 2)), 0]),
    "aclnnBaddbmm": ("batch2", "ACL_INT32", lambda a: [a.t(F32, (1, 2, 2)), a.t(F32, (1, 2, 2)),
                                                       a.t(I32, (1, 2, 2)), sim.Scalar(1.0), sim.Scalar(1.0),
                                                       a.t(F32, (1, 2, 2)), 0]),
    # --- attention masks: tril / isneginf / all (s3-sdpa) ---
    "aclnnTril": ("self", "ACL_UINT32", lambda a: [a.t(U32), 0, a.t(U32)]),
    "aclnnInplaceTril": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), 0]),
    "aclnnIsNegInf": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(BOOL)]),
    "aclnnAll": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.IntArray([1]), False, a.t(BOOL, (2,))]),
}


def test_every_aclnn_entry_point_is_audited():
    """New entry points must join CASES (the aclnn*GetWorkspaceSize declarations of the public headers)."""
    import re
    from pathlib import Path

    import ascendc_kernels

    declared = set()
    for header in (Path(ascendc_kernels.get_include()) / "aclnnop").glob("aclnn_*.h"):
        declared |= set(re.findall(r"\b(aclnn\w+)GetWorkspaceSize\(", header.read_text()))
    assert declared == set(CASES), (sorted(declared - set(CASES)), sorted(set(CASES) - declared))


@pytest.mark.parametrize("api", sorted(CASES))
def test_unsupported_dtype_is_rejected_with_a_message(acl, api):
    arg_name, dtype_name, build = CASES[api]
    holder = Args()
    args = build(holder)
    rc, _, executor = sim.aclnn_workspace(api, *args)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID, (api, rc, sim.recent_error())
    assert executor is None
    message = sim.recent_error()
    assert message.startswith(f"{api}: "), message
    assert arg_name in message and dtype_name in message, message


# ---- tiling: the block count follows the input size and the core count ----
class _KernelRecord(ctypes.Structure):
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


def _launches(acl, run) -> dict[str, int]:
    """kernel name -> block count of the kernels `run` launched (recorded by ascendc_sim/prof.h)."""
    lib = acl.acl
    lib.aclsimProfTakeRecords.restype = ctypes.c_size_t
    lib.aclsimProfTakeRecords.argtypes = [ctypes.POINTER(_KernelRecord), ctypes.c_size_t]
    sim.check(lib.aclsimProfStart())
    try:
        run()
        sim.check(acl.aclrtSynchronizeDevice())
    finally:
        sim.check(lib.aclsimProfStop())
    buffer = (_KernelRecord * 64)()
    n = lib.aclsimProfTakeRecords(buffer, 64)
    return {buffer[i].name.decode(): buffer[i].blockDim for i in range(n)}


def _unary(api, kernel, shape, extra=()):
    def run(acl):
        x = sim.DeviceArray.from_numpy(np.ones(shape, np.float32))
        y = sim.DeviceArray.empty(shape, F32)
        return _launches(acl, lambda: sim.check(sim.run_aclnn(api, x.tensor(), *extra, y.tensor())))[kernel]
    return run


def _binary(api, kernel, shape, extra=()):
    def run(acl):
        x = sim.DeviceArray.from_numpy(np.ones(shape, np.float32))
        y = sim.DeviceArray.empty(shape, F32)
        return _launches(acl, lambda: sim.check(sim.run_aclnn(api, x.tensor(), x.tensor(), *extra, y.tensor())))[
            kernel]
    return run


def _mm(shape):
    def run(acl):
        m, k, n = shape
        a, b = sim.DeviceArray.from_numpy(np.ones((m, k), np.float32)), sim.DeviceArray.from_numpy(
            np.ones((k, n), np.float32))
        c = sim.DeviceArray.empty((m, n), F32)
        return _launches(acl, lambda: sim.check(sim.run_aclnn("aclnnMm", a.tensor(), b.tensor(), c.tensor(), 0)))[
            "matmul_custom"]
    return run


def _reduce(shape):
    def run(acl):
        x = sim.DeviceArray.from_numpy(np.ones(shape, np.float32))
        y = sim.DeviceArray.empty((shape[0],), F32)
        dims = sim.IntArray([1])
        return _launches(acl, lambda: sim.check(sim.run_aclnn("aclnnReduceSum", x.tensor(), dims, False, F32,
                                                              y.tensor())))["reduce_custom"]
    return run


TILED = {
    # kernel: (launch of a tiny input, launch of a large one)
    "add_custom": (_binary("aclnnAdd", "add_custom", (5,), (sim.Scalar(1.0),)),
                   _binary("aclnnAdd", "add_custom", (1 << 20,), (sim.Scalar(1.0),))),
    "mul_custom": (_binary("aclnnMul", "mul_custom", (5,)), _binary("aclnnMul", "mul_custom", (1 << 20,))),
    "abs_custom": (_unary("aclnnAbs", "abs_custom", (5,)), _unary("aclnnAbs", "abs_custom", (1 << 20,))),
    "softmax_custom": (_unary("aclnnSoftmax", "softmax_custom", (1, 7), (-1,)),
                       _unary("aclnnSoftmax", "softmax_custom", (4096, 256), (-1,))),
    "reduce_custom": (_reduce((1, 7)), _reduce((4096, 256))),
    "matmul_custom": (_mm((3, 5, 7)), _mm((512, 64, 512))),
    # --- attention masks (s3-sdpa) ---
    "tril_custom": (_unary("aclnnTril", "tril_custom", (1, 7), (0,)),
                    _unary("aclnnTril", "tril_custom", (4096, 256), (0,))),
}


@pytest.mark.parametrize("kernel", sorted(TILED))
def test_block_count_follows_input_size_and_cores(acl, kernel):
    cores = acl.aclsimGetCoreNumAiv()
    small, large = TILED[kernel]
    assert small(acl) == 1
    assert large(acl) == cores
