"""Indexing, cat, arange, convolution (1-3-D, plain and transposed) and pooling aclnn apis (index_select_custom,
embedding_dense_backward_custom, arange_custom, im2col_custom/col2im_custom with
matmul_custom, max_pool2d_custom) against numpy."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

_vp, _i64, _u64 = ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64
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
FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOLERANCE = {sim.ACL_FLOAT: (1e-5, 1e-4), sim.ACL_FLOAT16: (3e-3, 3e-3), sim.ACL_BF16: (2e-2, 2e-2)}


@pytest.fixture(scope="module", autouse=True)
def _prototypes(acl):
    libs = sim.load()
    for name, args in _ARGS.items():
        ws = getattr(libs.opapi, name + "GetWorkspaceSize")
        ws.restype = ctypes.c_int
        ws.argtypes = args + [ctypes.POINTER(_u64), ctypes.POINTER(_vp)]
        launch = getattr(libs.opapi, name)
        launch.restype = ctypes.c_int
        launch.argtypes = [_vp, _u64, _vp, _vp]
    for name, restype, args in [("aclCreateTensorList", _vp, [ctypes.POINTER(_vp), _u64]),
                                ("aclDestroyTensorList", ctypes.c_int, [_vp]),
                                ("aclCreateBoolArray", _vp, [ctypes.POINTER(ctypes.c_bool), _u64]),
                                ("aclDestroyBoolArray", ctypes.c_int, [_vp])]:
        fn = getattr(libs.acl, name)
        fn.restype, fn.argtypes = restype, args


def _sync_error() -> str:
    """The error a queued kernel reported ('' when none)."""
    rc = sim.load().aclrtSynchronizeDevice()
    return "" if rc == 0 else sim.recent_error()


# ---- index_select ----
@pytest.mark.parametrize("shape,dim,count", [((0,), 0, 0), ((1,), 0, 3), ((7,), 0, 5), ((4, 13), 1, 11),
                                             ((3, 5, 7), 1, 9), ((3, 5, 7), -1, 2), ((97, 331), 0, 257),
                                             ((2, 0, 3), 2, 4)])
@pytest.mark.parametrize("index_type", [sim.ACL_INT64, sim.ACL_INT32])
def test_index_select_matches_numpy(acl, shape, dim, count, index_type):
    rng = np.random.default_rng(len(shape) * 100 + count)
    x = rng.standard_normal(shape).astype(np.float32)
    size = shape[dim]
    index = rng.integers(0, max(size, 1), size=count if size else 0)
    want = np.take(x, index, axis=dim)
    dx, di = sim.DeviceArray.from_numpy(x), to_device(index, index_type)
    out = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnIndexSelect", dx.tensor(), dim, di.tensor(), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), want)


@pytest.mark.parametrize("acl_type", [sim.ACL_BOOL, sim.ACL_INT8, sim.ACL_INT16, sim.ACL_INT64, sim.ACL_FLOAT16,
                                      sim.ACL_DOUBLE])
def test_index_select_moves_every_element_size(acl, acl_type):
    rng = np.random.default_rng(acl_type)
    x = sim.random_values((6, 40), acl_type, rng)
    index = np.array([5, 0, 0, 3], dtype=np.int64)
    dx, di = to_device(x, acl_type), to_device(index, sim.ACL_INT64)
    out = sim.DeviceArray.empty((4, 40), acl_type)
    sim.check(sim.run_aclnn("aclnnIndexSelect", dx.tensor(), 0, di.tensor(), out.tensor()))
    np.testing.assert_array_equal(from_device(out), round_to(x[index], acl_type))


def test_index_select_of_a_transposed_view_into_a_strided_out(acl):
    x = np.arange(35, dtype=np.float32).reshape(5, 7)
    dx = sim.DeviceArray.from_numpy(x)
    di = to_device(np.array([6, 1, 2]), sim.ACL_INT64)
    out = sim.DeviceArray.empty((5, 3), sim.ACL_FLOAT)  # viewed transposed as (3, 5)
    sim.check(sim.run_aclnn("aclnnIndexSelect", dx.tensor(shape=(7, 5), strides=(1, 7)), 0, di.tensor(),
                            out.tensor(shape=(3, 5), strides=(1, 3))))
    np.testing.assert_array_equal(out.to_numpy().T, x.T[[6, 1, 2]])


def test_index_select_out_of_range_index_fails_the_kernel(acl):
    dx = sim.DeviceArray.from_numpy(np.zeros((4, 3), np.float32))
    di = to_device(np.array([1, 4]), sim.ACL_INT64)
    out = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnIndexSelect", dx.tensor(), 0, di.tensor(), out.tensor()))
    error = _sync_error()
    assert "index_select_custom" in error and "index 4 is out of range for a dimension of size 4" in error


def test_index_select_checks_arguments(acl):
    dx = sim.DeviceArray.from_numpy(np.zeros((4, 3), np.float32))
    df = to_device(np.array([1.0]), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((1, 3), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnIndexSelect", dx.tensor(), 0, df.tensor(), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnIndexSelect: index has dtype ACL_FLOAT" in sim.recent_error()
    di = to_device(np.array([1]), sim.ACL_INT64)
    rc, _, _ = sim.aclnn_workspace("aclnnIndexSelect", dx.tensor(), 2, di.tensor(), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "dim 2 is out of range" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnIndexSelect", dx.tensor(), 1, di.tensor(), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "out has shape [1, 3], expected [4, 1]" in sim.recent_error()


# ---- embedding_dense_backward ----
def _embedding_backward(grad, indices, num_weights, padding_idx, scale):
    out = np.zeros((num_weights, grad.shape[-1]), np.float64)
    flat = grad.reshape(-1, grad.shape[-1]).astype(np.float64)
    counts = np.bincount(indices.reshape(-1), minlength=num_weights)
    for i, w in enumerate(indices.reshape(-1)):
        if w != padding_idx:
            out[w] += flat[i] / (counts[w] if scale else 1)
    return out


@pytest.mark.parametrize("n,num_weights,dim", [(0, 5, 4), (1, 1, 1), (13, 7, 3), (64, 10, 257), (300, 50, 1000)])
@pytest.mark.parametrize("padding_idx,scale", [(-1, False), (2, False), (-1, True)])
def test_embedding_dense_backward_matches_numpy(acl, n, num_weights, dim, padding_idx, scale):
    rng = np.random.default_rng(n + dim)
    indices = rng.integers(0, num_weights, size=(n,))
    grad = rng.standard_normal((n, dim)).astype(np.float32)
    want = _embedding_backward(grad, indices, num_weights, padding_idx, scale)
    dg, di = sim.DeviceArray.from_numpy(grad), to_device(indices, sim.ACL_INT64)
    out = sim.DeviceArray.empty((num_weights, dim), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnEmbeddingDenseBackward", dg.tensor(), di.tensor(), num_weights, padding_idx, scale,
                            out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_embedding_dense_backward_accumulates_16_bit_grads_in_float32(acl, dtype):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(7)
    indices = rng.integers(0, 4, size=(2, 50)).astype(np.int32)
    grad = round_to(rng.standard_normal((2, 50, 33)).astype(np.float32), acl_type)
    want = _embedding_backward(grad, indices, 4, -1, False)
    dg, di = to_device(grad, acl_type), to_device(indices, sim.ACL_INT32)
    out = sim.DeviceArray.empty((4, 33), acl_type)
    sim.check(sim.run_aclnn("aclnnEmbeddingDenseBackward", dg.tensor(), di.tensor(), 4, -1, False, out.tensor()))
    np.testing.assert_allclose(from_device(out), round_to(want.astype(np.float32), acl_type), rtol=1e-2, atol=1e-2)


def test_embedding_dense_backward_out_of_range_index_fails_the_kernel(acl):
    dg = sim.DeviceArray.from_numpy(np.ones((2, 3), np.float32))
    di = to_device(np.array([0, 9]), sim.ACL_INT64)
    out = sim.DeviceArray.empty((4, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnEmbeddingDenseBackward", dg.tensor(), di.tensor(), 4, -1, False, out.tensor()))
    assert "index 9 is out of range for 4 embeddings" in _sync_error()


# ---- cat ----
def _tensor_list(arrays, views=None):
    handles = []
    for k, a in enumerate(arrays):
        shape, strides = (views[k] if views else (a.shape, None))
        if strides is None:
            strides, step = [], 1
            for d in reversed(shape):
                strides.insert(0, step)
                step *= max(int(d), 1)
        handles.append(sim.make_tensor(a.ptr, shape, strides, 0, a.acl_type, [a.numel]))
    arr = (_vp * len(handles))(*handles)
    return sim.load().aclCreateTensorList(arr, len(handles))


@pytest.mark.parametrize("shapes,dim", [([(3,), (0,), (5,)], 0), ([(2, 3), (4, 3), (1, 3)], 0),
                                        ([(2, 3), (2, 0), (2, 7)], -1), ([(2, 3, 4), (2, 5, 4)], 1),
                                        ([(0, 4), (0, 4)], 0), ([(333, 17), (101, 17)], 0)])
def test_cat_matches_numpy(acl, shapes, dim):
    rng = np.random.default_rng(len(shapes))
    xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    want = np.concatenate(xs, axis=dim)
    devs = [sim.DeviceArray.from_numpy(x) for x in xs]
    out = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    tensors = _tensor_list(devs)
    sim.check(sim.run_aclnn("aclnnCat", tensors, dim, out.tensor()))
    sim.load().aclDestroyTensorList(tensors)
    np.testing.assert_array_equal(out.to_numpy(), want)


def test_cat_skips_legacy_empty_tensors_converts_dtypes_and_reads_views(acl):
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.arange(8, dtype=np.float32).reshape(4, 2)  # viewed transposed (2, 4)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    de = sim.DeviceArray.empty((0,), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((2, 7), sim.ACL_DOUBLE)
    tensors = _tensor_list([da, de, db], views=[((2, 3), None), ((0,), None), ((2, 4), (1, 2))])
    sim.check(sim.run_aclnn("aclnnCat", tensors, 1, out.tensor()))
    sim.load().aclDestroyTensorList(tensors)
    np.testing.assert_array_equal(out.to_numpy(), np.concatenate([a, b.T], axis=1).astype(np.float64))


def test_cat_checks_shapes(acl):
    da, db = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT), sim.DeviceArray.empty((3, 2), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((5, 3), sim.ACL_FLOAT)
    tensors = _tensor_list([da, db])
    rc, _, _ = sim.aclnn_workspace("aclnnCat", tensors, 0, out.tensor())
    sim.load().aclDestroyTensorList(tensors)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnCat: tensors[1] has shape [3, 2], which does not fit out [5, 3] outside dim 0" in sim.recent_error()


# ---- arange ----
@pytest.mark.parametrize("start,end,step,acl_type", [(0, 0, 1, sim.ACL_INT64), (0, 1, 1, sim.ACL_INT64),
                                                     (3, 10007, 1, sim.ACL_INT64), (10, -7, -3, sim.ACL_INT32),
                                                     (0.5, 77.25, 0.25, sim.ACL_FLOAT),
                                                     (-1.0, 1.0, 0.1, sim.ACL_DOUBLE), (0, 50, 2, sim.ACL_FLOAT16)])
def test_arange_matches_numpy(acl, start, end, step, acl_type):
    want = np.arange(start, end, step, dtype=np.float64)
    out = sim.DeviceArray.empty(want.shape, acl_type)
    sim.check(sim.run_aclnn("aclnnArange", sim.Scalar(start), sim.Scalar(end), sim.Scalar(step), out.tensor()))
    expected = (start + np.arange(len(want)) * step).astype(sim.numpy_dtype(acl_type))
    np.testing.assert_array_equal(out.to_numpy(), expected)


@pytest.mark.parametrize("size,values", [(7, [0, 1, 2, 3, 4, 5, 6]),  # counted in double (PyTorch 2.14 on)
                                         (10, list(range(10)))])  # from truncated bounds (before 2.14)
def test_arange_of_an_int64_out_with_fractional_bounds_takes_either_count(acl, size, values):
    out = sim.DeviceArray.empty((size,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnArange", sim.Scalar(0.5), sim.Scalar(10), sim.Scalar(1.5), out.tensor()))
    assert out.to_numpy().tolist() == values
    short = sim.DeviceArray.empty((8,), sim.ACL_INT64)
    start, end, step = sim.Scalar(0.5), sim.Scalar(10), sim.Scalar(1.5)
    rc, _, _ = sim.aclnn_workspace("aclnnArange", start, end, step, short.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "out has 8 elements, the range has 7" in sim.recent_error()


def test_arange_checks_the_range(acl):
    out = sim.DeviceArray.empty((4,), sim.ACL_INT64)
    zero, five, one = sim.Scalar(0), sim.Scalar(5), sim.Scalar(1)  # alive during the calls
    rc, _, _ = sim.aclnn_workspace("aclnnArange", zero, five, one, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "out has 4 elements, the range has 5" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnArange", five, zero, one, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "inconsistent with step sign" in sim.recent_error()


# ---- convolution ----
def _conv2d(x, w, b, stride, padding, dilation, groups):
    n, c, h, wd = x.shape
    cout, cg, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, cout, oh, ow))
    coutg = cout // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg, i * dilation[0]: i * dilation[0] + stride[0] * (oh - 1) + 1:
                           stride[0], j * dilation[1]: j * dilation[1] + stride[1] * (ow - 1) + 1: stride[1]]
                out[:, g * coutg:(g + 1) * coutg] += np.einsum("nchw,oc->nohw", patch,
                                                               w[g * coutg:(g + 1) * coutg, :, i, j])
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


CONV_CASES = [  # (input shape, weight shape, stride, padding, dilation, groups, bias)
    ((1, 1, 1, 1), (1, 1, 1, 1), (1, 1), (0, 0), (1, 1), 1, False),
    ((2, 3, 7, 5), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),
    ((2, 4, 11, 13), (6, 2, 3, 2), (2, 3), (1, 0), (2, 1), 2, True),
    ((3, 6, 9, 9), (6, 1, 3, 3), (1, 1), (1, 1), (1, 1), 6, False),
    ((1, 3, 40, 37), (8, 3, 5, 5), (2, 2), (2, 2), (1, 1), 1, True),
]


@pytest.mark.parametrize("case", CONV_CASES)
def test_convolution_forward_and_backward_match_numpy(acl, case):
    xs, ws, stride, padding, dilation, groups, has_bias = case
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w = rng.standard_normal(xs).astype(np.float32), rng.standard_normal(ws).astype(np.float32)
    b = rng.standard_normal(ws[0]).astype(np.float32) if has_bias else None
    want = _conv2d(x, w, b, stride, padding, dilation, groups)
    dx, dw = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(w)
    db = sim.DeviceArray.from_numpy(b) if has_bias else None
    out = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    arrays = [sim.IntArray(stride), sim.IntArray(padding), sim.IntArray(dilation), sim.IntArray([0, 0])]
    sim.check(sim.run_aclnn("aclnnConvolution", dx.tensor(), dw.tensor(), db.tensor() if db else None, *arrays[:3],
                            False, arrays[3], groups, out.tensor(), 0))
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-4, atol=1e-4)

    # Backward: the gradients of sum(out * g) by finite-free reference formulas (numpy autograd by linearity).
    g = rng.standard_normal(want.shape).astype(np.float32)
    dg = sim.DeviceArray.from_numpy(g)
    gi, gw, gb = (sim.DeviceArray.empty(s, sim.ACL_FLOAT) for s in (xs, ws, (ws[0],)))
    mask_values = (ctypes.c_bool * 3)(True, True, True)
    mask = sim.load().aclCreateBoolArray(mask_values, 3)
    sim.check(sim.run_aclnn("aclnnConvolutionBackward", dg.tensor(), dx.tensor(), dw.tensor(), None, *arrays[:3],
                            False, arrays[3], groups, mask, 0, gi.tensor(), gw.tensor(), gb.tensor()))
    sim.load().aclDestroyBoolArray(mask)
    # Reference gradients: conv is linear in x and in w, so <g, conv(e_k)> per basis element k.
    want_gw = np.zeros(ws)
    for idx in np.ndindex(*ws):
        e = np.zeros(ws, np.float32)
        e[idx] = 1
        want_gw[idx] = (g * _conv2d(x, e, None, stride, padding, dilation, groups)).sum()
    want_gi = np.zeros(xs)
    for idx in np.ndindex(*xs):
        e = np.zeros(xs, np.float32)
        e[idx] = 1
        want_gi[idx] = (g * _conv2d(e, w, None, stride, padding, dilation, groups)).sum()
    np.testing.assert_allclose(gi.to_numpy(), want_gi, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gw.to_numpy(), want_gw, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(gb.to_numpy(), g.sum(axis=(0, 2, 3)), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_convolution_16_bit(acl, dtype):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(5)
    x = round_to(rng.standard_normal((2, 3, 8, 8)).astype(np.float32), acl_type)
    w = round_to(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), acl_type)
    want = _conv2d(x, w, None, (1, 1), (1, 1), (1, 1), 1)
    dx, dw = to_device(x, acl_type), to_device(w, acl_type)
    out = sim.DeviceArray.empty(want.shape, acl_type)
    sim.check(sim.run_aclnn("aclnnConvolution", dx.tensor(), dw.tensor(), None, sim.IntArray([1, 1]),
                            sim.IntArray([1, 1]), sim.IntArray([1, 1]), False, sim.IntArray([0, 0]), 1,
                            out.tensor(), 0))
    rtol, atol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=rtol * 4, atol=atol * 16)


def test_convolution_checks_arguments(acl):
    dx = sim.DeviceArray.empty((1, 3, 5, 5), sim.ACL_FLOAT)
    dw = sim.DeviceArray.empty((2, 2, 3, 3), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((1, 2, 3, 3), sim.ACL_FLOAT)
    one, zero = sim.IntArray([1, 1]), sim.IntArray([0, 0])
    rc, _, _ = sim.aclnn_workspace("aclnnConvolution", dx.tensor(), dw.tensor(), None, one.handle, zero.handle,
                                   one.handle, False, zero.handle, 1, out.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "does not fit input [1, 3, 5, 5] in 1 groups" in sim.recent_error()
    dw3 = sim.DeviceArray.empty((2, 3, 3, 3), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnConvolution", dx.tensor(), dw3.tensor(), None, one.handle, zero.handle,
                                   one.handle, True, zero.handle, 1, out.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "does not fit input [1, 3, 5, 5] in 1 groups" in sim.recent_error()
    di = sim.DeviceArray.empty((1, 3, 5, 5), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnConvolution", di.tensor(), dw3.tensor(), None, one.handle, zero.handle,
                                   one.handle, False, zero.handle, 1, out.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnConvolution: input has dtype ACL_INT32" in sim.recent_error()



# ---- convolution over 1-3 spatial dims, plain and transposed ----
def _windows(image, ks, stride, padding, dilation, out_sizes):
    """For each kernel offset: image (zero-padded) at offset * dilation + stride * position, [N, C, out...]."""
    nd = len(ks)
    xp = np.pad(image.astype(np.float64), ((0, 0), (0, 0)) + tuple((p, p) for p in padding))
    for off in np.ndindex(*ks):
        sl = tuple(slice(off[i] * dilation[i], off[i] * dilation[i] + stride[i] * (out_sizes[i] - 1) + 1, stride[i])
                   for i in range(nd))
        yield off, xp[(slice(None), slice(None)) + sl]


def _conv_nd(x, w, b, stride, padding, dilation, groups):
    """Plain convolution of x [N, C, spatial...] with w [Cout, C / groups, k...] in float64."""
    ks = w.shape[2:]
    outs = [(x.shape[2 + i] + 2 * padding[i] - dilation[i] * (ks[i] - 1) - 1) // stride[i] + 1 for i in range(len(ks))]
    cout, cg = w.shape[:2]
    coutg = cout // groups
    out = np.zeros((x.shape[0], cout, *outs))
    for off, patch in _windows(x, ks, stride, padding, dilation, outs):
        for g in range(groups):
            out[:, g * coutg:(g + 1) * coutg] += np.einsum("nc...,oc->no...", patch[:, g * cg:(g + 1) * cg],
                                                           w[(slice(g * coutg, (g + 1) * coutg), slice(None)) + off])
    if b is not None:
        out += b.reshape((1, -1) + (1,) * len(ks))
    return out


def _conv_nd_adjoint(y, w, image_sizes, stride, padding, dilation, groups):
    """The adjoint of _conv_nd in its image: y [N, Cout, out...] scattered back to [N, C, image_sizes...]."""
    ks = w.shape[2:]
    cout, cg = w.shape[:2]
    coutg = cout // groups
    full = [image_sizes[i] + 2 * padding[i] for i in range(len(ks))]
    acc = np.zeros((y.shape[0], cg * groups, *full))
    for off in np.ndindex(*ks):
        sl = tuple(slice(off[i] * dilation[i], off[i] * dilation[i] + stride[i] * (y.shape[2 + i] - 1) + 1, stride[i])
                   for i in range(len(ks)))
        for g in range(groups):
            acc[(slice(None), slice(g * cg, (g + 1) * cg)) + sl] += np.einsum(
                "no...,oc->nc...", y[:, g * coutg:(g + 1) * coutg].astype(np.float64),
                w[(slice(g * coutg, (g + 1) * coutg), slice(None)) + off])
    return acc[(slice(None), slice(None)) + tuple(slice(p, p + n) for p, n in zip(padding, image_sizes))]


def _conv_nd_weight_grad(image, result, w_shape, stride, padding, dilation, groups):
    """d<result, conv(image, w)>/dw for the plain convolution from image to result."""
    ks = w_shape[2:]
    cout, cg = w_shape[:2]
    coutg = cout // groups
    gw = np.zeros(w_shape)
    for off, patch in _windows(image, ks, stride, padding, dilation, result.shape[2:]):
        for g in range(groups):
            r = result[:, g * coutg:(g + 1) * coutg].astype(np.float64).reshape(result.shape[0], coutg, -1)
            x = patch[:, g * cg:(g + 1) * cg].reshape(result.shape[0], cg, -1)
            gw[(slice(g * coutg, (g + 1) * coutg), slice(None)) + off] = np.einsum("nop,ncp->oc", r, x)
    return gw


def _conv_transpose_nd(x, w, b, stride, padding, output_padding, dilation, groups):
    """Transposed convolution of x [N, Cin, in...] with w [Cin, Cout / groups, k...] in float64."""
    ks = w.shape[2:]
    sizes = [(x.shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (ks[i] - 1) + output_padding[i] + 1
             for i in range(len(ks))]
    out = _conv_nd_adjoint(x, w, sizes, stride, padding, dilation, groups)
    if b is not None:
        out += b.reshape((1, -1) + (1,) * len(ks))
    return out


def _mask(*values):
    return sim.load().aclCreateBoolArray((ctypes.c_bool * 3)(*values), 3)


ND_CASES = [  # (input shape, weight shape, stride, padding, dilation, groups, bias)
    ((2, 3, 5, 6, 4), (4, 3, 3, 2, 3), (1, 1, 1), (1, 0, 1), (1, 1, 1), 1, True),
    ((1, 4, 7, 6, 9), (6, 2, 2, 3, 3), (2, 1, 3), (0, 1, 2), (2, 1, 1), 2, False),
    ((2, 4, 4, 4, 4), (4, 1, 3, 3, 3), (1, 2, 1), (1, 1, 1), (1, 1, 2), 4, True),
]


@pytest.mark.parametrize("case", ND_CASES)
def test_convolution_3d_forward_and_backward_match_numpy(acl, case):
    xs, ws, stride, padding, dilation, groups, has_bias = case
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w = rng.standard_normal(xs).astype(np.float32), rng.standard_normal(ws).astype(np.float32)
    b = rng.standard_normal(ws[0]).astype(np.float32) if has_bias else None
    want = _conv_nd(x, w, b, stride, padding, dilation, groups)
    dx, dw = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(w)
    db = sim.DeviceArray.from_numpy(b) if has_bias else None
    out = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    arrays = [sim.IntArray(stride), sim.IntArray(padding), sim.IntArray(dilation), sim.IntArray([0, 0, 0])]
    sim.check(sim.run_aclnn("aclnnConvolution", dx.tensor(), dw.tensor(), db.tensor() if db else None, *arrays[:3],
                            False, arrays[3], groups, out.tensor(), 0))
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-4, atol=1e-4)

    g = rng.standard_normal(want.shape).astype(np.float32)
    dg = sim.DeviceArray.from_numpy(g)
    gi, gw, gb = (sim.DeviceArray.empty(s, sim.ACL_FLOAT) for s in (xs, ws, (ws[0],)))
    mask = _mask(True, True, True)
    sim.check(sim.run_aclnn("aclnnConvolutionBackward", dg.tensor(), dx.tensor(), dw.tensor(), None, *arrays[:3],
                            False, arrays[3], groups, mask, 0, gi.tensor(), gw.tensor(), gb.tensor()))
    sim.load().aclDestroyBoolArray(mask)
    np.testing.assert_allclose(gi.to_numpy(), _conv_nd_adjoint(g, w, xs[2:], stride, padding, dilation, groups),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gw.to_numpy(), _conv_nd_weight_grad(x, g, ws, stride, padding, dilation, groups),
                               rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(gb.to_numpy(), g.sum(axis=(0, 2, 3, 4)), rtol=1e-4, atol=1e-4)


TRANSPOSED_CASES = [  # (input shape, weight shape, stride, padding, output padding, dilation, groups, bias)
    ((2, 3, 7), (3, 4, 3), (2,), (1,), (1,), (1,), 1, True),
    ((1, 4, 9), (4, 3, 2), (3,), (0,), (0,), (2,), 2, False),
    ((2, 3, 5, 4), (3, 2, 3, 3), (1, 1), (0, 0), (0, 0), (1, 1), 1, True),
    ((2, 4, 5, 6), (4, 3, 3, 2), (2, 3), (1, 0), (1, 2), (1, 2), 2, True),
    ((1, 6, 4, 4), (6, 1, 3, 3), (2, 2), (1, 1), (0, 1), (1, 1), 6, False),
    ((1, 2, 3, 4, 3), (2, 3, 2, 3, 2), (2, 1, 2), (0, 1, 1), (1, 0, 1), (1, 2, 1), 1, True),
    ((2, 4, 3, 3, 2), (4, 2, 3, 2, 2), (1, 2, 2), (1, 0, 0), (0, 1, 0), (2, 1, 1), 2, False),
]


@pytest.mark.parametrize("case", TRANSPOSED_CASES)
def test_transposed_convolution_forward_and_backward_match_numpy(acl, case):
    xs, ws, stride, padding, out_pad, dilation, groups, has_bias = case
    rng = np.random.default_rng(sum(xs) + sum(ws) + 1)
    x, w = rng.standard_normal(xs).astype(np.float32), rng.standard_normal(ws).astype(np.float32)
    cout = ws[1] * groups
    b = rng.standard_normal(cout).astype(np.float32) if has_bias else None
    want = _conv_transpose_nd(x, w, b, stride, padding, out_pad, dilation, groups)
    dx, dw = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(w)
    db = sim.DeviceArray.from_numpy(b) if has_bias else None
    out = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    arrays = [sim.IntArray(stride), sim.IntArray(padding), sim.IntArray(dilation), sim.IntArray(out_pad)]
    sim.check(sim.run_aclnn("aclnnConvolution", dx.tensor(), dw.tensor(), db.tensor() if db else None, *arrays[:3],
                            True, arrays[3], groups, out.tensor(), 0))
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-4, atol=1e-4)

    # The transposed convolution is the adjoint of the plain one from its output to its input.
    g = rng.standard_normal(want.shape).astype(np.float32)
    dg = sim.DeviceArray.from_numpy(g)
    gi, gw, gb = (sim.DeviceArray.empty(s, sim.ACL_FLOAT) for s in (xs, ws, (cout,)))
    mask = _mask(True, True, True)
    sim.check(sim.run_aclnn("aclnnConvolutionBackward", dg.tensor(), dx.tensor(), dw.tensor(), None, *arrays[:3],
                            True, arrays[3], groups, mask, 0, gi.tensor(), gw.tensor(), gb.tensor()))
    sim.load().aclDestroyBoolArray(mask)
    np.testing.assert_allclose(gi.to_numpy(), _conv_nd(g, w, None, stride, padding, dilation, groups),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gw.to_numpy(), _conv_nd_weight_grad(g, x, ws, stride, padding, dilation, groups),
                               rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(gb.to_numpy(), g.sum(axis=tuple(i for i in range(g.ndim) if i != 1)),
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("transposed", [False, True])
def test_convolution_3d_16_bit(acl, dtype, transposed):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(7)
    x = round_to(rng.standard_normal((2, 4, 4, 5, 3)).astype(np.float32), acl_type)
    w = round_to(rng.standard_normal((4, 2, 2, 3, 2)).astype(np.float32) / 4, acl_type)
    b = round_to(rng.standard_normal(4).astype(np.float32), acl_type)
    stride, padding, dilation, out_pad = (2, 1, 1), (1, 1, 0), (1, 2, 1), (1, 0, 0)
    if transposed:
        want = _conv_transpose_nd(x, w, b, stride, padding, out_pad, dilation, 2)
    else:
        want = _conv_nd(x, w, b, stride, padding, dilation, 2)
    out = sim.DeviceArray.empty(want.shape, acl_type)
    dx, dw, db = (to_device(v, acl_type) for v in (x, w, b))  # held: a freed array frees its tensor
    sim.check(sim.run_aclnn("aclnnConvolution", dx.tensor(), dw.tensor(), db.tensor(), sim.IntArray(stride),
                            sim.IntArray(padding), sim.IntArray(dilation), transposed, sim.IntArray(out_pad), 2,
                            out.tensor(), 0))
    rtol, atol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=rtol * 4, atol=atol * 16)


def _workspace_error(x_shape, w_shape, out_shape, stride, padding, dilation, transposed, out_pad, groups=1):
    dx = sim.DeviceArray.empty(x_shape, sim.ACL_FLOAT)
    dw = sim.DeviceArray.empty(w_shape, sim.ACL_FLOAT)
    out = sim.DeviceArray.empty(out_shape, sim.ACL_FLOAT)
    arrays = [sim.IntArray(v) for v in (stride, padding, dilation, out_pad)]
    rc, _, _ = sim.aclnn_workspace("aclnnConvolution", dx.tensor(), dw.tensor(), None, arrays[0].handle,
                                   arrays[1].handle, arrays[2].handle, transposed, arrays[3].handle, groups,
                                   out.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    return sim.recent_error()


def test_convolution_nd_checks_arguments(acl):
    one3, zero3 = (1, 1, 1), (0, 0, 0)
    # output padding not smaller than stride or dilation
    msg = _workspace_error((1, 2, 4, 4), (2, 3, 3, 3), (1, 3, 12, 12), (2, 2), (0, 0), (1, 1), True, (2, 2))
    assert "aclnnConvolution: outputPadding must be smaller than stride or dilation" in msg
    # stride with the wrong number of values
    msg = _workspace_error((1, 2, 4, 4, 4), (2, 2, 3, 3, 3), (1, 2, 2, 2, 2), (1, 1), zero3, one3, False, zero3)
    assert "aclnnConvolution: stride must have 3 values, got 2" in msg
    # transposed weight whose first dimension is not the input's channels
    msg = _workspace_error((1, 2, 4, 4, 4), (3, 2, 3, 3, 3), (1, 2, 6, 6, 6), one3, zero3, one3, True, zero3)
    assert "does not fit input [1, 2, 4, 4, 4] in 1 groups" in msg
    # an output of the wrong shape
    msg = _workspace_error((1, 2, 4, 4, 4), (2, 3, 3, 3, 3), (1, 3, 6, 6, 5), one3, zero3, one3, True, zero3)
    assert "output has shape [1, 3, 6, 6, 5], expected [1, 3, 6, 6, 6]" in msg
    # a 6-D input
    msg = _workspace_error((1, 2, 4, 4, 4, 4), (2, 2, 3, 3, 3, 3), (1, 2, 2, 2, 2, 2), one3, zero3, one3, False,
                           zero3)
    assert "must both be 3-D, 4-D or 5-D" in msg
    # a 3-D kernel larger than the padded input
    msg = _workspace_error((1, 2, 2, 4, 4), (2, 2, 3, 3, 3), (1, 2, 1, 2, 2), one3, zero3, one3, False, zero3)
    assert "padded input [1, 2, 2, 4, 4] is smaller than the dilated kernel" in msg
    # negative output padding
    msg = _workspace_error((1, 2, 4), (2, 3, 3), (1, 3, 6), (1,), (0,), (1,), True, (-1,))
    assert "outputPadding values must be at least 0, got -1" in msg

# ---- max_pool2d ----
def _max_pool2d(x, k, s, p, d, ceil_mode):
    n, c, h, w = x.shape

    def size(i, kk, ss, pp, dd):
        o = (i + 2 * pp - dd * (kk - 1) - 1 + (ss - 1 if ceil_mode else 0)) // ss + 1
        if ceil_mode and (o - 1) * ss >= i + pp:
            o -= 1
        return o

    oh, ow = size(h, k[0], s[0], p[0], d[0]), size(w, k[1], s[1], p[1], d[1])
    out = np.zeros((n, c, oh, ow), x.dtype)
    idx = np.zeros((n, c, oh, ow), np.int64)
    for a in range(oh):
        for b in range(ow):
            best, at = None, None
            for i in range(k[0]):
                for j in range(k[1]):
                    hh, ww = a * s[0] - p[0] + i * d[0], b * s[1] - p[1] + j * d[1]
                    if 0 <= hh < h and 0 <= ww < w:
                        v = x[:, :, hh, ww]
                        if best is None:
                            best, at = v.copy(), np.full(v.shape, hh * w + ww)
                        else:
                            take = (v > best) | np.isnan(v)
                            best = np.where(take, v, best)
                            at = np.where(take, hh * w + ww, at)
            out[:, :, a, b], idx[:, :, a, b] = best, at
    return out, idx


@pytest.mark.parametrize("xs,k,s,p,d,ceil_mode", [((1, 1, 1, 1), (1, 1), (1, 1), (0, 0), (1, 1), False),
                                                 ((2, 3, 8, 8), (2, 2), (2, 2), (0, 0), (1, 1), False),
                                                 ((2, 3, 9, 7), (3, 3), (2, 2), (1, 1), (1, 1), True),
                                                 ((1, 2, 13, 11), (3, 2), (1, 2), (1, 1), (2, 1), False),
                                                 ((4, 16, 67, 67), (3, 3), (2, 2), (1, 1), (1, 1), False)])
@pytest.mark.parametrize("index_type", [sim.ACL_INT64, sim.ACL_INT32])
def test_max_pool2d_with_indices_and_backward_match_numpy(acl, xs, k, s, p, d, ceil_mode, index_type):
    rng = np.random.default_rng(sum(xs))
    x = rng.standard_normal(xs).astype(np.float32)
    x.reshape(-1)[:: 7] = np.nan if xs[-1] > 5 else x.reshape(-1)[:: 7]
    want, want_idx = _max_pool2d(x, k, s, p, d, ceil_mode)
    dx = sim.DeviceArray.from_numpy(x)
    out, idx = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT), sim.DeviceArray.empty(want.shape, index_type)
    arrays = [sim.IntArray(k), sim.IntArray(s), sim.IntArray(p), sim.IntArray(d)]
    sim.check(sim.run_aclnn("aclnnMaxPool2dWithIndices", dx.tensor(), *arrays, ceil_mode, out.tensor(), idx.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), want)
    np.testing.assert_array_equal(idx.to_numpy(), want_idx)
    g = rng.standard_normal(want.shape).astype(np.float32)
    want_gi = np.zeros(xs, np.float64).reshape(xs[0], xs[1], -1)
    for n in range(xs[0]):
        for c in range(xs[1]):
            np.add.at(want_gi[n, c], want_idx[n, c].reshape(-1), g[n, c].reshape(-1))
    dg = sim.DeviceArray.from_numpy(g)
    gi = sim.DeviceArray.empty(xs, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnMaxPool2dWithIndicesBackward", dg.tensor(), dx.tensor(), idx.tensor(), *arrays,
                            ceil_mode, gi.tensor()))
    np.testing.assert_allclose(gi.to_numpy(), want_gi.reshape(xs), rtol=1e-6, atol=1e-6)


def test_max_pool2d_rejects_integer_input_and_bad_padding(acl):
    di = sim.DeviceArray.empty((1, 1, 4, 4), sim.ACL_INT32)
    out, idx = sim.DeviceArray.empty((1, 1, 2, 2), sim.ACL_INT32), sim.DeviceArray.empty((1, 1, 2, 2), sim.ACL_INT64)
    two, zero, one = sim.IntArray([2, 2]), sim.IntArray([0, 0]), sim.IntArray([1, 1])
    rc, _, _ = sim.aclnn_workspace("aclnnMaxPool2dWithIndices", di.tensor(), two.handle, two.handle, zero.handle,
                                   one.handle, False, out.tensor(), idx.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "self has dtype ACL_INT32" in sim.recent_error()
    df = sim.DeviceArray.empty((1, 1, 4, 4), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnMaxPool2dWithIndices", df.tensor(), two.handle, two.handle, two.handle,
                                   one.handle, False, out.tensor(), idx.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "padding should be at most half of kernelSize" in sim.recent_error()


# ---- gather / scatter / scatter_add / index_add ----
def _along(index, dim, shape):
    """numpy fancy-index tuple addressing `shape` with index along dim and the position elsewhere."""
    grids = list(np.indices(index.shape))
    grids[dim] = index
    return tuple(grids)


@pytest.mark.parametrize("self_shape,index_shape,dim", [((5,), (7,), 0), ((4, 6), (3, 2), 1), ((4, 6), (9, 6), 0),
                                                        ((3, 4, 5), (2, 4, 3), -1), ((200, 64), (300, 64), 0),
                                                        ((4, 6), (0, 6), 0)])
@pytest.mark.parametrize("index_type", [sim.ACL_INT64, sim.ACL_INT32])
def test_gather_matches_numpy(acl, self_shape, index_shape, dim, index_type):
    rng = np.random.default_rng(len(self_shape) + index_shape[0])
    x = rng.standard_normal(self_shape).astype(np.float32)
    index = rng.integers(0, self_shape[dim], size=index_shape)
    want = x[_along(index, dim % len(self_shape), index_shape)]
    dx, di = sim.DeviceArray.from_numpy(x), to_device(index, index_type)
    out = sim.DeviceArray.empty(index_shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnGather", dx.tensor(), dim, di.tensor(), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), want)


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_INT64, sim.ACL_FLOAT16, sim.ACL_INT8])
def test_scatter_add_and_index_add_match_numpy(acl, acl_type):
    rng = np.random.default_rng(acl_type)
    x = sim.random_values((6, 5), acl_type, rng, -10, 10)
    src = sim.random_values((8, 5), acl_type, rng, -10, 10)
    index = rng.integers(0, 6, size=(8, 5))
    want = x.astype(np.float64).copy()
    np.add.at(want, _along(index, 0, index.shape), src.astype(np.float64))
    dx, ds, di = to_device(x, acl_type), to_device(src, acl_type), to_device(index, sim.ACL_INT64)
    out = sim.DeviceArray.empty((6, 5), acl_type)
    sim.check(sim.run_aclnn("aclnnScatterAdd", dx.tensor(), 0, di.tensor(), ds.tensor(), out.tensor()))
    np.testing.assert_allclose(from_device(out), round_to(want.astype(np.float32), acl_type), rtol=2e-3, atol=2e-2)
    rows = rng.integers(0, 6, size=(8,))
    want = x.astype(np.float64).copy()
    np.add.at(want, rows, 2 * src.astype(np.float64))
    dr = to_device(rows, sim.ACL_INT32)
    sim.check(sim.run_aclnn("aclnnIndexAdd", dx.tensor(), 0, dr.tensor(), ds.tensor(), sim.Scalar(2), out.tensor()))
    np.testing.assert_allclose(from_device(out), round_to(want.astype(np.float32), acl_type), rtol=2e-3, atol=5e-2)


def test_scatter_src_value_in_place_and_strided(acl):
    x = np.zeros((3, 7), np.float32)
    src = np.arange(12, dtype=np.float32).reshape(3, 4)
    index = np.array([[0, 2, 4, 6], [1, 3, 5, 0], [6, 5, 4, 3]])  # no repeats within a row
    want = x.copy()
    want[_along(index, 1, index.shape)] = src[:, :4]
    dx, ds, di = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(src), to_device(index, sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnScatter", dx.tensor(), 1, di.tensor(), ds.tensor(), 0, dx.tensor()))  # in place
    np.testing.assert_array_equal(dx.to_numpy(), want)
    out = sim.DeviceArray.empty((7, 3), sim.ACL_FLOAT)  # viewed transposed as (3, 7)
    value = sim.Scalar(-1.5)
    sim.check(sim.run_aclnn("aclnnScatterValue", dx.tensor(), 1, di.tensor(), value, 0,
                            out.tensor(shape=(3, 7), strides=(1, 3))))
    want[_along(index, 1, index.shape)] = -1.5
    np.testing.assert_array_equal(out.to_numpy().T, want)


def test_gather_scatter_out_of_range_index_fails_the_kernel(acl):
    dx = sim.DeviceArray.from_numpy(np.zeros((4, 3), np.float32))
    di = to_device(np.array([[0, 4, 1]]), sim.ACL_INT64)
    out = sim.DeviceArray.empty((1, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnGather", dx.tensor(), 0, di.tensor(), out.tensor()))
    assert "gather: index 4 is out of bounds for dimension 0 with size 4" in _sync_error()
    ds = sim.DeviceArray.from_numpy(np.ones((1, 3), np.float32))
    sim.check(sim.run_aclnn("aclnnScatterAdd", dx.tensor(), 0, di.tensor(), ds.tensor(), dx.tensor()))
    assert "scatter_add: index 4 is out of bounds" in _sync_error()


def test_gather_scatter_check_shapes(acl):
    dx = sim.DeviceArray.empty((4, 3), sim.ACL_FLOAT)
    di = sim.DeviceArray.empty((2, 5), sim.ACL_INT64)
    out = sim.DeviceArray.empty((2, 5), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnGather", dx.tensor(), 0, di.tensor(), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "index [2, 5] does not fit self [4, 3]" in sim.recent_error()
