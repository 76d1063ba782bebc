"""aclnnGroupNorm and aclnnGroupNormBackward (group_norm_custom, group_norm_grad_custom) against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOLERANCE = {sim.ACL_FLOAT: 2e-6, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1.6e-2}
# (N, C, HxW, group): resident groups, one channel per group, groups streamed in chunks, N = 1
SHAPES = [(2, 8, 25, 4), (3, 6, 7, 6), (2, 4, 5000, 2), (1, 64, 3136, 32), (4, 3, 1, 1)]


def _group_norm(x, w, b, n, c, hw, group, eps):
    g = x.reshape(n, group, -1)
    mean = g.mean(axis=2)
    rstd = 1 / np.sqrt(((g - mean[..., None]) ** 2).mean(axis=2) + eps)
    y = ((g - mean[..., None]) * rstd[..., None]).reshape(n, c, hw)
    if w is not None:
        y = y * w[None, :, None]
    if b is not None:
        y = y + b[None, :, None]
    return y, mean, rstd


def _group_norm_backward(dy, x, mean, rstd, w, n, c, hw, group):
    d = c // group
    gamma = np.ones(c) if w is None else w
    xhat = ((x.reshape(n, group, d, hw) - mean[..., None, None]) * rstd[..., None, None]).reshape(n, c, hw)
    dxhat = (dy * gamma[None, :, None]).reshape(n, group, -1)
    xh = xhat.reshape(n, group, -1)
    dx = rstd[..., None] * (dxhat - dxhat.mean(axis=2, keepdims=True) - xh * (dxhat * xh).mean(axis=2, keepdims=True))
    return dx.reshape(n, c, hw), (dy * xhat).sum(axis=(0, 2)), dy.sum(axis=(0, 2))


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("affine", [True, False])
def test_group_norm_and_its_gradients_match_numpy(acl, dtype, shape, affine):
    n, c, hw, group = shape
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(sum(shape))
    x = round_to(rng.uniform(-3, 5, (n, c, hw)).astype(np.float32), acl_type)
    dy = round_to(rng.uniform(-1, 1, (n, c, hw)).astype(np.float32), acl_type)
    w = round_to(rng.uniform(0.5, 1.5, c).astype(np.float32), acl_type) if affine else None
    b = round_to(rng.uniform(-1, 1, c).astype(np.float32), acl_type) if affine else None
    eps = 1e-5
    out = sim.DeviceArray.empty((n, c, hw), acl_type)
    mean = sim.DeviceArray.empty((n, group), sim.ACL_FLOAT)
    rstd = sim.DeviceArray.empty((n, group), sim.ACL_FLOAT)
    dw = to_device(w, acl_type) if affine else None
    db = to_device(b, acl_type) if affine else None
    d_x, d_dy = to_device(x, acl_type), to_device(dy, acl_type)
    sim.check(sim.run_aclnn("aclnnGroupNorm", d_x.tensor(), dw.tensor() if dw else None,
                            db.tensor() if db else None, n, c, hw, group, eps, out.tensor(), mean.tensor(),
                            rstd.tensor()))
    want, want_mean, want_rstd = _group_norm(x.astype(np.float64), w, b, n, c, hw, group, eps)
    tol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=tol * 4, atol=tol * 8)
    np.testing.assert_allclose(mean.to_numpy(), want_mean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(rstd.to_numpy(), want_rstd, rtol=1e-4, atol=1e-5)

    dx = sim.DeviceArray.empty((n, c, hw), acl_type)
    dgamma = sim.DeviceArray.empty((c,), acl_type)
    dbeta = sim.DeviceArray.empty((c,), acl_type)
    sim.check(sim.run_aclnn("aclnnGroupNormBackward", d_dy.tensor(), d_x.tensor(), mean.tensor(), rstd.tensor(),
                            dw.tensor() if dw else None, n, c, hw, group, sim.BoolArray([True, True, True]),
                            dx.tensor(), dgamma.tensor(), dbeta.tensor()))
    want_dx, want_dgamma, want_dbeta = _group_norm_backward(
        dy.astype(np.float64), x.astype(np.float64), mean.to_numpy().astype(np.float64),
        rstd.to_numpy().astype(np.float64), w, n, c, hw, group)
    scale = np.abs(want_dx).max()
    np.testing.assert_allclose(from_device(dx), want_dx, rtol=tol * 16, atol=tol * 16 * scale)
    sums = tol * 16 * max(1.0, np.sqrt(n * hw))
    np.testing.assert_allclose(from_device(dgamma), want_dgamma, rtol=tol * 16, atol=sums)
    np.testing.assert_allclose(from_device(dbeta), want_dbeta, rtol=tol * 16, atol=sums)


def test_group_norm_of_empty_inputs_gives_cpu_statistics(acl):
    mean = sim.DeviceArray.empty((2, 2), sim.ACL_FLOAT)
    rstd = sim.DeviceArray.empty((2, 2), sim.ACL_FLOAT)
    x = sim.DeviceArray.empty((2, 4, 0), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnGroupNorm", x.tensor(), None, None, 2, 4, 0, 2, 1e-5, x.tensor(), mean.tensor(),
                            rstd.tensor()))
    assert (mean.to_numpy() == 0).all() and np.isnan(rstd.to_numpy()).all()
    w = to_device(np.ones(4, np.float32), sim.ACL_FLOAT)
    dgamma = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    dbeta = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    empty = sim.DeviceArray.empty((0, 4, 3), sim.ACL_FLOAT)
    none = sim.DeviceArray.empty((0, 2), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnGroupNormBackward", empty.tensor(), empty.tensor(), none.tensor(), none.tensor(),
                            w.tensor(), 0, 4, 3, 2, sim.BoolArray([True, True, True]), empty.tensor(),
                            dgamma.tensor(), dbeta.tensor()))
    assert (dgamma.to_numpy() == 0).all() and (dbeta.to_numpy() == 0).all()


def test_group_norm_checks_arguments(acl):
    x = sim.DeviceArray.empty((2, 6, 4), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnGroupNorm", x.tensor(), None, None, 2, 6, 4, 4, 1e-5, x.tensor(), None,
                                   None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    expected = "aclnnGroupNorm: N 2, C 6, HxW 4, group 4: expected sizes >= 0 and group > 0 dividing C"
    assert expected in sim.recent_error()
    w = sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnGroupNorm", x.tensor(), w.tensor(), None, 2, 6, 4, 3, 1e-5, x.tensor(),
                                   None, None)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnGroupNorm: gamma has 5 elements, expected 6" in sim.recent_error()
