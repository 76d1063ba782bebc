"""aclnnSoftmax and aclnnLayerNorm (row kernels softmax_custom / layer_norm_custom) against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOLERANCE = {sim.ACL_FLOAT: 2e-6, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1.6e-2}


def _softmax(x: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,dim", [((0, 5), 1), ((1,), 0), ((3, 1), 1), ((7, 13), -1), ((64, 1024), 1),
                                       ((2, 9000), 1), ((3, 17, 5), 1), ((4, 6, 2), 0), ((), 0)])
def test_softmax_matches_numpy(acl, dtype, shape, dim):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(len(shape) * 100 + sum(shape))
    x = round_to(rng.uniform(-8, 8, shape).astype(np.float32), acl_type)
    out = sim.DeviceArray.empty(shape, acl_type)
    dx = to_device(x, acl_type)
    sim.check(sim.run_aclnn("aclnnSoftmax", dx.tensor(), dim, out.tensor()))
    want = _softmax(x.astype(np.float64), dim) if x.ndim else np.ones((), np.float64)
    tol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=tol * 4, atol=tol)


def test_softmax_of_a_transposed_view_and_rejected_arguments(acl):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((30, 20)).astype(np.float32)
    dx = sim.DeviceArray.from_numpy(x)
    out = sim.DeviceArray.empty((20, 30), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnSoftmax", dx.tensor(shape=(20, 30), strides=(1, 20)), 1,
                            out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), _softmax(x.T.astype(np.float64), 1), rtol=1e-5, atol=1e-7)
    rc, _, _ = sim.aclnn_workspace("aclnnSoftmax", dx.tensor(), 2, dx.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnSoftmax: dim 2 is out of range for a 2-D self" in sim.recent_error()
    i = sim.DeviceArray.empty((30, 20), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnSoftmax", i.tensor(), 1, i.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnSoftmax: self has dtype ACL_INT32, which is not supported")


def _layer_norm(x, n_dims, weight, bias, eps):
    axes = tuple(range(x.ndim - n_dims, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    y = (x - mean) * rstd
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y, mean, rstd


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,n_dims,affine", [((0, 8), 1, True), ((1, 1), 1, True), ((5, 13), 1, True),
                                                 ((4096 // 64, 1024), 1, True), ((3, 4, 7), 2, False),
                                                 ((2, 10007), 1, True), ((9, 31), 1, False)])
def test_layer_norm_matches_numpy(acl, dtype, shape, n_dims, affine):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(sum(shape) + n_dims)
    norm_shape = shape[len(shape) - n_dims:]
    x = round_to(rng.uniform(-3, 5, shape).astype(np.float32), acl_type)
    w = round_to(rng.uniform(0.5, 1.5, norm_shape).astype(np.float32), acl_type) if affine else None
    b = round_to(rng.uniform(-1, 1, norm_shape).astype(np.float32), acl_type) if affine else None
    stats_shape = shape[:len(shape) - n_dims] + (1,) * n_dims
    out = sim.DeviceArray.empty(shape, acl_type)
    mean = sim.DeviceArray.empty(stats_shape, sim.ACL_FLOAT)
    rstd = sim.DeviceArray.empty(stats_shape, sim.ACL_FLOAT)
    eps = 1e-5
    dx = to_device(x, acl_type)
    dw, db = (to_device(w, acl_type), to_device(b, acl_type)) if affine else (None, None)
    sim.check(sim.run_aclnn(
        "aclnnLayerNorm", dx.tensor(), sim.IntArray(list(norm_shape)), dw.tensor() if dw else None,
        db.tensor() if db else None, eps, out.tensor(), mean.tensor(), rstd.tensor()))
    want, want_mean, want_rstd = _layer_norm(x.astype(np.float64), n_dims, w, b, eps)
    tol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=tol * 4, atol=tol * 8)
    np.testing.assert_allclose(mean.to_numpy(), want_mean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(rstd.to_numpy(), want_rstd, rtol=1e-4, atol=1e-5)


def test_layer_norm_checks_arguments(acl):
    x = sim.DeviceArray.empty((4, 6), sim.ACL_FLOAT)
    w = sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnLayerNorm", x.tensor(), sim.IntArray([5]), None, None, 1e-5,
                                   x.tensor(), None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnLayerNorm: normalizedShape [5] must be a non-empty suffix of input shape [4, 6]" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnLayerNorm", x.tensor(), sim.IntArray([6]), w.tensor(), None,
                                   1e-5, x.tensor(), None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnLayerNorm: weight has shape [5], expected [6]" in sim.recent_error()
    i = sim.DeviceArray.empty((4, 6), sim.ACL_INT64)
    rc, _, _ = sim.aclnn_workspace("aclnnLayerNorm", i.tensor(), sim.IntArray([6]), None, None, 1e-5,
                                   i.tensor(), None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnLayerNorm: input has dtype ACL_INT64, which is not supported")
