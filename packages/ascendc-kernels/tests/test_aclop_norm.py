"""The normalization acl_op types (abi/aclop/norm.decl) against numpy: LayerNorm's y, mean and variance (not
rstd) over the trailing dimensions, LayerNormGrad's three gradients from the variance, rows of equal values;
the batch norm types' sums, normalization, batch statistics and running statistics' update (2D and 3D),
BNInfer, and their gradients from the batch variance; mismatched axes or shapes refused."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32 = sim.ACL_FLOAT
RNG = np.random.default_rng(0)


def dev(a):
    return sim.DeviceArray.from_numpy(np.ascontiguousarray(a, dtype=np.float32))


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


def channel_stats(x):
    dims = (0,) + tuple(range(2, x.ndim))
    x64 = x.astype(np.float64)
    return dims, x64.sum(axis=dims), (x64 * x64).sum(axis=dims)


def per_channel(v, ndim):
    return v.reshape((1, -1) + (1,) * (ndim - 2))


@pytest.mark.parametrize("op,shape", [("BNTrainingReduce", (2, 3, 4, 5)), ("BN3DTrainingReduce", (2, 3, 2, 3, 4))])
def test_bn_training_reduce_sums_per_channel(acl, op, shape):
    x = RNG.normal(size=shape).astype(np.float32) * 2 + 1
    total, squares = run(op, [x], [(shape[1],), (shape[1],)], {"epsilon": 1e-5})
    _, rsum, rsq = channel_stats(x)
    np.testing.assert_allclose(total, rsum, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(squares, rsq, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("op,shape", [("BNTrainingUpdate", (2, 3, 4, 5)), ("BN3DTrainingUpdate", (2, 3, 2, 3, 4))])
def test_bn_training_update_normalizes_and_moves_the_running_stats(acl, op, shape):
    x = RNG.normal(size=shape).astype(np.float32) * 2 + 1
    c = shape[1]
    dims, rsum, rsq = channel_stats(x)
    m = x.size // c
    scale, offset = RNG.normal(size=c), RNG.normal(size=c)
    mean, var = RNG.normal(size=c), RNG.uniform(0.5, 1.5, size=c)
    y, new_mean, new_var, batch_mean, batch_var = run(
        op, [x, rsum, rsq, scale, offset, mean, var], [shape, (c,), (c,), (c,), (c,)],
        {"epsilon": 1e-5, "factor": 0.3})
    bmean = x.astype(np.float64).mean(axis=dims)
    bvar = x.astype(np.float64).var(axis=dims)
    ry = (x - per_channel(bmean, x.ndim)) / np.sqrt(per_channel(bvar, x.ndim) + 1e-5) * per_channel(scale, x.ndim) \
        + per_channel(offset, x.ndim)
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(batch_mean, bmean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(batch_var, bvar, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(new_mean, 0.7 * mean + 0.3 * bmean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(new_var, 0.7 * var + 0.3 * bvar * m / (m - 1), rtol=1e-4, atol=1e-5)


def test_bn_infer_normalizes_with_the_given_statistics(acl):
    shape = (2, 3, 4, 5)
    x = RNG.normal(size=shape).astype(np.float32)
    scale, offset, mean, var = (RNG.normal(size=3), RNG.normal(size=3), RNG.normal(size=3),
                                RNG.uniform(0.5, 1.5, size=3))
    (y,) = run("BNInfer", [x, scale, offset, mean, var], [shape], {"epsilon": 1e-3})
    ry = (x - per_channel(mean, 4)) / np.sqrt(per_channel(var, 4) + 1e-3) * per_channel(scale, 4) \
        + per_channel(offset, 4)
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("rank", [4, 5])
def test_bn_training_gradients_from_the_batch_variance(acl, rank):
    shape = (2, 3, 4, 5) if rank == 4 else (2, 3, 2, 3, 4)
    prefix = "BN" if rank == 4 else "BN3D"
    x = RNG.normal(size=shape).astype(np.float32) * 2 + 1
    dy = RNG.normal(size=shape).astype(np.float32)
    c = shape[1]
    dims = (0,) + tuple(range(2, rank))
    m = x.size // c
    x64 = x.astype(np.float64)
    mean, var = x64.mean(axis=dims), x64.var(axis=dims)
    scale = RNG.normal(size=c)
    invstd = 1.0 / np.sqrt(var + 1e-5)
    xhat = (x64 - per_channel(mean, rank)) * per_channel(invstd, rank)
    diff_scale, diff_offset = run(prefix + "TrainingUpdateGrad", [dy, x, mean, var], [(c,), (c,)], {"epsilon": 1e-5})
    np.testing.assert_allclose(diff_scale, (dy * xhat).sum(axis=dims), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(diff_offset, dy.astype(np.float64).sum(axis=dims), rtol=1e-4, atol=1e-4)
    # the given diff_scale/diff_offset are used (not recomputed): pass others than the sums
    ds, do = RNG.normal(size=c), RNG.normal(size=c)
    (y,) = run(prefix + "TrainingReduceGrad", [dy, x, ds, do, scale, mean, var], [shape], {"epsilon": 1e-5})
    ry = per_channel(scale * invstd, rank) * (dy - per_channel(do / m, rank) - xhat * per_channel(ds / m, rank))
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-5)


def test_bn_infer_grad_scales_by_the_running_variance(acl):
    shape = (2, 3, 4, 5)
    dy = RNG.normal(size=shape).astype(np.float32)
    scale, var = RNG.normal(size=3), RNG.uniform(0.5, 1.5, size=3)
    (dx,) = run("BNInferGrad", [dy, scale, var], [shape], {"epsilon": 1e-3})
    np.testing.assert_allclose(dx, dy * per_channel(scale / np.sqrt(var + 1e-3), 4), rtol=1e-5, atol=1e-6)


def test_bn_types_refuse_another_rank_or_channel_count(acl):
    x = dev(RNG.normal(size=(2, 3, 4, 5)))
    assert sim.run_aclop("BN3DTrainingReduce", [op_in(x)], [op_in(out_of((3,))), op_in(out_of((3,)))],
                         {"epsilon": 1e-5}) == sim.ACL_ERROR_INVALID_PARAM
    assert "x has shape [2, 3, 4, 5], expected 5 dimensions (N, C, ...)" in sim.recent_error()
    four = dev(np.ones(4))
    assert sim.run_aclop("BNInfer", [op_in(x)] + [op_in(four)] * 4, [op_in(out_of((2, 3, 4, 5)))],
                         {"epsilon": 1e-5}) == sim.ACL_ERROR_INVALID_PARAM
    assert "input 1 has 4 elements, expected one per channel (3)" in sim.recent_error()
