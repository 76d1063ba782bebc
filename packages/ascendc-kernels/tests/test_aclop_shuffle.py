"""The ShuffleChannel acl_op type (abi/aclop/shuffle.decl) against numpy, and a group that does not
divide the channels."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest


def op_in(x):
    return (x, tuple(x.shape), x.acl_type)


@pytest.mark.parametrize("shape,group", [((2, 6, 3, 4), 3), ((1, 4, 5), 2), ((2, 6, 2, 2, 2), 2)])
def test_shuffle_channel(acl, shape, group):
    x = np.arange(np.prod(shape), dtype=np.int64).reshape(shape)
    out = sim.DeviceArray.empty(shape, sim.ACL_INT64)
    sim.check(sim.run_aclop("ShuffleChannel", [op_in(sim.DeviceArray.from_numpy(x))], [op_in(out)],
                            {"group": group}), "ShuffleChannel")
    n, c = shape[:2]
    expected = x.reshape(n, group, c // group, -1).swapaxes(1, 2).reshape(shape)
    np.testing.assert_array_equal(out.to_numpy(), expected)


def test_shuffle_channel_refuses_a_group_that_does_not_divide(acl):
    x = sim.DeviceArray.from_numpy(np.zeros((1, 6, 2), np.float32))
    out = sim.DeviceArray.empty((1, 6, 2), sim.ACL_FLOAT)
    assert sim.run_aclop("ShuffleChannel", [op_in(x)], [op_in(out)], {"group": 4}) == sim.ACL_ERROR_INVALID_PARAM
    assert "group 4 must be positive and divide the 6 channels" in sim.recent_error()
