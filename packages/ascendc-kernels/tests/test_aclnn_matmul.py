"""aclnnMm and aclnnMatmul (the cube kernel matmul_custom) against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
# (rtol, atol) per dtype: float32 accumulates in float32; 16-bit results are rounded once.
TOLERANCE = {sim.ACL_FLOAT: (1e-5, 1e-4), sim.ACL_FLOAT16: (2e-3, 2e-3), sim.ACL_BF16: (1e-2, 1e-2)}


def _inputs(shape, acl_type, rng):
    return round_to(rng.standard_normal(shape).astype(np.float32), acl_type)


def _check(got, want, acl_type):
    rtol, atol = TOLERANCE[acl_type]
    np.testing.assert_allclose(got, round_to(want.astype(np.float32), acl_type), rtol=rtol, atol=atol * np.sqrt(
        max(1, want.shape[-1] if want.ndim else 1)))


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("m,k,n", [(0, 3, 4), (3, 0, 4), (1, 1, 1), (7, 13, 5), (129, 31, 257), (64, 300, 17),
                                   # thin products: many narrow tiles, or many K slices
                                   (8, 27, 4096), (16, 2100, 27), (1, 3000, 5), (100, 700, 300), (33, 9, 1030)])
def test_mm_matches_numpy(acl, dtype, m, k, n):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    a, b = _inputs((m, k), acl_type, rng), _inputs((k, n), acl_type, rng)
    out = sim.DeviceArray.empty((m, n), acl_type)
    da, db = to_device(a, acl_type), to_device(b, acl_type)  # alive while their tensors are used
    sim.check(sim.run_aclnn("aclnnMm", da.tensor(), db.tensor(), out.tensor(), 0))
    _check(from_device(out), a.astype(np.float64) @ b, acl_type)


def test_mm_of_transposed_views_and_into_a_strided_out(acl):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((40, 70)).astype(np.float32), rng.standard_normal((50, 40)).astype(np.float32)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.empty((50, 70), sim.ACL_FLOAT)  # out viewed transposed: (70, 50)
    sim.check(sim.run_aclnn("aclnnMm", da.tensor(shape=(70, 40), strides=(1, 70)),
                            db.tensor(shape=(40, 50), strides=(1, 40)),
                            out.tensor(shape=(70, 50), strides=(1, 70)), 0))
    np.testing.assert_allclose(out.to_numpy().T, a.T.astype(np.float64) @ b.T, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("m,k,n", [(8, 27, 2000), (16, 1500, 27)])
def test_thin_products_of_transposed_views(acl, m, k, n):
    rng = np.random.default_rng(m + k + n)
    a, b = rng.standard_normal((k, m)).astype(np.float32), rng.standard_normal((n, k)).astype(np.float32)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.empty((m, n), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnMm", da.tensor(shape=(m, k), strides=(1, m)),
                            db.tensor(shape=(k, n), strides=(1, k)), out.tensor(), 0))
    np.testing.assert_allclose(out.to_numpy(), a.T.astype(np.float64) @ b.T, rtol=1e-5, atol=1e-3)


def test_mm_spreads_tiles_over_cores_for_a_large_product(acl):
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((300, 260)).astype(np.float32), rng.standard_normal((260, 520)).astype(np.float32)
    out = sim.DeviceArray.empty((300, 520), sim.ACL_FLOAT)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    sim.check(sim.run_aclnn("aclnnMm", da.tensor(), db.tensor(), out.tensor(), 1))
    np.testing.assert_allclose(out.to_numpy(), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("sa,sb", [((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 4)), ((2, 3, 5), (5, 4)),
                                   ((3, 5), (2, 5, 4)), ((2, 1, 3, 5), (4, 5, 6)), ((2, 3, 5), (5,)),
                                   ((7,), (2, 7, 3))])
def test_matmul_broadcasts_like_numpy(acl, sa, sb):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    a, b = rng.standard_normal(sa).astype(np.float32), rng.standard_normal(sb).astype(np.float32)
    want = np.matmul(a.astype(np.float64), b)
    out = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    sim.check(sim.run_aclnn("aclnnMatmul", da.tensor(), db.tensor(), out.tensor(), 0))
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-5)


def test_mm_checks_arguments(acl):
    f = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    g = sim.DeviceArray.empty((4, 5), sim.ACL_FLOAT)
    o = sim.DeviceArray.empty((2, 5), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnMm", f.tensor(), g.tensor(), o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnMm: self [2, 3] and mat2 [4, 5] cannot be multiplied" in sim.recent_error()
    i = sim.DeviceArray.empty((3, 5), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnMm", f.tensor(), i.tensor(), o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnMm: mat2 has dtype ACL_INT32, which is not supported")
    h = sim.DeviceArray.empty((3, 5), sim.ACL_FLOAT16)
    rc, _, _ = sim.aclnn_workspace("aclnnMm", f.tensor(), h.tensor(), o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "must have the same dtype" in sim.recent_error()
    m = sim.DeviceArray.empty((3, 5), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnMm", f.tensor(), m.tensor(), f.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnMm: out has shape [2, 3], expected [2, 5]" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnMm", None, m.tensor(), o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_NULLPTR and "aclnnMm: self must not be null" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnMatmul", f.tensor(), g.tensor(), o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "inner dimensions differ" in sim.recent_error()
