"""The acl_op types Index and IndexPutV2 (abi/aclop/advanced_index.decl) against numpy's advanced indexing:
indexed dimensions adjacent and apart, a leading None, int32 indices, negative and repeated indices,
accumulate; and the refusals: indexed_sizes that disagree with the index tensors, a value of the wrong
shape, an index outside (the kernel fails)."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in


def host_ints(values):
    array = np.asarray(values, np.int64)
    return (None, array.shape, sim.ACL_INT64, sim.ACL_FORMAT_ND, array)


X = np.arange(4 * 5 * 6, dtype=np.float32).reshape(4, 5, 6)
# (masks, index arrays, numpy's index tuple)
CASES = [
    ([1], [np.array([3, 0, -1, 3])], lambda i: (i[0],)),
    ([0, 1, 1], [np.array([[0, 4], [2, 2]]), np.array([[5, -6], [1, 1]])], lambda i: (slice(None), i[0], i[1])),
    ([1, 0, 1], [np.array([1, 2]), np.array([0, 5])], lambda i: (i[0], slice(None), i[1])),
]


@pytest.mark.parametrize("index_dtype", [np.int64, np.int32])
@pytest.mark.parametrize("masks,indices,numpy_index", CASES)
def test_index(acl, masks, indices, numpy_index, index_dtype):
    expected = X[numpy_index(indices)]
    y = sim.DeviceArray.empty(expected.shape, sim.ACL_FLOAT)
    inputs = [op_in(dev(X)), host_ints(masks), host_ints(expected.shape)]
    inputs += [op_in(dev(i.astype(index_dtype))) for i in indices]
    sim.check(sim.run_aclop("Index", inputs, [op_in(y)]), "Index")
    np.testing.assert_array_equal(y.to_numpy(), expected)


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("masks,indices,numpy_index", CASES)
def test_index_put_v2(acl, masks, indices, numpy_index, accumulate):
    shape = X[numpy_index(indices)].shape
    value = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    y = sim.DeviceArray.empty(X.shape, sim.ACL_FLOAT)
    inputs = [op_in(dev(X)), op_in(dev(value)), host_ints(masks), host_ints(shape)]
    inputs += [op_in(dev(i)) for i in indices]
    sim.check(sim.run_aclop("IndexPutV2", inputs, [op_in(y)], {"accumulate": accumulate}), "IndexPutV2")
    expected = X.copy()
    if accumulate:
        np.add.at(expected, numpy_index(indices), value)
    else:
        expected[numpy_index(indices)] = value  # repeated indices: the last value stays, as numpy
    np.testing.assert_allclose(y.to_numpy(), expected, rtol=1e-6)


def test_index_refuses_masks_that_disagree_with_the_indices(acl):
    y = sim.DeviceArray.empty((2, 5, 6), sim.ACL_FLOAT)
    inputs = [op_in(dev(X)), host_ints([1, 1]), host_ints([2, 5, 6]), op_in(dev(np.array([0, 1])))]
    assert sim.run_aclop("Index", inputs, [op_in(y)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "indexed_sizes marks 2 indexed dimensions but 1 index tensors are given" in sim.recent_error()


def test_index_put_v2_refuses_a_value_of_the_wrong_shape(acl):
    y = sim.DeviceArray.empty(X.shape, sim.ACL_FLOAT)
    inputs = [op_in(dev(X)), op_in(dev(np.zeros((3, 5, 6), np.float32))), host_ints([1]), host_ints([2, 5, 6]),
              op_in(dev(np.array([0, 1])))]
    assert sim.run_aclop("IndexPutV2", inputs, [op_in(y)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "input value has shape [3, 5, 6], the indexing result is [2, 5, 6]" in sim.recent_error()


def test_index_outside_fails_the_kernel(acl):
    y = sim.DeviceArray.empty((1, 5, 6), sim.ACL_FLOAT)
    inputs = [op_in(dev(X)), host_ints([1]), host_ints([1, 5, 6]), op_in(dev(np.array([4])))]
    rc = sim.run_aclop("Index", inputs, [op_in(y)])
    if rc == 0:
        rc = sim.load().aclrtSynchronizeDevice()
    assert rc != 0
    assert "index 4 is out of bounds for dimension 0 with size 4" in sim.recent_error()
