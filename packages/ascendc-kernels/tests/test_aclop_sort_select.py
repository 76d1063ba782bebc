"""The acl_op selections from sorted rows (abi/aclop/sort_select.decl) against numpy: TopKV2 along the
last dimension, largest and smallest, with NaN, integers and int32 / int64 indices; a dim that is not
the last one and a k beyond the row fail."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in

F32, I32, I64 = sim.ACL_FLOAT, sim.ACL_INT32, sim.ACL_INT64


def const(value, acl_type=I32):
    v = np.asarray(value, dtype=sim.numpy_dtype(acl_type))
    return (None, tuple(v.shape), acl_type, sim.ACL_FORMAT_ND, v)


def out_of(shape, acl_type=F32):
    return sim.DeviceArray.empty(tuple(shape), acl_type)


def topk(a, k, largest, index_type=I32, dim=-1):
    x = dev(a)
    shape = (*a.shape[:-1], k)
    values, indices = out_of(shape, x.acl_type), out_of(shape, index_type)
    rc = sim.run_aclop("TopKV2", [op_in(x), const([k])], [op_in(values), op_in(indices)],
                       {"dim": dim, "largest": largest, "sorted": True})
    return rc, values, indices


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("index_type", [I32, I64])
def test_topk_picks_the_extremes_of_each_row_in_order(acl, largest, index_type):
    a = np.random.default_rng(3).permutation(60).reshape(3, 4, 5).astype(np.float32) - 30
    rc, values, indices = topk(a, 3, largest, index_type, dim=2)
    sim.check(rc, "TopKV2")
    order = np.argsort(-a if largest else a, axis=-1, kind="stable")[..., :3]
    np.testing.assert_array_equal(indices.to_numpy(), order)
    np.testing.assert_array_equal(values.to_numpy(), np.take_along_axis(a, order, -1))


def test_topk_of_integers_and_nan(acl):
    a = np.array([[4, -2, 9, 7, 0]], np.int64)
    rc, values, indices = topk(a, 2, False)
    sim.check(rc, "TopKV2")
    np.testing.assert_array_equal(values.to_numpy(), [[-2, 0]])
    np.testing.assert_array_equal(indices.to_numpy(), [[1, 4]])
    f = np.array([[1.0, np.nan, 3.0, 2.0]], np.float32)
    rc, values, indices = topk(f, 2, True)
    sim.check(rc, "TopKV2")
    assert np.isnan(values.to_numpy()[0, 0]) and values.to_numpy()[0, 1] == 3.0
    np.testing.assert_array_equal(indices.to_numpy(), [[1, 2]])


def test_topk_other_dim_and_large_k_fail(acl):
    a = np.ones((2, 3), np.float32)
    rc, _, _ = topk(a, 1, True, dim=0)
    assert rc == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "only the last dimension" in sim.recent_error()
    x = dev(a)
    rc = sim.run_aclop("TopKV2", [op_in(x), const([4])], [op_in(out_of((2, 4))), op_in(out_of((2, 4), I32))])
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    assert "input k must hold one value in [0, 3]" in sim.recent_error()
