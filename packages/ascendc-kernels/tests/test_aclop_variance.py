"""The acl_op means and deviations (abi/aclop/variance.decl) against numpy: ReduceMeanD, ReduceStdWithMean and
ReduceStdV2Update over attribute dimensions, with keepdim, corrections and a mean that is not x's, and
BroadcastTo; a divisor of zero, a mean of another shape and an incompatible broadcast fail."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32 = sim.ACL_FLOAT


def dev(a):
    return sim.DeviceArray.from_numpy(np.ascontiguousarray(a, np.float32))


def run(op, inputs, shape, attrs):
    y = sim.DeviceArray.empty(tuple(shape), F32)
    rc = sim.run_aclop(op, [op_in(i) for i in inputs], [op_in(y)], attrs)
    return rc, y


def kept(shape, dims, keep):
    dims = [d % len(shape) for d in dims]
    return tuple(1 if k in dims else n for k, n in enumerate(shape) if keep or k not in dims)


@pytest.mark.parametrize("dims", [[0], [1, 2], [-1], [0, 1, 2]])
@pytest.mark.parametrize("keep", [False, True])
def test_mean_over_axes(acl, dims, keep):
    a = np.random.default_rng(1).standard_normal((3, 4, 5)).astype(np.float32)
    rc, y = run("ReduceMeanD", [dev(a)], kept(a.shape, dims, keep), {"axes": dims, "keep_dims": keep})
    sim.check(rc, "ReduceMeanD")
    np.testing.assert_allclose(y.to_numpy(), a.mean(axis=tuple(dims), keepdims=keep), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", ["ReduceStdWithMean", "ReduceStdV2Update"])
@pytest.mark.parametrize(("unbiased", "correction"), [(True, 1), (False, 1), (True, 0), (True, 3), (True, -2)])
@pytest.mark.parametrize("keep", [False, True])
def test_deviation_with_the_given_mean(acl, op, unbiased, correction, keep):
    a = np.random.default_rng(2).standard_normal((3, 4, 5)).astype(np.float32)
    dims = [0, 2]
    mean = np.broadcast_to(a.mean(axis=(0, 2), keepdims=True) + 0.25, a.shape)  # any mean: not recomputed
    attrs = {"dim": dims, "unbiased": unbiased, "keepdim": keep, "correction": correction}
    if op == "ReduceStdV2Update":
        attrs["if_std"] = True
    rc, y = run(op, [dev(a), dev(mean)], kept(a.shape, dims, keep), attrs)
    sim.check(rc, op)
    divisor = 15 - correction if unbiased else 15
    expected = np.sqrt(((a - mean) ** 2).sum(axis=(0, 2), keepdims=keep) / divisor)
    np.testing.assert_allclose(y.to_numpy(), expected, rtol=1e-5, atol=1e-6)


def test_variance_without_square_root(acl):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    mean = np.broadcast_to(a.mean(axis=1, keepdims=True), a.shape)
    rc, y = run("ReduceStdV2Update", [dev(a), dev(mean)], (3,), {"dim": [1]})
    sim.check(rc, "ReduceStdV2Update")
    np.testing.assert_allclose(y.to_numpy(), a.var(axis=1, ddof=1), rtol=1e-6)


def test_zero_divisor_and_mean_of_another_shape_fail(acl):
    a = dev(np.ones((2, 3)))
    rc, _ = run("ReduceStdWithMean", [a, a], (2,), {"dim": [1], "correction": 3})
    assert rc == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "divisor of 0" in sim.recent_error()
    rc, _ = run("ReduceStdV2Update", [a, dev(np.ones((2, 1)))], (2,), {"dim": [1]})
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    assert "input mean has shape" in sim.recent_error()


@pytest.mark.parametrize(("source", "target"), [((3, 1, 5), (3, 4, 5)), ((5,), (2, 3, 5)), ((), (2, 2)), ((1,), (1,))])
def test_broadcast_to_a_shape(acl, source, target):
    a = np.random.default_rng(4).standard_normal(source).astype(np.float32)
    shape = np.asarray(target, np.int64)
    y = sim.DeviceArray.empty(target, F32)
    rc = sim.run_aclop("BroadcastTo", [op_in(dev(a)), (None, shape.shape, sim.ACL_INT64, sim.ACL_FORMAT_ND, shape)],
                       [op_in(y)])
    sim.check(rc, "BroadcastTo")
    np.testing.assert_array_equal(y.to_numpy(), np.broadcast_to(a, target))


def test_broadcast_to_an_incompatible_shape_fails(acl):
    shape = np.asarray([3, 4], np.int64)
    y = sim.DeviceArray.empty((3, 4), F32)
    rc = sim.run_aclop("BroadcastTo", [op_in(dev(np.ones((3, 2)))), (None, (2,), sim.ACL_INT64, sim.ACL_FORMAT_ND,
                                                                       shape)], [op_in(y)])
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    assert "cannot broadcast x of shape" in sim.recent_error()
