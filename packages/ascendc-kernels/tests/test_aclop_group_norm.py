"""The group normalization acl_op types (abi/aclop/group_norm.decl) against numpy: GroupNorm's y, mean and
variance, GroupNormSwish's rstd, GroupNormGrad's three gradients from mean and rstd (and the outputs it is
told not to write left alone); a group of equal values; bad group counts and unsimulated attributes refused."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32 = sim.ACL_FLOAT
RNG = np.random.default_rng(0)


def dev(a):
    return sim.DeviceArray.from_numpy(np.ascontiguousarray(a, dtype=np.float32))


def out_of(shape, fill=None):
    if fill is None:
        return sim.DeviceArray.empty(tuple(shape), F32)
    return dev(np.full(shape, fill, dtype=np.float32))


def run(op, inputs, outs, attrs):
    sim.check(sim.run_aclop(op, [op_in(dev(a)) for a in inputs], [op_in(o) for o in outs], attrs), op)
    return [o.to_numpy() for o in outs]


def moments(x, groups):
    g = x.astype(np.float64).reshape(x.shape[0], groups, -1)
    return g.mean(axis=2), g.var(axis=2)


def reference(x, gamma, beta, groups, eps):
    mean, var = moments(x, groups)
    n, c = x.shape[:2]
    xhat = (x.astype(np.float64).reshape(n, groups, -1) - mean[..., None]) / np.sqrt(var[..., None] + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return xhat.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape), mean, var


@pytest.mark.parametrize("shape,groups", [((2, 6, 5, 4), 3), ((3, 4, 7), 2), ((2, 4), 4), ((1, 6, 2, 2, 3), 1)])
def test_group_norm_returns_the_variance(acl, shape, groups):
    x = RNG.normal(size=shape).astype(np.float32)
    x[0, : shape[1] // groups] = 1.5  # a group of equal values: variance 0
    gamma, beta = RNG.normal(size=shape[1]), RNG.normal(size=shape[1])
    n = shape[0]
    y, mean, var = run("GroupNorm", [x, gamma, beta], [out_of(shape), out_of((n, groups)), out_of((n, groups))],
                       {"num_groups": groups, "eps": 1e-5})
    ry, rmean, rvar = reference(x, gamma, beta, groups, 1e-5)
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(mean, rmean, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(var, rvar, rtol=1e-6, atol=1e-7)
    assert var[0, 0] == 0.0


def test_group_norm_swish_returns_rstd(acl):
    shape, groups = (2, 6, 3, 3), 2
    x = RNG.normal(size=shape).astype(np.float32)
    gamma, beta = RNG.normal(size=6), RNG.normal(size=6)
    y, mean, rstd = run("GroupNormSwish", [x, gamma, beta], [out_of(shape), out_of((2, 2)), out_of((2, 2))],
                        {"num_groups": groups, "eps": 1e-3, "activate_swish": False})
    ry, rmean, rvar = reference(x, gamma, beta, groups, 1e-3)
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(mean, rmean, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(rstd, 1.0 / np.sqrt(rvar + 1e-3), rtol=1e-6)


def test_group_norm_grad_from_mean_and_rstd(acl):
    shape, groups = (3, 6, 4, 5), 3
    x = RNG.normal(size=shape).astype(np.float32)
    dy = RNG.normal(size=shape).astype(np.float32)
    gamma = RNG.normal(size=6).astype(np.float32)
    mean, var = moments(x, groups)
    rstd = 1.0 / np.sqrt(var + 1e-5)
    dx, dgamma, dbeta = run("GroupNormGrad", [dy, mean, rstd, x, gamma],
                            [out_of(shape), out_of((6,)), out_of((6,))], {"num_groups": groups})
    # the reference: the gradient of the normalization, in float64
    n, d = shape[0], 6 // groups
    x64 = x.astype(np.float64).reshape(n, groups, d, -1)
    dy64 = dy.astype(np.float64).reshape(n, groups, d, -1)
    g64 = gamma.astype(np.float64).reshape(1, groups, d, 1)
    r = rstd.reshape(n, groups, 1, 1)
    xhat = (x64 - mean.reshape(n, groups, 1, 1)) * r
    dxhat = dy64 * g64
    m = d * x64.shape[-1]
    rdx = r * (dxhat - dxhat.sum(axis=(2, 3), keepdims=True) / m
               - xhat * (dxhat * xhat).sum(axis=(2, 3), keepdims=True) / m)
    np.testing.assert_allclose(dx, rdx.reshape(shape), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dgamma, (dy64 * xhat).sum(axis=(0, 3)).reshape(6), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dbeta, dy64.sum(axis=(0, 3)).reshape(6), rtol=1e-5, atol=1e-5)


def test_group_norm_grad_leaves_outputs_not_required(acl):
    shape = (2, 4, 3)
    x, dy = RNG.normal(size=shape), RNG.normal(size=shape)
    mean, var = moments(x, 2)
    outs = [out_of(shape, 7.0), out_of((4,), 7.0), out_of((4,), 7.0)]
    dx, dgamma, dbeta = run("GroupNormGrad", [dy, mean, 1.0 / np.sqrt(var + 1e-5), x, np.ones(4)], outs,
                            {"num_groups": 2, "dx_is_require": False, "dbeta_is_require": False})
    assert (dx == 7.0).all() and (dbeta == 7.0).all()
    assert not (dgamma == 7.0).any()


def test_group_norm_refusals(acl):
    x = dev(RNG.normal(size=(2, 6, 4)))
    six = dev(np.ones(6))
    outs = [op_in(out_of((2, 6, 4))), op_in(out_of((2, 4))), op_in(out_of((2, 4)))]
    assert sim.run_aclop("GroupNorm", [op_in(x), op_in(six), op_in(six)], outs,
                         {"num_groups": 4}) == sim.ACL_ERROR_INVALID_PARAM
    assert "num_groups 4 must be positive and divide C = 6" in sim.recent_error()
    outs = [op_in(out_of((2, 6, 4))), op_in(out_of((2, 3))), op_in(out_of((2, 3)))]
    assert sim.run_aclop("GroupNormSwish", [op_in(x), op_in(six), op_in(six)], outs,
                         {"num_groups": 3}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "activate_swish true is not simulated" in sim.recent_error()
    assert sim.run_aclop("GroupNorm", [op_in(x), op_in(six), op_in(six)], outs,
                         {"num_groups": 3, "data_format": "NHWC"}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    five = dev(np.ones(5))
    assert sim.run_aclop("GroupNorm", [op_in(x), op_in(five), op_in(six)], outs,
                         {"num_groups": 3}) == sim.ACL_ERROR_INVALID_PARAM
    assert "gamma has 5 elements, expected one per channel (6)" in sim.recent_error()
