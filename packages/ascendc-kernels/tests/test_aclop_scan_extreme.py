"""The acl_op running extremes (abi/aclop/scan_extreme.decl) against numpy: Cummax and Cummin along each
dimension, with integers, ties (the latest index) and NaN; an output of another shape fails."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in

F32, I32, I64 = sim.ACL_FLOAT, sim.ACL_INT32, sim.ACL_INT64


def running(a, axis, is_max):
    """CPU's running extreme and index: the latest of equal extremes, NaN sticks."""
    a = np.moveaxis(a, axis, -1)
    values, indices = np.empty_like(a), np.empty(a.shape, np.int64)
    for row in np.ndindex(a.shape[:-1]):
        best, at = a[row][0], 0
        for k, v in enumerate(a[row]):
            if np.isnan(best):
                pass
            elif np.isnan(v) or (v >= best if is_max else v <= best):
                best, at = v, k
            values[row][k], indices[row][k] = best, at
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize(("op", "attr", "is_max"), [("Cummax", "dim", True), ("Cummin", "axis", False)])
@pytest.mark.parametrize(("dtype", "index_type"), [(np.float32, I64), (np.int64, I32)])
def test_running_extreme_along_a_dimension(acl, axis, op, attr, is_max, dtype, index_type):
    a = np.random.default_rng(6).integers(-3, 4, (3, 4, 5)).astype(dtype)
    x = dev(a)
    y, idx = sim.DeviceArray.empty(a.shape, x.acl_type), sim.DeviceArray.empty(a.shape, index_type)
    sim.check(sim.run_aclop(op, [op_in(x)], [op_in(y), op_in(idx)], {attr: axis}), op)
    values, indices = running(a, axis, is_max)
    np.testing.assert_array_equal(y.to_numpy(), values)
    np.testing.assert_array_equal(idx.to_numpy(), indices)


def test_nan_sticks_and_bad_output_fails(acl):
    a = np.array([[1.0, np.nan, 5.0, 0.0]], np.float32)
    x = dev(a)
    y, idx = sim.DeviceArray.empty((1, 4), F32), sim.DeviceArray.empty((1, 4), I64)
    sim.check(sim.run_aclop("Cummax", [op_in(x)], [op_in(y), op_in(idx)], {"dim": 1}), "Cummax")
    np.testing.assert_array_equal(idx.to_numpy(), [[0, 1, 1, 1]])
    assert np.isnan(y.to_numpy()[0, 1:]).all()
    small = sim.DeviceArray.empty((1, 3), F32)
    assert sim.run_aclop("Cummin", [op_in(x)], [op_in(small), op_in(idx)], {"axis": 1}) == sim.ACL_ERROR_INVALID_PARAM
    assert "output of shape" in sim.recent_error() and "expected x's" in sim.recent_error()
