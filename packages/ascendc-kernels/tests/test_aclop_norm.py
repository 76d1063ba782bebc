"""The layer norm acl_op types (abi/aclop/norm.decl) against numpy: LayerNorm's y, mean and variance (not
rstd) over the trailing dimensions, LayerNormGrad's three gradients from the variance, rows of equal values,
and mismatched axes or shapes refused."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest

F32 = sim.ACL_FLOAT
RNG = np.random.default_rng(0)


def dev(a):
    return sim.DeviceArray.from_numpy(np.ascontiguousarray(a, dtype=np.float32))


def op_in(x):
    return (x, tuple(x.shape), x.acl_type)


def out_of(shape):
    return sim.DeviceArray.empty(tuple(shape), F32)


def run(op, inputs, out_shapes, attrs=None):
    outs = [out_of(s) for s in out_shapes]
    sim.check(sim.run_aclop(op, [op_in(dev(a)) for a in inputs], [op_in(o) for o in outs], attrs), op)
    return [o.to_numpy() for o in outs]


def stats_shape(shape, axis):
    return tuple(shape[:axis]) + (1,) * (len(shape) - axis)


def reference(x, gamma, beta, axis, eps):
    x64 = x.astype(np.float64)
    dims = tuple(range(axis, x.ndim))
    mean = x64.mean(axis=dims, keepdims=True)
    var = x64.var(axis=dims, keepdims=True)
    return (x64 - mean) / np.sqrt(var + eps) * gamma + beta, mean, var


@pytest.mark.parametrize("shape,axis", [((3, 4, 5), 2), ((2, 3, 4), 1), ((6, 7), -1)])
def test_layer_norm_returns_the_variance(acl, shape, axis):
    x = RNG.normal(size=shape).astype(np.float32)
    x[0] = 2.5  # a row of equal values: variance 0
    a = axis % len(shape)
    gamma = RNG.normal(size=shape[a:]).astype(np.float32)
    beta = RNG.normal(size=shape[a:]).astype(np.float32)
    y, mean, var = run("LayerNorm", [x, gamma, beta], [shape, stats_shape(shape, a), stats_shape(shape, a)],
                       {"begin_norm_axis": axis, "begin_params_axis": axis, "epsilon": 1e-5})
    ry, rmean, rvar = reference(x, gamma, beta, a, 1e-5)
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean, rmean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var, rvar, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("shape,axis", [((3, 4, 5), 2), ((2, 3, 4), 1)])
def test_layer_norm_grad_from_the_variance(acl, shape, axis):
    x = RNG.normal(size=shape).astype(np.float32)
    dy = RNG.normal(size=shape).astype(np.float32)
    gamma = RNG.normal(size=shape[axis:]).astype(np.float32)
    dims = tuple(range(axis, len(shape)))
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=dims, keepdims=True)
    var = x64.var(axis=dims, keepdims=True)
    dx, dgamma, dbeta = run("LayerNormGrad", [dy, x, var, mean, gamma], [shape, gamma.shape, gamma.shape])
    rstd = 1.0 / np.sqrt(var + 1e-12)
    xhat = (x64 - mean) * rstd
    gg = dy * gamma
    rdx = rstd * (gg - gg.mean(axis=dims, keepdims=True) - xhat * (gg * xhat).mean(axis=dims, keepdims=True))
    lead = tuple(range(axis))
    np.testing.assert_allclose(dx, rdx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dgamma, (dy * xhat).sum(axis=lead), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dbeta, dy.astype(np.float64).sum(axis=lead), rtol=1e-5, atol=1e-5)


def test_mismatched_axes_or_shapes_are_refused(acl):
    x = dev(RNG.normal(size=(3, 4)))
    g = dev(np.ones(4))
    outs = [op_in(out_of((3, 4))), op_in(out_of((3, 1))), op_in(out_of((3, 1)))]
    assert sim.run_aclop("LayerNorm", [op_in(x), op_in(g), op_in(g)], outs,
                         {"begin_norm_axis": 1, "begin_params_axis": 0}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "begin_params_axis 0 differs from begin_norm_axis 1" in sim.recent_error()
    assert sim.run_aclop("LayerNorm", [op_in(x), op_in(g), op_in(g)], outs,
                         {"begin_norm_axis": 0, "begin_params_axis": 0}) == sim.ACL_ERROR_INVALID_PARAM
    assert "gamma has shape [4], expected x's normalized dimensions [3, 4]" in sim.recent_error()
    assert sim.run_aclop("LayerNormGrad", [op_in(x), op_in(x), op_in(dev(np.ones((2, 1)))), op_in(dev(np.ones((3, 1)))),
                                           op_in(g)], outs) == sim.ACL_ERROR_INVALID_PARAM
    assert "variance has 2 elements, expected one per row (3)" in sim.recent_error()
