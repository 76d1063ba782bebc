"""The acl_op types whose output sizes depend on the data (abi/aclop/compress.decl) against numpy:
NonZero, MaskedSelect and UniqueWithCountsAndSorting through aclopCompileAndExecuteV2, which writes
the sizes they produced into the output descriptors; aclopCompileAndExecute refuses them (its
caller could not learn the sizes)."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (7,), (0, 3)])
def test_nonzero(acl, shape, dtype):
    rng = np.random.default_rng(1)
    x = (rng.integers(0, 3, size=shape) * (rng.random(shape) > 0.4)).astype(dtype)
    if dtype == np.float32 and x.size:
        x.flat[0] = np.nan  # nonzero
    out = sim.DeviceArray.empty((x.size, x.ndim), sim.ACL_INT64)
    shapes: list = []
    sim.check(sim.run_aclop("NonZero", [op_in(sim.DeviceArray.from_numpy(x))], [op_in(out)], reported_shapes=shapes),
              "NonZero")
    expected = np.argwhere(x)
    assert shapes == [list(expected.shape)]
    np.testing.assert_array_equal(out.to_numpy()[: len(expected)], expected)


def test_nonzero_of_a_zero_dim_tensor(acl):
    for value, rows in ((2.5, 1), (0.0, 0)):
        out = sim.DeviceArray.empty((1, 0), sim.ACL_INT64)
        shapes: list = []
        x = sim.DeviceArray.from_numpy(np.array(value, np.float32))
        sim.check(sim.run_aclop("NonZero", [(x, (), sim.ACL_FLOAT)], [op_in(out)], reported_shapes=shapes), "NonZero")
        assert shapes == [[rows, 0]]


@pytest.mark.parametrize("shape,mask_shape", [((4, 5), (4, 5)), ((4, 5), (5,)), ((1, 5), (3, 1)), ((0, 2), (2,))])
def test_masked_select(acl, shape, mask_shape):
    rng = np.random.default_rng(2)
    x = rng.normal(size=shape).astype(np.float32)
    mask = rng.random(mask_shape) > 0.5
    n = int(np.prod(np.broadcast_shapes(shape, mask_shape)))
    out = sim.DeviceArray.empty((n,), sim.ACL_FLOAT)
    shapes: list = []
    sim.check(sim.run_aclop("MaskedSelect", [op_in(sim.DeviceArray.from_numpy(x)),
                                             op_in(sim.DeviceArray.from_numpy(mask))], [op_in(out)],
                            reported_shapes=shapes), "MaskedSelect")
    xb, mb = np.broadcast_arrays(x, mask)
    expected = xb[mb]
    assert shapes == [[len(expected)]]
    np.testing.assert_array_equal(out.to_numpy()[: len(expected)], expected)


@pytest.mark.parametrize("return_inverse,return_counts", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_unique_with_counts_and_sorting(acl, dtype, return_inverse, return_counts):
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 4, size=(4, 6)).astype(dtype)
    n = x.size
    y = sim.DeviceArray.empty((n,), sim.acl_dtype(dtype))
    idx = sim.DeviceArray.empty(x.shape if return_inverse else (0,), sim.ACL_INT64)
    count = sim.DeviceArray.empty((n,) if return_counts else (0,), sim.ACL_INT64)
    shapes: list = []
    sim.check(sim.run_aclop("UniqueWithCountsAndSorting", [op_in(sim.DeviceArray.from_numpy(x))],
                            [op_in(y), op_in(idx), op_in(count)],
                            {"sorted": True, "return_inverse": return_inverse, "return_counts": return_counts},
                            reported_shapes=shapes), "UniqueWithCountsAndSorting")
    values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    groups = len(values)
    assert shapes == [[groups], list(idx.shape), [groups] if return_counts else [0]]
    np.testing.assert_array_equal(y.to_numpy()[:groups], values)
    if return_inverse:
        np.testing.assert_array_equal(idx.to_numpy(), inverse.reshape(x.shape))
    if return_counts:
        np.testing.assert_array_equal(count.to_numpy()[:groups], counts)


def test_the_v1_call_refuses_an_op_with_data_dependent_shapes(acl):
    x = sim.DeviceArray.from_numpy(np.ones((2, 2), np.float32))
    out = sim.DeviceArray.empty((4, 2), sim.ACL_INT64)
    assert sim.run_aclop("NonZero", [op_in(x)], [op_in(out)]) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "run it with aclopCompileAndExecuteV2" in sim.recent_error()


def test_bad_inputs_fail_naming_the_operand(acl):
    x = sim.DeviceArray.from_numpy(np.ones((2, 3), np.float32))
    small = sim.DeviceArray.empty((5, 2), sim.ACL_INT64)
    assert sim.run_aclop("NonZero", [op_in(x)], [op_in(small)], reported_shapes=[]) == sim.ACL_ERROR_INVALID_PARAM
    assert "output y has shape [5, 2], expected [6, 2]" in sim.recent_error()
    mask = sim.DeviceArray.from_numpy(np.ones((4,), np.bool_))
    out = sim.DeviceArray.empty((6,), sim.ACL_FLOAT)
    assert sim.run_aclop("MaskedSelect", [op_in(x), op_in(mask)], [op_in(out)],
                         reported_shapes=[]) == sim.ACL_ERROR_INVALID_PARAM
    assert "x [2, 3] and mask [4] do not broadcast" in sim.recent_error()
    out = sim.DeviceArray.empty((2, 3), sim.ACL_INT64)
    assert sim.run_aclop("NonZero", [op_in(x)], [op_in(out)], {"transpose": True},
                         reported_shapes=[]) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
