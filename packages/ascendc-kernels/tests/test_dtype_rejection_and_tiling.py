"""Every aclnn entry point rejects an unsupported dtype in its first phase
with ACLNN_ERR_PARAM_INVALID and a message naming the api, the argument and the dtype;
every kernel's launch is tiled from the input size and the core count (one block for a
tiny input, every core for a large one)."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np
import pytest

F32, I32, U32, BOOL = sim.ACL_FLOAT, sim.ACL_INT32, sim.ACL_UINT32, sim.ACL_BOOL
I64, U8, C64 = sim.ACL_INT64, sim.ACL_UINT8, sim.ACL_COMPLEX64

_vp, _i64, _u64 = ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64
# Prototypes that testing.py's _ACLNN_ARGS does not set (as in test_aclnn_index.py).
_ARGS = {
    "aclnnIndexSelect": [_vp, _i64, _vp, _vp],
    "aclnnEmbeddingDenseBackward": [_vp, _vp, _u64, _i64, ctypes.c_bool, _vp],
    "aclnnCat": [_vp, _i64, _vp],
    "aclnnArange": [_vp, _vp, _vp, _vp],
    "aclnnConvolution": [_vp, _vp, _vp, _vp, _vp, _vp, ctypes.c_bool, _vp, _i64, _vp, ctypes.c_int8],
    "aclnnConvolutionBackward": [_vp, _vp, _vp, _vp, _vp, _vp, _vp, ctypes.c_bool, _vp, _i64, _vp, ctypes.c_int8,
                                 _vp, _vp, _vp],
    "aclnnMaxPool2dWithIndices": [_vp, _vp, _vp, _vp, _vp, ctypes.c_bool, _vp, _vp],
    "aclnnMaxPool2dWithIndicesBackward": [_vp, _vp, _vp, _vp, _vp, _vp, _vp, ctypes.c_bool, _vp],
    "aclnnGather": [_vp, _i64, _vp, _vp],
    "aclnnScatter": [_vp, _i64, _vp, _vp, _i64, _vp],
    "aclnnScatterValue": [_vp, _i64, _vp, _vp, _i64, _vp],
    "aclnnScatterAdd": [_vp, _i64, _vp, _vp, _vp],
    "aclnnIndexAdd": [_vp, _i64, _vp, _vp, _vp, _vp],
}


@pytest.fixture(scope="module", autouse=True)
def _prototypes(acl):
    libs = sim.load()
    for name, args in _ARGS.items():
        ws = getattr(libs.opapi, name + "GetWorkspaceSize")
        ws.restype = ctypes.c_int
        ws.argtypes = args + [ctypes.POINTER(_u64), ctypes.POINTER(_vp)]
    for name, restype, args in [("aclCreateTensorList", _vp, [ctypes.POINTER(_vp), _u64]),
                                ("aclDestroyTensorList", ctypes.c_int, [_vp])]:
        fn = getattr(libs.acl, name)
        fn.restype, fn.argtypes = restype, args


class Args:
    """Device tensors of 8 float32 slots described with any dtype (the check runs before any access)."""

    def __init__(self) -> None:
        self.arrays: list[sim.DeviceArray] = []
        self.lists: list = []

    def t(self, acl_type: int, shape=(2, 4)) -> int:
        array = sim.DeviceArray.empty((int(np.prod(shape)) * 2,), sim.ACL_FLOAT)  # room for 8-byte types
        self.arrays.append(array)
        strides, step = [], 1
        for d in reversed(shape):
            strides.insert(0, step)
            step *= d
        return array.tensor(shape=shape, strides=strides, acl_type=acl_type)

    def tensors(self, *handles: int) -> int:
        """An aclTensorList of the handles (never destroyed: aclDestroyTensorList deletes its tensors, which
        their DeviceArrays own)."""
        array = (ctypes.c_void_p * len(handles))(*handles)
        self.lists.append(array)
        return sim.load().aclCreateTensorList(array, len(handles))


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
    # sum and amax take every numeric dtype (and bool): a complex tensor is rejected
    "aclnnReduceSum": ("self", "ACL_COMPLEX64",
                       lambda a: [a.t(C64), sim.IntArray([1]), False, F32, a.t(F32, (2,))]),
    "aclnnAmax": ("self", "ACL_COMPLEX64", lambda a: [a.t(C64), sim.IntArray([1]), False, a.t(F32, (2,))]),
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
    # --- elementwise / activations / comparisons ---
    # bool has no negation or relu kernel (torch: `-` on a bool tensor is an error)
    "aclnnNeg": ("self", "ACL_BOOL", lambda a: [a.t(BOOL), a.t(BOOL)]),
    "aclnnInplaceNeg": ("selfRef", "ACL_BOOL", lambda a: [a.t(BOOL)]),
    "aclnnRelu": ("self", "ACL_BOOL", lambda a: [a.t(BOOL), a.t(BOOL)]),
    "aclnnInplaceRelu": ("selfRef", "ACL_BOOL", lambda a: [a.t(BOOL)]),
    # the floating ops compute integral inputs in float32; an unsigned 32-bit tensor has no kernel
    "aclnnExp": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceExp": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnLog": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceLog": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnSqrt": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceSqrt": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnRsqrt": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceRsqrt": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnReciprocal": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceReciprocal": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnTanh": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceTanh": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnSigmoid": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceSigmoid": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnSilu": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceSilu": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnGelu": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnGeluV2": ("self", "ACL_UINT32", lambda a: [a.t(U32), 0, a.t(F32)]),
    "aclnnPowTensorScalar": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0), a.t(F32)]),
    "aclnnInplacePowTensorScalar": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0)]),
    "aclnnSub": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), sim.Scalar(1), a.t(F32)]),
    "aclnnInplaceSub": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), sim.Scalar(1)]),
    "aclnnDiv": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnInplaceDiv": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnMaximum": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnMinimum": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), a.t(F32)]),
    "aclnnClampMinTensor": ("min", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnAdds": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0), sim.Scalar(1), a.t(F32)]),
    "aclnnInplaceAdds": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0), sim.Scalar(1)]),
    "aclnnSubs": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0), sim.Scalar(1), a.t(F32)]),
    "aclnnInplaceSubs": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0), sim.Scalar(1)]),
    "aclnnMuls": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0), a.t(F32)]),
    "aclnnInplaceMuls": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0)]),
    "aclnnDivs": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0), a.t(F32)]),
    "aclnnInplaceDivs": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(2.0)]),
    "aclnnAddcmul": ("tensor2", "ACL_UINT32",
                   lambda a: [a.t(F32), a.t(F32), a.t(U32), sim.Scalar(0.5), a.t(F32)]),
    "aclnnInplaceAddcmul": ("tensor1", "ACL_UINT32",
                          lambda a: [a.t(F32), a.t(U32), a.t(F32), sim.Scalar(0.5)]),
    "aclnnAddcdiv": ("tensor2", "ACL_UINT32",
                   lambda a: [a.t(F32), a.t(F32), a.t(U32), sim.Scalar(0.5), a.t(F32)]),
    "aclnnInplaceAddcdiv": ("tensor1", "ACL_UINT32",
                          lambda a: [a.t(F32), a.t(U32), a.t(F32), sim.Scalar(0.5)]),
    "aclnnLerp": ("weight", "ACL_UINT32", lambda a: [a.t(F32), a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnInplaceLerp": ("end", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnLerps": ("end", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), sim.Scalar(0.5), a.t(F32)]),
    "aclnnInplaceLerps": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), sim.Scalar(0.5)]),
    "aclnnThresholdBackward": ("gradOutput", "ACL_UINT32",
                               lambda a: [a.t(U32), a.t(F32), sim.Scalar(0.0), a.t(F32)]),
    "aclnnGeluBackward": ("self", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnGeluBackwardV2": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), b"none", a.t(F32)]),
    "aclnnSigmoidBackward": ("output", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnTanhBackward": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), a.t(F32)]),
    "aclnnSiluBackward": ("self", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(F32)]),
    "aclnnEqTensor": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(BOOL)]),
    "aclnnEqScalar": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(BOOL)]),
    "aclnnNeTensor": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(BOOL)]),
    "aclnnNeScalar": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(BOOL)]),
    "aclnnLtTensor": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(BOOL)]),
    "aclnnLtScalar": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(BOOL)]),
    "aclnnLeTensor": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(BOOL)]),
    "aclnnLeScalar": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(BOOL)]),
    "aclnnGtTensor": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(BOOL)]),
    "aclnnGtScalar": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(BOOL)]),
    "aclnnGeTensor": ("other", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(BOOL)]),
    "aclnnGeScalar": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(BOOL)]),
    # compares, logical_not, cat, copy, fill and where take every dtype of kAllDtypes; uint32 is outside it
    "aclnnLogicalNot": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(BOOL)]),
    # the condition / mask of where and masked_fill must be bool
    "aclnnSWhere": ("condition", "ACL_UINT8", lambda a: [a.t(U8), a.t(F32), a.t(F32), a.t(F32)]),
    "aclnnInplaceMaskedFillScalar": ("mask", "ACL_INT32", lambda a: [a.t(F32), a.t(I32), sim.Scalar(1.0)]),
    "aclnnInplaceMaskedFillTensor": ("mask", "ACL_INT32", lambda a: [a.t(F32), a.t(I32), a.t(F32, ())]),
    # --- reductions / normalization: floating point only, except amin (every numeric dtype) ---
    "aclnnLogSoftmax": ("self", "ACL_INT32", lambda a: [a.t(I32), -1, a.t(I32)]),
    "aclnnSoftmaxBackward": ("gradOutput", "ACL_INT32", lambda a: [a.t(I32), a.t(F32), -1, a.t(F32)]),
    "aclnnLogSoftmaxBackward": ("output", "ACL_INT32", lambda a: [a.t(F32), a.t(I32), -1, a.t(F32)]),
    "aclnnMean": ("self", "ACL_INT32", lambda a: [a.t(I32), sim.IntArray([1]), False, F32, a.t(F32, (2,))]),
    "aclnnAmin": ("self", "ACL_COMPLEX64", lambda a: [a.t(C64), sim.IntArray([1]), False, a.t(F32, (2,))]),
    "aclnnLayerNormBackward": ("input", "ACL_INT32", lambda a: [
        a.t(F32), a.t(I32), sim.IntArray([4]), a.t(F32, (2, 1)), a.t(F32, (2, 1)), a.t(F32, (4,)), a.t(F32, (4,)),
        sim.BoolArray([True, True, True]), a.t(F32), a.t(F32, (4,)), a.t(F32, (4,))]),
    "aclnnGroupNorm": ("self", "ACL_INT32", lambda a: [
        a.t(I32, (2, 4, 3)), a.t(F32, (4,)), a.t(F32, (4,)), 2, 4, 3, 2, 1e-5, a.t(F32, (2, 4, 3)), a.t(F32, (2, 2)),
        a.t(F32, (2, 2))]),
    "aclnnGroupNormBackward": ("input", "ACL_INT32", lambda a: [
        a.t(F32, (2, 4, 3)), a.t(I32, (2, 4, 3)), a.t(F32, (2, 2)), a.t(F32, (2, 2)), a.t(F32, (4,)), 2, 4, 3, 2,
        sim.BoolArray([True, True, True]), a.t(F32, (2, 4, 3)), a.t(F32, (4,)), a.t(F32, (4,))]),
    "aclnnBatchNorm": ("input", "ACL_INT32", lambda a: [
        a.t(I32, (2, 3, 4)), a.t(F32, (3,)), a.t(F32, (3,)), a.t(F32, (3,)), a.t(F32, (3,)), True, 0.1, 1e-5,
        a.t(F32, (2, 3, 4)), a.t(F32, (3,)), a.t(F32, (3,))]),
    "aclnnBatchNormBackward": ("gradOut", "ACL_INT32", lambda a: [
        a.t(I32, (2, 3, 4)), a.t(F32, (2, 3, 4)), a.t(F32, (3,)), a.t(F32, (3,)), a.t(F32, (3,)), a.t(F32, (3,)),
        a.t(F32, (3,)), True, 1e-5, sim.BoolArray([True, True, True]), a.t(F32, (2, 3, 4)), a.t(F32, (3,)),
        a.t(F32, (3,))]),
    "aclnnNLLLoss": ("target", "ACL_FLOAT",
                     lambda a: [a.t(F32), a.t(F32, (2,)), a.t(F32, (4,)), 1, -100, a.t(F32, ()), a.t(F32, ())]),
    "aclnnNLLLossBackward": ("gradOutput", "ACL_INT32", lambda a: [
        a.t(I32, ()), a.t(F32), a.t(I64, (2,)), a.t(F32, (4,)), 1, -100, a.t(F32, ()), a.t(F32)]),
    # --- indexing, cat, arange, convolution, pooling: indices must be int32/int64 ---
    "aclnnIndexSelect": ("index", "ACL_FLOAT", lambda a: [a.t(F32), 0, a.t(F32, (2,)), a.t(F32)]),
    "aclnnEmbeddingDenseBackward": ("indices", "ACL_FLOAT",
                                    lambda a: [a.t(F32, (3, 4)), a.t(F32, (3,)), 5, -1, False, a.t(F32, (5, 4))]),
    "aclnnGather": ("index", "ACL_FLOAT", lambda a: [a.t(F32), 1, a.t(F32), a.t(F32)]),
    "aclnnScatter": ("index", "ACL_FLOAT", lambda a: [a.t(F32), 1, a.t(F32), a.t(F32), 0, a.t(F32)]),
    "aclnnScatterValue": ("index", "ACL_FLOAT", lambda a: [a.t(F32), 1, a.t(F32), sim.Scalar(1.0), 0, a.t(F32)]),
    "aclnnScatterAdd": ("index", "ACL_FLOAT", lambda a: [a.t(F32), 1, a.t(F32), a.t(F32), a.t(F32)]),
    "aclnnIndexAdd": ("index", "ACL_FLOAT",
                      lambda a: [a.t(F32), 0, a.t(F32, (2,)), a.t(F32), sim.Scalar(1.0), a.t(F32)]),
    "aclnnCat": ("tensors[1]", "ACL_UINT32", lambda a: [a.tensors(a.t(F32), a.t(U32)), 0, a.t(F32, (4, 4))]),
    "aclnnArange": ("out", "ACL_BOOL", lambda a: [sim.Scalar(0), sim.Scalar(4), sim.Scalar(1), a.t(BOOL, (4,))]),
    "aclnnConvolution": ("input", "ACL_INT32", lambda a: [
        a.t(I32, (1, 1, 3, 3)), a.t(F32, (1, 1, 2, 2)), None, sim.IntArray([1, 1]), sim.IntArray([0, 0]),
        sim.IntArray([1, 1]), False, sim.IntArray([0, 0]), 1, a.t(F32, (1, 1, 2, 2)), 0]),
    "aclnnConvolutionBackward": ("input", "ACL_INT32", lambda a: [
        a.t(F32, (1, 1, 2, 2)), a.t(I32, (1, 1, 3, 3)), a.t(F32, (1, 1, 2, 2)), sim.IntArray([1]),
        sim.IntArray([1, 1]), sim.IntArray([0, 0]), sim.IntArray([1, 1]), False, sim.IntArray([0, 0]), 1,
        sim.BoolArray([True, True, True]), 0, a.t(F32, (1, 1, 3, 3)), a.t(F32, (1, 1, 2, 2)), a.t(F32, (1,))]),
    "aclnnMaxPool2dWithIndices": ("self", "ACL_INT32", lambda a: [
        a.t(I32, (1, 1, 4, 4)), sim.IntArray([2, 2]), sim.IntArray([2, 2]), sim.IntArray([0, 0]),
        sim.IntArray([1, 1]), False, a.t(I32, (1, 1, 2, 2)), a.t(I64, (1, 1, 2, 2))]),
    # indices must be the int64 or int32 of the forward
    "aclnnMaxPool2dWithIndicesBackward": ("indices", "ACL_UINT8", lambda a: [
        a.t(F32, (1, 1, 2, 2)), a.t(F32, (1, 1, 4, 4)), a.t(U8, (1, 1, 2, 2)), sim.IntArray([2, 2]),
        sim.IntArray([2, 2]), sim.IntArray([0, 0]), sim.IntArray([1, 1]), False, a.t(F32, (1, 1, 4, 4))]),
    # --- attention masks: tril / isneginf / all ---
    "aclnnTril": ("self", "ACL_UINT32", lambda a: [a.t(U32), 0, a.t(U32)]),
    "aclnnInplaceTril": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), 0]),
    "aclnnIsNegInf": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(BOOL)]),
    "aclnnAll": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.IntArray([1]), False, a.t(BOOL, (2,))]),
    # --- complex: FFT, complex numbers from real parts, angle and sgn ---
    "aclnnFftC2C": ("self", "ACL_FLOAT", lambda a: [a.t(F32), sim.IntArray([1]), 0, True, a.t(C64)]),
    "aclnnFftR2C": ("self", "ACL_INT32", lambda a: [a.t(I32), sim.IntArray([1]), 0, True, a.t(C64, (2, 3))]),
    "aclnnFftC2R": ("self", "ACL_FLOAT", lambda a: [a.t(F32), sim.IntArray([1]), 0, 4, a.t(F32)]),
    "aclnnComplex": ("real", "ACL_INT32", lambda a: [a.t(I32), a.t(I32), a.t(C64)]),
    "aclnnPolar": ("angle", "ACL_UINT32", lambda a: [a.t(F32), a.t(U32), a.t(C64)]),
    "aclnnAngleV2": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnSgn": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(U32)]),
    # --- unary math, activations, special functions: an unsigned 32-bit tensor has no kernel ---
    "aclnnSin": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceSin": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnCos": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceCos": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnTan": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceTan": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnAsin": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceAsin": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnAcos": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceAcos": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnAtan": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceAtan": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnSinh": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceSinh": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnCosh": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceCosh": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnAsinh": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceAsinh": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnAcosh": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceAcosh": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnAtanh": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceAtanh": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnErf": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceErf": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnErfc": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceErfc": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnErfinv": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceErfinv": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnExpm1": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceExpm1": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnLog1p": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceLog1p": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnLog2": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceLog2": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnLog10": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceLog10": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnExp2": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceExp2": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnFrac": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceFrac": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnSinc": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceSinc": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnLgamma": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceLgamma": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnDigamma": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceDigamma": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnCeil": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceCeil": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnFloor": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceFloor": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnRound": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceRound": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnRoundDecimals": ("self", "ACL_UINT32", lambda a: [a.t(U32), 1, a.t(F32)]),
    "aclnnInplaceRoundDecimals": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), 1]),
    "aclnnTrunc": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceTrunc": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnSign": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnBitwiseNot": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnLogit": ("self", "ACL_UINT32", lambda a: [a.t(U32), 0.5, a.t(F32)]),
    "aclnnNanToNum": ("self", "ACL_UINT32", lambda a: [a.t(U32), 0.5, 0.5, 0.5, a.t(F32)]),
    "aclnnInplaceNanToNum": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), 0.5, 0.5, 0.5]),
    "aclnnSignbit": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(BOOL)]),
    "aclnnIsPosInf": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(BOOL)]),
    "aclnnLogitGrad": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), 0.5, a.t(F32)]),
    "aclnnI0": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceI0": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnI0e": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnI1": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnI1e": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnBesselJ0": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnBesselJ1": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnBesselY0": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnBesselY1": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnModifiedBesselK0": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnModifiedBesselK1": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnScaledModifiedBesselK0": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnScaledModifiedBesselK1": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnSphericalBesselJ0": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnAiryAi": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnErfcx": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnNdtri": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnLogNdtr": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnEntr": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnPolygamma": ("self", "ACL_UINT32", lambda a: [1, a.t(U32), a.t(F32)]),
    "aclnnElu": ("self", "ACL_UINT32",
        lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0), sim.Scalar(1.0), a.t(F32)]),
    "aclnnInplaceElu": ("selfRef", "ACL_UINT32",
        lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0), sim.Scalar(1.0)]),
    "aclnnEluBackward": ("gradOutput", "ACL_UINT32",
        lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0), sim.Scalar(1.0), False, a.t(F32), a.t(F32)]),
    "aclnnHardtanh": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0), a.t(F32)]),
    "aclnnInplaceHardtanh": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0)]),
    "aclnnHardtanhBackward": ("gradOutput", "ACL_UINT32",
        lambda a: [a.t(U32), a.t(F32), sim.Scalar(1.0), sim.Scalar(1.0), a.t(F32)]),
    "aclnnLeakyRelu": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(F32)]),
    "aclnnInplaceLeakyRelu": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0)]),
    "aclnnLeakyReluBackward": ("gradOutput", "ACL_UINT32",
        lambda a: [a.t(U32), a.t(F32), sim.Scalar(1.0), False, a.t(F32)]),
    "aclnnHardsigmoid": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceHardsigmoid": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnHardsigmoidBackward": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), a.t(F32)]),
    "aclnnHardswish": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceHardswish": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnHardswishBackward": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), a.t(F32)]),
    "aclnnHardshrink": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(F32)]),
    "aclnnHardshrinkBackward": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), sim.Scalar(1.0), a.t(F32)]),
    "aclnnSoftshrink": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), a.t(F32)]),
    "aclnnSoftshrinkBackward": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), sim.Scalar(1.0), a.t(F32)]),
    "aclnnSoftplus": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0), a.t(F32)]),
    "aclnnSoftplusBackward": ("gradOutput", "ACL_UINT32",
        lambda a: [a.t(U32), a.t(F32), sim.Scalar(1.0), sim.Scalar(1.0), a.t(F32)]),
    "aclnnMish": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32)]),
    "aclnnInplaceMish": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32)]),
    "aclnnMishBackward": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), a.t(F32)]),
    "aclnnLogSigmoidForward": ("self", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), a.t(F32, (0,))]),
    "aclnnLogSigmoidBackward": ("gradOutput", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), a.t(F32, (0,)), a.t(F32)]),
    "aclnnThreshold": ("self", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0), a.t(F32)]),
    "aclnnInplaceThreshold": ("selfRef", "ACL_UINT32", lambda a: [a.t(U32), sim.Scalar(1.0), sim.Scalar(1.0)]),
    "aclnnGlu": ("self", "ACL_UINT32", lambda a: [a.t(U32), 1, a.t(F32, (2, 2))]),
    "aclnnGluBackward": ("gradOut", "ACL_UINT32", lambda a: [a.t(U32), a.t(F32), 1, a.t(F32)]),
}


# The apis without a written case get one built from their declaration (abi/aclnn/*.decl): every
# tensor float32 of `shape` except the rejected one (the first input tensor, else the first
# output) in uint32, scalars 1.0, int arrays [1], integers 1, floats 1.0, bools false. HINTS
# give the shapes and values an api checks before the dtypes.
HINTS: dict[str, dict] = {
    **{f"aclnn{n}Backward": {"shape": (1, 2, 4, 4)} for n in ("AdaptiveAvgPool2d", "AdaptiveMaxPool2d")},
    **{f"aclnn{n}Backward": {"shape": (1, 2, 4, 4, 4)} for n in ("AdaptiveAvgPool3d", "AdaptiveMaxPool3d")},
    "aclnnAvgPool2dBackward": {"shape": (1, 2, 4, 4), "arrays": {"kernelSize": [2, 2]}},
    "aclnnAvgPool3dBackward": {"shape": (1, 2, 4, 4, 4), "arrays": {"kernelSize": [2, 2, 2]}},
    "aclnnMaxPool3dWithArgmaxBackward": {"shape": (1, 2, 4, 4, 4), "arrays": {"kernelSize": [2, 2, 2]}},
    **{f"aclnn{n}Pad1dBackward": {"shape": (1, 2, 4), "arrays": {"padding": [1, 1]}}
       for n in ("Reflection", "Replication")},
    **{f"aclnn{n}Pad2dBackward": {"shape": (1, 2, 4, 4), "arrays": {"padding": [1] * 4}}
       for n in ("Reflection", "Replication")},
    **{f"aclnn{n}Pad3dBackward": {"shape": (1, 2, 4, 4, 4), "arrays": {"padding": [1] * 6}}
       for n in ("Reflection", "Replication")},
    "aclnnBucketize": {"shape": (4,)},
    "aclnnNLLLoss2dBackward": {"rejected": "target"},
    "aclnnRsub": {"scalars": {"alpha": 1}},
    "aclnnThnnFusedLstmCellBackward": {"shapes": {"storage": (2, 16), "gradGates": (2, 16), "gradBias": (16,)}},
    "aclnnUniqueConsecutive": {"values": {"dim": 1000}},
    **{f"aclnnUpsample{n}": {"shape": (1, 2, 4), "arrays": {"outputSize": [4], "inputSize": [1, 2, 2]}}
       for n in ("Linear1dBackward", "Nearest1dBackward", "NearestExact1dBackward")},
    **{f"aclnnUpsample{n}": {"shape": (1, 2, 4, 4), "arrays": {"outputSize": [4, 4], "inputSize": [1, 2, 2, 2]}}
       for n in ("Bicubic2dAAGrad", "Bicubic2dBackward", "Bilinear2dAABackward", "Bilinear2dBackward",
                 "Nearest2dBackward", "NearestExact2dBackward")},
    **{f"aclnnUpsample{n}": {"shape": (1, 2, 4, 4, 4),
                            "arrays": {"outputSize": [4, 4, 4], "inputSize": [1, 2, 2, 2, 2]}}
       for n in ("Nearest3dBackward", "NearestExact3dBackward", "Trilinear3dBackward")},
}
_TENSORS = ("const aclTensor*", "aclTensor*")
_LISTS = ("const aclTensorList*", "aclTensorList*")


def _declared_apis() -> dict:
    import sys
    from pathlib import Path

    abi_dir = str(Path(sim.__file__).resolve().parent.parent / "abi")
    if abi_dir not in sys.path:
        sys.path.insert(0, abi_dir)
    import aclnn_abi

    return {api.name: api for api in aclnn_abi.apis(aclnn_abi.load())}


def _from_declaration(api) -> tuple:
    """(rejected argument, "ACL_UINT32", builder) for a declared api."""
    hints = HINTS.get(api.name, {})
    inputs = [p for p in api.params if p.type in _TENSORS + _LISTS and p.direction in ("in", "inout")]
    outputs = [p for p in api.params if p.type in _TENSORS + _LISTS and p.direction == "out"]
    rejected = hints.get("rejected") or (inputs or outputs)[0].name

    def build(a: Args) -> list:
        args = []
        for p in api.params:
            shape = hints.get("shapes", {}).get(p.name, hints.get("shape", (2, 4)))
            dtype = U32 if p.name == rejected else F32
            if p.type in _TENSORS:
                args.append(a.t(dtype, shape))
            elif p.type in _LISTS:
                args.append(a.tensors(a.t(dtype, shape)))
            elif p.type == "const aclScalar*":
                args.append(sim.Scalar(hints.get("scalars", {}).get(p.name, 1.0)))
            elif p.type == "const aclIntArray*":
                args.append(sim.IntArray(hints.get("arrays", {}).get(p.name, [1])))
            elif p.type == "const aclBoolArray*":
                args.append(sim.BoolArray([True]))
            elif p.type == "bool":
                args.append(False)
            elif p.type in ("int8_t", "int32_t", "int64_t", "uint64_t"):
                args.append(hints.get("values", {}).get(p.name, 1))
            elif p.type in ("float", "double"):
                args.append(1.0)
            elif p.type in ("const char*", "char*"):
                args.append(b"none")
            elif p.type == "aclDataType":
                args.append(F32)
            else:
                raise TypeError(f"{api.name}: no value for {p.type} {p.name}")
        return args

    return rejected, "ACL_UINT32", build


DECLARED = _declared_apis()
CASES.update({name: _from_declaration(api) for name, api in DECLARED.items() if name not in CASES})


def test_every_aclnn_entry_point_has_a_dtype_rejection_case():
    """Every aclnn*GetWorkspaceSize of the public headers has a case (written, or from its declaration)."""
    import re
    from pathlib import Path

    import ascendc_kernels

    declared = set()
    for header in (Path(ascendc_kernels.get_include()) / "aclnnop").glob("aclnn_*.h"):
        declared |= set(re.findall(r"\b(aclnn\w+)GetWorkspaceSize\(", header.read_text()))
    assert declared == set(CASES) == set(DECLARED), (sorted(declared - set(CASES)), sorted(set(CASES) - declared))


# Known defects in the C++ (reported, not fixed here): strict, so a fix turns them into failures to remove.
# Entry points whose rejection is known to be wrong (strict xfail: a fix shows up as a failure).
DEFECTS: dict[str, str] = {}


@pytest.mark.parametrize("api", [pytest.param(api, marks=pytest.mark.xfail(strict=True, reason=DEFECTS[api]))
                                 if api in DEFECTS else api for api in sorted(CASES)])
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
    # --- attention masks ---
    "tril_custom": (_unary("aclnnTril", "tril_custom", (1, 7), (0,)),
                    _unary("aclnnTril", "tril_custom", (4096, 256), (0,))),
}


@pytest.mark.parametrize("kernel", sorted(TILED))
def test_block_count_follows_input_size_and_cores(acl, kernel):
    cores = acl.aclsimGetCoreNumAiv()
    small, large = TILED[kernel]
    assert small(acl) == 1
    assert large(acl) == cores
