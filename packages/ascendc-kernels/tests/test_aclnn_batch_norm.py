"""aclnnBatchNorm and aclnnBatchNormBackward (batch_norm_custom, batch_norm_grad_custom) against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOLERANCE = {sim.ACL_FLOAT: 2e-5, sim.ACL_FLOAT16: 4e-3, sim.ACL_BF16: 3e-2}
# (N, C, *): L = 1, primes, a slice longer than one chunk (2100 > 2048), 0 rows
SHAPES = [(4, 3), (2, 5, 7, 3), (3, 2, 2100), (1, 1, 1, 1), (6, 17, 5), (0, 3, 4), (2, 65)]


def _reference(x, w, b, rm, rv, training, momentum, eps):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        mean = x.mean(axis=axes)
        var = x.var(axis=axes)
        m = x.size // x.shape[1]
        new_rm = (1 - momentum) * rm + momentum * mean
        new_rv = (1 - momentum) * rv + momentum * var * m / max(m - 1, 1)
    else:
        mean, var, new_rm, new_rv = rm, rv, rm, rv
    invstd = 1 / np.sqrt(var + eps)
    y = (x - mean.reshape(shape)) * (invstd * w).reshape(shape) + b.reshape(shape)
    return y, mean, invstd, new_rm, new_rv


def _grads(dy, x, w, mean, invstd, training):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    m = x.size // x.shape[1]
    xmu = x - mean.reshape(shape)
    sum_dy = dy.sum(axis=axes)
    sum_dy_xmu = (dy * xmu).sum(axis=axes)
    if training:
        dx = (dy - (sum_dy / m).reshape(shape) - xmu * (invstd ** 2 * sum_dy_xmu / m).reshape(shape)) * \
            (invstd * w).reshape(shape)
    else:
        dx = dy * (invstd * w).reshape(shape)
    return dx, sum_dy_xmu * invstd, sum_dy


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_forward_and_backward_match_numpy(acl, dtype, shape, training):
    acl_type = FLOATS[dtype]
    if training and shape[0] * int(np.prod(shape[2:])) <= 1:
        pytest.skip("training needs more than one value per channel")
    rng = np.random.default_rng(sum(shape) + training)
    c = shape[1]
    x = round_to(rng.uniform(-2, 4, shape).astype(np.float32), acl_type).astype(np.float64)
    w = rng.uniform(0.5, 1.5, c).astype(np.float32)
    b = rng.uniform(-1, 1, c).astype(np.float32)
    rm = rng.uniform(-0.5, 0.5, c).astype(np.float32)
    rv = rng.uniform(0.5, 2, c).astype(np.float32)
    momentum, eps = 0.1, 1e-5
    keep = [to_device(x, acl_type), sim.DeviceArray.from_numpy(w), sim.DeviceArray.from_numpy(b)]
    d_rm, d_rv = sim.DeviceArray.from_numpy(rm.copy()), sim.DeviceArray.from_numpy(rv.copy())
    y = sim.DeviceArray.empty(shape, acl_type)
    sm, si = sim.DeviceArray.empty((c,), sim.ACL_FLOAT), sim.DeviceArray.empty((c,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnBatchNorm", keep[0].tensor(), keep[1].tensor(), keep[2].tensor(), d_rm.tensor(),
                            d_rv.tensor(), training, momentum, eps, y.tensor(), sm.tensor(), si.tensor()))
    if x.size == 0:
        np.testing.assert_array_equal(d_rm.to_numpy(), rm)  # nothing to normalize: stats untouched
        return
    want_y, mean, invstd, new_rm, new_rv = _reference(x, w.astype(np.float64), b.astype(np.float64),
                                                      rm.astype(np.float64), rv.astype(np.float64), training,
                                                      momentum, eps)
    tol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(y), want_y, rtol=tol, atol=tol * 4)
    np.testing.assert_allclose(d_rm.to_numpy(), new_rm, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(d_rv.to_numpy(), new_rv, rtol=1e-5, atol=1e-6)
    if training:
        np.testing.assert_allclose(sm.to_numpy(), mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(si.to_numpy(), invstd, rtol=1e-4)
    dy = round_to(rng.uniform(-1, 1, shape).astype(np.float32), acl_type).astype(np.float64)
    d_dy = to_device(dy, acl_type)
    dx = sim.DeviceArray.empty(shape, acl_type)
    dw, db = sim.DeviceArray.empty((c,), sim.ACL_FLOAT), sim.DeviceArray.empty((c,), sim.ACL_FLOAT)
    stat_mean = sm if training else sim.DeviceArray.from_numpy(rm)
    stat_var = si if training else sim.DeviceArray.from_numpy(rv)
    sim.check(sim.run_aclnn("aclnnBatchNormBackward", d_dy.tensor(), keep[0].tensor(), keep[1].tensor(),
                            stat_mean.tensor(), stat_var.tensor(), stat_mean.tensor(), stat_var.tensor(), training,
                            eps, sim.BoolArray([True, True, True]), dx.tensor(), dw.tensor(), db.tensor()))
    used_mean = sm.to_numpy().astype(np.float64) if training else rm.astype(np.float64)
    used_invstd = si.to_numpy().astype(np.float64) if training else 1 / np.sqrt(rv.astype(np.float64) + eps)
    want_dx, want_dw, want_db = _grads(dy, x, w.astype(np.float64), used_mean, used_invstd, training)
    m = x.size // c
    np.testing.assert_allclose(from_device(dx), want_dx, rtol=tol * 4, atol=tol * 8)
    np.testing.assert_allclose(dw.to_numpy(), want_dw, rtol=1e-4, atol=1e-5 * m)
    np.testing.assert_allclose(db.to_numpy(), want_db, rtol=1e-4, atol=1e-5 * m)


def test_batch_norm_channels_last_view_half_stats_and_errors(acl):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 4, 3, 5)).astype(np.float32)
    nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    d = sim.DeviceArray.from_numpy(nhwc)
    view = d.tensor(shape=(2, 4, 3, 5), strides=(60, 1, 20, 4))  # NCHW view of NHWC memory
    rm = sim.DeviceArray.from_numpy(np.zeros(4, np.float16))
    rv = sim.DeviceArray.from_numpy(np.ones(4, np.float16))
    y = sim.DeviceArray.empty((2, 4, 3, 5), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnBatchNorm", view, None, None, rm.tensor(), rv.tensor(), True, 0.5, 1e-5,
                            y.tensor(), None, None))
    want, mean, _, new_rm, new_rv = _reference(x.astype(np.float64), np.ones(4), np.zeros(4), np.zeros(4),
                                               np.ones(4), True, 0.5, 1e-5)
    np.testing.assert_allclose(y.to_numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(rm.to_numpy(), new_rm, rtol=2e-3, atol=1e-3)
    np.testing.assert_allclose(rv.to_numpy(), new_rv, rtol=2e-3, atol=1e-3)
    rc, _, _ = sim.aclnn_workspace("aclnnBatchNorm", view, None, None, None, None, False, 0.1, 1e-5, y.tensor(),
                                   None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "must be defined in evaluation mode" in sim.recent_error()
    bad = sim.DeviceArray.from_numpy(np.zeros(3, np.float32))
    rc, _, _ = sim.aclnn_workspace("aclnnBatchNorm", view, bad.tensor(), None, None, None, True, 0.1, 1e-5,
                                   y.tensor(), None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnBatchNorm: weight has shape [3], expected [4]" in \
        sim.recent_error()
    one = sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnBatchNorm", one.tensor(), None, None, None, None, True, 0.1, 1e-5,
                                   one.tensor(), None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "at least 2 dimensions" in sim.recent_error()
