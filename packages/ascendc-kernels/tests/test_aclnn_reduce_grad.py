"""The reduction / normalization family's new aclnn entry points against numpy:
aclnnLogSoftmax, aclnnSoftmaxBackward, aclnnLogSoftmaxBackward (softmax_custom,
softmax_grad_custom), aclnnMean, aclnnAmin (reduce_custom) and
aclnnLayerNormBackward (layer_norm_grad_custom + column_sum_custom)."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

_KEEP: list = []


def dev(values, acl_type):
    """A device copy kept alive for the test (an inline temporary would be freed before the launch)."""
    arr = to_device(values, acl_type)
    _KEEP.append(arr)
    return arr


@pytest.fixture(autouse=True)
def _release_device_arrays():
    yield
    _KEEP.clear()


FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOLERANCE = {sim.ACL_FLOAT: 2e-6, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1.6e-2}
# shapes with 0, 1, primes, rows longer than one tile (9001 > 4096) and more than one block
SOFTMAX_CASES = [((0, 5), 1), ((1,), 0), ((3, 1), 1), ((7, 13), -1), ((64, 1024), 1), ((2, 9001), 1),
                 ((3, 17, 5), 1), ((4, 6, 2), 0), ((), 0)]


def _log_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    if x.ndim == 0:
        return np.zeros((), np.float64)
    m = x.max(axis=dim, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=dim, keepdims=True))


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,dim", SOFTMAX_CASES)
def test_log_softmax_matches_numpy(acl, dtype, shape, dim):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(len(shape) * 10 + sum(shape))
    x = round_to(rng.uniform(-8, 8, shape).astype(np.float32), acl_type)
    out = sim.DeviceArray.empty(shape, acl_type)
    sim.check(sim.run_aclnn("aclnnLogSoftmax", dev(x, acl_type).tensor(), dim, out.tensor()))
    tol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), _log_softmax(x.astype(np.float64), dim), rtol=tol * 4,
                               atol=tol * 10)


def test_log_softmax_half_to_float_output(acl):
    rng = np.random.default_rng(3)
    x = round_to(rng.uniform(-4, 4, (5, 33)).astype(np.float32), sim.ACL_FLOAT16)
    out = sim.DeviceArray.empty((5, 33), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnLogSoftmax", dev(x, sim.ACL_FLOAT16).tensor(), 1, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), _log_softmax(x.astype(np.float64), 1), rtol=1e-5, atol=1e-5)
    bad = sim.DeviceArray.empty((5, 33), sim.ACL_BF16)
    rc, _, _ = sim.aclnn_workspace("aclnnLogSoftmax", dev(x, sim.ACL_FLOAT16).tensor(), 1, bad.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnLogSoftmax: out has dtype ACL_BF16, expected self's ACL_FLOAT16 or float" in sim.recent_error()


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,dim", SOFTMAX_CASES)
@pytest.mark.parametrize("log", [False, True])
def test_softmax_backward_matches_numpy(acl, dtype, shape, dim, log):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(len(shape) * 7 + sum(shape) + log)
    x = rng.uniform(-4, 4, shape)
    y = _log_softmax(x, dim) if log else np.exp(_log_softmax(x, dim))
    y = round_to(y.astype(np.float32), acl_type).astype(np.float64)
    g = round_to(rng.uniform(-1, 1, shape).astype(np.float32), acl_type).astype(np.float64)
    if x.ndim == 0:
        want = g - np.exp(y) * g if log else y * (g - g * y)
    elif log:
        want = g - np.exp(y) * g.sum(axis=dim, keepdims=True)
    else:
        want = y * (g - (g * y).sum(axis=dim, keepdims=True))
    out = sim.DeviceArray.empty(shape, acl_type)
    api = "aclnnLogSoftmaxBackward" if log else "aclnnSoftmaxBackward"
    sim.check(sim.run_aclnn(api, dev(g, acl_type).tensor(), dev(y, acl_type).tensor(), dim,
                            out.tensor()))
    tol = TOLERANCE[acl_type]
    scale = np.sqrt(max(1, shape[dim] if len(shape) else 1))
    np.testing.assert_allclose(from_device(out), want, rtol=tol * 8, atol=tol * 8 * scale)


def test_softmax_backward_rejects_mismatches(acl):
    g = sim.DeviceArray.empty((4, 5), sim.ACL_FLOAT)
    y = sim.DeviceArray.empty((4, 6), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnSoftmaxBackward", g.tensor(), y.tensor(), 1, g.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnSoftmaxBackward: output shape [4, 6] differs from gradOutput shape [4, 5]" in sim.recent_error()
    yi = sim.DeviceArray.empty((4, 5), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnLogSoftmaxBackward", g.tensor(), yi.tensor(), 1, g.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnLogSoftmaxBackward: output has dtype ACL_INT32" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnLogSoftmaxBackward", g.tensor(), g.tensor(), -3, g.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "dim -3 is out of range" in sim.recent_error()


REDUCE_CASES = [((5,), []), ((1, 1), [0, 1]), ((7, 13), [-1]), ((7, 13), [0]), ((3, 5, 11), [0, 2]),
                ((2, 9001), [1]), ((64, 1024), [1])]


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,dims", REDUCE_CASES)
@pytest.mark.parametrize("keep", [False, True])
def test_mean_and_amin_match_numpy(acl, dtype, shape, dims, keep):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(sum(shape) + 3 * len(dims))
    x = round_to(rng.uniform(-50, 50, shape).astype(np.float32), acl_type)
    axes = tuple(dims) if dims else None
    want_mean = x.astype(np.float64).mean(axis=axes, keepdims=keep)
    out = sim.DeviceArray.empty(np.shape(want_mean), acl_type)
    sim.check(sim.run_aclnn("aclnnMean", dev(x, acl_type).tensor(), sim.IntArray(dims), keep, acl_type,
                            out.tensor()))
    tol = TOLERANCE[acl_type] * 4
    np.testing.assert_allclose(from_device(out), want_mean, rtol=tol, atol=tol * 50)
    want_min = x.min(axis=axes, keepdims=keep)
    out = sim.DeviceArray.empty(np.shape(want_min), acl_type)
    sim.check(sim.run_aclnn("aclnnAmin", dev(x, acl_type).tensor(), sim.IntArray(dims), keep, out.tensor()))
    np.testing.assert_array_equal(from_device(out), want_min)


def test_mean_to_float_of_empty_rows_and_amin_nan(acl):
    x = round_to(np.arange(24, dtype=np.float32).reshape(4, 6) / 7, sim.ACL_BF16)
    out = sim.DeviceArray.empty((6,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnMean", dev(x, sim.ACL_BF16).tensor(), sim.IntArray([0]), False,
                            sim.ACL_FLOAT, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), x.astype(np.float64).mean(axis=0), rtol=1e-6)
    empty = sim.DeviceArray.empty((3, 0), sim.ACL_FLOAT)
    o3 = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnMean", empty.tensor(), sim.IntArray([1]), False, sim.ACL_FLOAT, o3.tensor()))
    assert np.isnan(o3.to_numpy()).all()
    rc, _, _ = sim.aclnn_workspace("aclnnAmin", empty.tensor(), sim.IntArray([1]), False, o3.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "the minimum of no elements" in sim.recent_error()
    y = np.arange(40, dtype=np.float32).reshape(2, 20)
    y[0, 3] = np.nan
    dy, o2 = sim.DeviceArray.from_numpy(y), sim.DeviceArray.empty((2,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnAmin", dy.tensor(), sim.IntArray([1]), False, o2.tensor()))
    got = o2.to_numpy()
    assert np.isnan(got[0]) and got[1] == 20
    rc, _, _ = sim.aclnn_workspace("aclnnMean", dy.tensor(), sim.IntArray([1]), False, sim.ACL_FLOAT16, o2.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnMean: out has dtype ACL_FLOAT, expected" in sim.recent_error()


def _layer_norm_grads(dy, x, n_dims, w, eps):
    axes = tuple(range(x.ndim - n_dims, x.ndim))
    lead = tuple(range(x.ndim - n_dims))
    mean = x.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
    xhat = (x - mean) * rstd
    gg = dy * w if w is not None else dy
    dx = rstd * (gg - gg.mean(axis=axes, keepdims=True) - xhat * (gg * xhat).mean(axis=axes, keepdims=True))
    return mean, rstd, dx, (dy * xhat).sum(axis=lead), dy.sum(axis=lead)


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,n_dims,affine", [((0, 8), 1, True), ((1, 1), 1, True), ((5, 13), 1, True),
                                                 ((64, 1024), 1, True), ((3, 4, 7), 2, False),
                                                 ((2, 9001), 1, True), ((9, 31), 1, False), ((300, 3), 1, True)])
def test_layer_norm_backward_matches_numpy(acl, dtype, shape, n_dims, affine):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(sum(shape) * 3 + n_dims)
    norm_shape = shape[len(shape) - n_dims:]
    x = round_to(rng.uniform(-3, 5, shape).astype(np.float32), acl_type).astype(np.float64)
    dy = round_to(rng.uniform(-1, 1, shape).astype(np.float32), acl_type).astype(np.float64)
    w = round_to(rng.uniform(0.5, 1.5, norm_shape).astype(np.float32), acl_type) if affine else None
    mean, rstd, want_dx, want_dw, want_db = _layer_norm_grads(dy, x, n_dims, w, 1e-5)
    stats_shape = shape[:len(shape) - n_dims] + (1,) * n_dims
    d_mean = sim.DeviceArray.from_numpy(mean.astype(np.float32).reshape(stats_shape))
    d_rstd = sim.DeviceArray.from_numpy(rstd.astype(np.float32).reshape(stats_shape))
    dx = sim.DeviceArray.empty(shape, acl_type)
    dw = sim.DeviceArray.empty(norm_shape, acl_type)
    db = sim.DeviceArray.empty(norm_shape, acl_type)
    sim.check(sim.run_aclnn("aclnnLayerNormBackward", dev(dy, acl_type).tensor(),
                            dev(x, acl_type).tensor(), sim.IntArray(norm_shape), d_mean.tensor(),
                            d_rstd.tensor(), dev(w, acl_type).tensor() if affine else None, None,
                            sim.BoolArray([True, True, True]), dx.tensor(), dw.tensor(), db.tensor()))
    tol = TOLERANCE[acl_type] * 8
    rows = max(1, int(np.prod(shape[:len(shape) - n_dims])))
    np.testing.assert_allclose(from_device(dx), want_dx, rtol=tol, atol=tol * 4)
    np.testing.assert_allclose(from_device(dw), want_dw, rtol=tol, atol=tol * np.sqrt(rows) * 2)
    np.testing.assert_allclose(from_device(db), want_db, rtol=tol, atol=tol * np.sqrt(rows) * 2)


def test_layer_norm_backward_output_mask_and_errors(acl):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((6, 10)).astype(np.float32)
    dy = rng.standard_normal((6, 10)).astype(np.float32)
    mean, rstd, want_dx, _, want_db = _layer_norm_grads(dy.astype(np.float64), x.astype(np.float64), 1, None, 1e-5)
    d_mean = sim.DeviceArray.from_numpy(mean.astype(np.float32))
    d_rstd = sim.DeviceArray.from_numpy(rstd.astype(np.float32))
    d_x, d_dy = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(dy)
    db = sim.DeviceArray.empty((10,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnLayerNormBackward", d_dy.tensor(), d_x.tensor(), sim.IntArray([10]),
                            d_mean.tensor(), d_rstd.tensor(), None, None, sim.BoolArray([False, False, True]),
                            None, None, db.tensor()))
    np.testing.assert_allclose(db.to_numpy(), want_db, rtol=1e-5, atol=1e-5)
    dx = sim.DeviceArray.empty((6, 10), sim.ACL_FLOAT)
    # gradInput of a transposed (non-contiguous) output view
    dxt = sim.DeviceArray.empty((10, 6), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnLayerNormBackward", d_dy.tensor(), d_x.tensor(), sim.IntArray([10]),
                            d_mean.tensor(), d_rstd.tensor(), None, None, sim.BoolArray([True, False, False]),
                            dxt.tensor(shape=(6, 10), strides=(1, 6)), None, None))
    np.testing.assert_allclose(dxt.to_numpy().T, want_dx, rtol=1e-4, atol=1e-5)
    rc, _, _ = sim.aclnn_workspace("aclnnLayerNormBackward", d_dy.tensor(), d_x.tensor(), sim.IntArray([6]),
                                   d_mean.tensor(), d_rstd.tensor(), None, None, sim.BoolArray([True, False, False]),
                                   dx.tensor(), None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnLayerNormBackward: normalizedShape [6] must be a non-empty suffix" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnLayerNormBackward", d_dy.tensor(), d_x.tensor(), sim.IntArray([10]),
                                   d_mean.tensor(), d_rstd.tensor(), None, None, sim.BoolArray([True, False, False]),
                                   None, None, None)
    assert rc != 0 and "gradInputOut" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnLayerNormBackward", d_dy.tensor(), d_x.tensor(), sim.IntArray([10]),
                                   d_rstd.tensor(), d_mean.tensor()[None] if False else d_x.tensor(), None, None,
                                   sim.BoolArray([True, False, False]), dx.tensor(), None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "rstd has 60 elements, expected 6" in sim.recent_error()


@pytest.mark.parametrize("api", ["aclnnReduceSum", "aclnnAmax", "aclnnAmin"])
@pytest.mark.parametrize("acl_type", [sim.ACL_INT32, sim.ACL_INT64, sim.ACL_BOOL, sim.ACL_UINT8, sim.ACL_DOUBLE])
@pytest.mark.parametrize("shape,dims", [((7, 13), [1]), ((3, 5, 11), [0, 2]), ((2, 4099), [])])
def test_exact_reductions_of_integers_and_double(acl, api, acl_type, shape, dims):
    rng = np.random.default_rng(sum(shape))
    np_type = sim.numpy_dtype(acl_type)
    if acl_type == sim.ACL_BOOL:
        x = rng.integers(0, 2, shape).astype(bool)
    elif acl_type == sim.ACL_DOUBLE:
        x = rng.standard_normal(shape) * 1e10
    else:
        x = rng.integers(0, 200, shape).astype(np_type) * (1 if acl_type == sim.ACL_UINT8 else 7919)
    axes = tuple(dims) if dims else None
    if api == "aclnnReduceSum":
        out_type = sim.ACL_DOUBLE if acl_type == sim.ACL_DOUBLE else sim.ACL_INT64
        want = x.sum(axis=axes, dtype=sim.numpy_dtype(out_type))
        out = sim.DeviceArray.empty(np.shape(want), out_type)
        sim.check(sim.run_aclnn(api, dev(x, acl_type).tensor(), sim.IntArray(dims), False, out_type, out.tensor()))
    else:
        want = x.max(axis=axes) if api == "aclnnAmax" else x.min(axis=axes)
        out = sim.DeviceArray.empty(np.shape(want), acl_type)
        sim.check(sim.run_aclnn(api, dev(x, acl_type).tensor(), sim.IntArray(dims), False, out.tensor()))
    got = out.to_numpy()
    if acl_type == sim.ACL_DOUBLE and api == "aclnnReduceSum":
        np.testing.assert_allclose(got, want, rtol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)


def test_sum_of_int32_into_int32_and_float_of_int(acl):
    x = (np.arange(60, dtype=np.int32).reshape(6, 10) - 30) * 3
    out = sim.DeviceArray.empty((6,), sim.ACL_INT32)
    sim.check(sim.run_aclnn("aclnnReduceSum", dev(x, sim.ACL_INT32).tensor(), sim.IntArray([1]), False,
                            sim.ACL_INT32, out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), x.sum(axis=1))
    out_f = sim.DeviceArray.empty((10,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnReduceSum", dev(x, sim.ACL_INT32).tensor(), sim.IntArray([0]), False,
                            sim.ACL_FLOAT, out_f.tensor()))
    np.testing.assert_array_equal(out_f.to_numpy(), x.sum(axis=0).astype(np.float32))
    rc, _, _ = sim.aclnn_workspace("aclnnMean", dev(x, sim.ACL_INT32).tensor(), sim.IntArray([0]), False,
                                   sim.ACL_INT32, dev(np.zeros(10, np.int32), sim.ACL_INT32).tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnMean: self has dtype ACL_INT32, which is not supported")
