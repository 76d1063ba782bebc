"""The ShuffleChannel and PRelu acl_op types (abi/aclop/shuffle.decl, prelu.decl) against numpy: a group
that does not divide the channels, per-channel and broadcast weights, a weight that fits neither."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in


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


@pytest.mark.parametrize("shape,weight_shape", [((2, 3, 4, 5), (3,)), ((2, 3, 4, 5), (3, 1, 1)), ((4, 5), (1,)),
                                                ((3, 4), (4,))])
def test_prelu(acl, shape, weight_shape):
    rng = np.random.default_rng(0)
    x = rng.normal(size=shape).astype(np.float32)
    w = rng.uniform(0.1, 0.9, size=weight_shape).astype(np.float32)
    out = sim.DeviceArray.empty(shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclop("PRelu", [op_in(sim.DeviceArray.from_numpy(x)), op_in(sim.DeviceArray.from_numpy(w))],
                            [op_in(out)]), "PRelu")
    per_channel = w.reshape((-1,) + (1,) * (len(shape) - 2)) if len(weight_shape) == 1 and len(shape) >= 2 and \
        weight_shape[0] == shape[1] else w
    np.testing.assert_allclose(out.to_numpy(), np.where(x > 0, x, per_channel * x), rtol=1e-6)


def test_prelu_refuses_a_weight_that_fits_neither(acl):
    x = sim.DeviceArray.from_numpy(np.zeros((2, 3, 4), np.float32))
    w = sim.DeviceArray.from_numpy(np.ones((5,), np.float32))
    out = sim.DeviceArray.empty((2, 3, 4), sim.ACL_FLOAT)
    assert sim.run_aclop("PRelu", [op_in(x), op_in(w)], [op_in(out)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "input weight of shape [5] fits neither x [2, 3, 4]'s channels nor its shape" in sim.recent_error()
