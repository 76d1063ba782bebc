"""The acl_op vector norms (abi/aclop/lp_norm.decl) against numpy: LpNormReduceV2 over attribute axes (every one
when empty) for finite and infinite orders (INT_MAX / INT_MIN as floats), then LpNormUpdateV2, and Renorm's
factors; a nonzero epsilon, a NaN order and a dim out of range fail."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32 = sim.ACL_FLOAT
PLUS_INF, MINUS_INF = 2147483648.0, -2147483648.0


def dev(a):
    return sim.DeviceArray.from_numpy(np.ascontiguousarray(a, np.float32))


def run(op, x, shape, attrs):
    y = sim.DeviceArray.empty(tuple(shape), F32)
    rc = sim.run_aclop(op, [op_in(x)], [op_in(y)], attrs)
    return rc, y


def reduce_then_update(a, p, axes, keep):
    dims = tuple(range(a.ndim)) if not axes else tuple(d % a.ndim for d in axes)
    shape = tuple(1 if k in dims else n for k, n in enumerate(a.shape) if keep or k not in dims)
    rc, r = run("LpNormReduceV2", dev(a), shape, {"p": p, "axes": axes, "keepdim": keep, "epsilon": 0.0})
    sim.check(rc, "LpNormReduceV2")
    rc, y = run("LpNormUpdateV2", r, shape, {"p": p, "epsilon": 0.0})
    sim.check(rc, "LpNormUpdateV2")
    return r.to_numpy(), y.to_numpy()


@pytest.mark.parametrize(("p", "order"), [(2.0, 2), (1.0, 1), (0.0, 0), (3.5, 3.5), (-1.5, -1.5),
                                          (PLUS_INF, np.inf), (MINUS_INF, -np.inf)])
@pytest.mark.parametrize(("axes", "keep"), [([1], False), ([0, 2], True), ([], False)])
def test_norm_in_two_steps(acl, p, order, axes, keep):
    a = np.random.default_rng(5).standard_normal((3, 4, 5)).astype(np.float32)
    a[0, 0, 0] = 0.0
    reduced, y = reduce_then_update(a, p, axes, keep)
    dims = tuple(axes) if axes else None
    m = np.abs(a)
    if np.isinf(order):
        expected_reduced = (m.max if order > 0 else m.min)(axis=dims, keepdims=keep)
    elif order == 0:
        expected_reduced = (a != 0).sum(axis=dims, keepdims=keep).astype(np.float32)
    else:
        with np.errstate(divide="ignore"):  # |0| ** -1.5 = inf
            expected_reduced = (m ** order).sum(axis=dims, keepdims=keep)
    np.testing.assert_allclose(reduced, expected_reduced, rtol=1e-5)
    expected = expected_reduced if order in (0, 1) or np.isinf(order) else expected_reduced ** (1 / order)
    np.testing.assert_allclose(y, expected, rtol=1e-5)


def test_epsilon_and_nan_order_fail(acl):
    x = dev(np.ones((2, 3)))
    rc, _ = run("LpNormReduceV2", x, (2,), {"p": 2.0, "axes": [1], "epsilon": 1e-12})
    assert rc == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "epsilon" in sim.recent_error()
    rc, _ = run("LpNormUpdateV2", x, (2, 3), {"p": float("nan"), "epsilon": 0.0})
    assert rc == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "p = nan" in sim.recent_error()


@pytest.mark.parametrize(("p", "dim", "maxnorm"), [(2.0, 0, 1.0), (1.0, 1, 2.0), (3.0, -1, 0.5), (2.0, 1, 100.0)])
def test_renorm_factor_of_each_slice(acl, p, dim, maxnorm):
    a = np.random.default_rng(9).standard_normal((3, 4, 5)).astype(np.float32)
    kept = dim % 3
    others = tuple(d for d in range(3) if d != kept)
    shape = tuple(n if k == kept else 1 for k, n in enumerate(a.shape))
    rc, y = run("Renorm", dev(a), shape, {"p": p, "dim": dim, "maxnorm": maxnorm})
    sim.check(rc, "Renorm")
    norm = (np.abs(a) ** p).sum(axis=others, keepdims=True) ** (1 / p)
    expected = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    np.testing.assert_allclose(y.to_numpy(), expected, rtol=1e-5)


def test_renorm_dim_out_of_range_fails(acl):
    rc, _ = run("Renorm", dev(np.ones((2, 3))), (2, 1), {"p": 2.0, "dim": 2, "maxnorm": 1.0})
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    assert "dim 2 is out of range for a 2-D x" in sim.recent_error()
