"""aclnnReduceSum and aclnnAmax (row kernel reduce_custom; sums over leading dimensions on
column_sum_custom) against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
CASES = [((0, 4), [1]), ((5,), []), ((1, 1), [0, 1]), ((7, 13), [-1]), ((7, 13), [0]), ((3, 5, 11), [0, 2]),
         ((2, 9001), [1]), ((64, 1024), [1]), ((4, 0, 3), [1]), ((3000, 50), [0]), ((6, 300, 1, 40), [1, 2])]


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,dims", CASES)
@pytest.mark.parametrize("keep", [False, True])
def test_reduce_sum_matches_numpy(acl, dtype, shape, dims, keep):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(sum(shape) + len(dims))
    x = round_to(rng.uniform(-2, 2, shape).astype(np.float32), acl_type)
    axes = tuple(dims) if dims else None
    want = x.astype(np.float64).sum(axis=axes, keepdims=keep)
    dx, out = to_device(x, acl_type), sim.DeviceArray.empty(np.shape(want), acl_type)
    sim.check(sim.run_aclnn("aclnnReduceSum", dx.tensor(), sim.IntArray(dims), keep, acl_type, out.tensor()))
    tol = {sim.ACL_FLOAT: 1e-5, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1e-2}[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=tol, atol=tol * np.sqrt(max(1, x.size)))


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,dims", [c for c in CASES if 0 not in c[0]])
def test_amax_matches_numpy(acl, dtype, shape, dims):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(sum(shape) + 7)
    x = round_to(rng.uniform(-50, 50, shape).astype(np.float32), acl_type)
    want = x.max(axis=tuple(dims) if dims else None)
    dx, out = to_device(x, acl_type), sim.DeviceArray.empty(np.shape(want), acl_type)
    sim.check(sim.run_aclnn("aclnnAmax", dx.tensor(), sim.IntArray(dims), False, out.tensor()))
    np.testing.assert_array_equal(from_device(out), want)


def test_amax_propagates_nan_and_checks_arguments(acl):
    x = np.arange(40, dtype=np.float32).reshape(2, 20)
    x[1, 7] = np.nan
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((2,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnAmax", dx.tensor(), sim.IntArray([1]), False, out.tensor()))
    got = out.to_numpy()
    assert got[0] == 19 and np.isnan(got[1])
    rc, _, _ = sim.aclnn_workspace("aclnnAmax", dx.tensor(), sim.IntArray([1, -1]), False, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnAmax: dim 1 appears more than once" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnAmax", dx.tensor(), sim.IntArray([1]), True, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnAmax: out has shape [2], expected [2, 1]" in sim.recent_error()
    empty = sim.DeviceArray.empty((3, 0), sim.ACL_FLOAT)
    o3 = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnAmax", empty.tensor(), sim.IntArray([1]), False, o3.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "dimension of size 0" in sim.recent_error()
    i = sim.DeviceArray.empty((2, 20), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnReduceSum", i.tensor(), sim.IntArray([1]), False, sim.ACL_INT32,
                                   out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    # integers are reduced exactly (test_aclnn_reduce_grad.py); out must have the requested dtype
    assert sim.recent_error() == "aclnnReduceSum: out has dtype ACL_FLOAT, expected ACL_INT32"
