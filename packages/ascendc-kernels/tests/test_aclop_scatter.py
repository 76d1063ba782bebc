"""The acl_op types that write parts of a tensor (abi/aclop/scatter.decl) against numpy: MaskedScatter with
a broadcast mask and too few updates, ScatterNdUpdate/ScatterNdAdd with one and two index columns,
negative and repeated indices and an index outside, IndexFillD's select (NaN where it keeps x)."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in


@pytest.mark.parametrize("mask_shape", [(3, 4), (4,), (3, 1)])
def test_masked_scatter(acl, mask_shape):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    mask = rng.random(mask_shape) > 0.5
    updates = rng.normal(size=(2, 7)).astype(np.float32)
    y = sim.DeviceArray.empty((3, 4), sim.ACL_FLOAT)
    sim.check(sim.run_aclop("MaskedScatter", [op_in(dev(x)), op_in(dev(mask)), op_in(dev(updates))], [op_in(y)]),
              "MaskedScatter")
    expected = x.copy()
    full = np.broadcast_to(mask, x.shape)
    expected[full] = updates.reshape(-1)[: full.sum()]
    np.testing.assert_array_equal(y.to_numpy(), expected)


def test_masked_scatter_with_too_few_updates_fails_the_kernel(acl):
    x = dev(np.zeros((2, 3), np.float32))
    y = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    rc = sim.run_aclop("MaskedScatter", [op_in(x), op_in(dev(np.ones((2, 3), np.bool_))),
                                         op_in(dev(np.ones(4, np.float32)))], [op_in(y)])
    if rc == 0:
        rc = sim.load().aclrtSynchronizeDevice()
    assert rc != 0
    assert "at least as many elements as ones in mask" in sim.recent_error()


@pytest.mark.parametrize("op_type", ["ScatterNdUpdate", "ScatterNdAdd"])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_scatter_nd_one_column(acl, op_type, index_dtype):
    var = np.arange(20, dtype=np.float32)
    indices = np.array([[3], [-1], [7], [3]], dtype=index_dtype)
    updates = np.array([10, 20, 30, 40], dtype=np.float32)
    y = sim.DeviceArray.empty((20,), sim.ACL_FLOAT)
    sim.check(sim.run_aclop(op_type, [op_in(dev(var)), op_in(dev(indices)), op_in(dev(updates))], [op_in(y)]), op_type)
    expected = var.copy()
    for i, u in zip(indices[:, 0], updates):
        if op_type == "ScatterNdAdd":
            expected[i] += u
        else:
            expected[i] = u  # in order: the last of repeated indices stays
    np.testing.assert_array_equal(y.to_numpy(), expected)


def test_scatter_nd_two_columns_write_slices(acl):
    var = np.zeros((3, 4, 2), np.int64)
    indices = np.array([[0, 1], [2, 3]], np.int64)
    updates = np.array([[1, 2], [3, 4]], np.int64)
    y = sim.DeviceArray.empty((3, 4, 2), sim.ACL_INT64)
    sim.check(sim.run_aclop("ScatterNdUpdate", [op_in(dev(var)), op_in(dev(indices)), op_in(dev(updates))],
                            [op_in(y)]), "ScatterNdUpdate")
    expected = var.copy()
    expected[0, 1] = [1, 2]
    expected[2, 3] = [3, 4]
    np.testing.assert_array_equal(y.to_numpy(), expected)


def test_scatter_nd_refuses_updates_of_the_wrong_shape(acl):
    var = dev(np.zeros((3, 4), np.float32))
    y = sim.DeviceArray.empty((3, 4), sim.ACL_FLOAT)
    rc = sim.run_aclop("ScatterNdUpdate", [op_in(var), op_in(dev(np.zeros((2, 1), np.int64))),
                                           op_in(dev(np.zeros((2, 3), np.float32)))], [op_in(y)])
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    assert "input updates has shape [2, 3], expected [2, 4]" in sim.recent_error()


def test_index_fill_d_keeps_x_where_assist1_is_nonzero(acl):
    x = np.array([[1.0, np.nan, 3.0], [np.inf, 5.0, -0.0]], np.float32)
    assist1 = np.array([[1, 0, 1], [1, 0, 1]], np.float32)
    assist2 = np.array([[0, 7, 0], [0, 7, 0]], np.float32)
    y = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclop("IndexFillD", [op_in(dev(x)), op_in(dev(assist1)), op_in(dev(assist2))], [op_in(y)],
                            {"dim": 1}), "IndexFillD")
    got = y.to_numpy()
    np.testing.assert_array_equal(got, np.where(assist1 != 0, x, assist2))
    assert np.signbit(got[1, 2])  # x's -0.0 is kept as it is


def test_index_fill_d_refuses_a_dim_outside(acl):
    x = dev(np.zeros((2, 3), np.float32))
    y = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    assert sim.run_aclop("IndexFillD", [op_in(x), op_in(x), op_in(x)], [op_in(y)], {"dim": 2}) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "dim 2 is out of range for a 2-D x" in sim.recent_error()
