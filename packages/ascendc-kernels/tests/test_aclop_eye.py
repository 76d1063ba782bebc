"""The acl_op identity matrices (abi/aclop/eye.decl) against numpy: Eye, square and not, in several data
types, num_columns negative meaning num_rows; a dtype attribute other than y's and a batch_shape fail."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in


@pytest.mark.parametrize(("rows", "cols", "shape"), [(3, 3, (3, 3)), (2, 5, (2, 5)), (4, 1, (4, 1)), (3, -1, (3, 3))])
@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_INT32, sim.ACL_INT64])
def test_eye(acl, rows, cols, shape, acl_type):
    y = sim.DeviceArray.empty(shape, acl_type)
    attrs = {"num_rows": rows, "num_columns": cols, "dtype": sim.DataTypeAttr(acl_type)}
    sim.check(sim.run_aclop("Eye", [], [op_in(y)], attrs), "Eye")
    np.testing.assert_array_equal(y.to_numpy(), np.eye(*shape))


def test_dtype_mismatch_and_batch_shape_fail(acl):
    y = sim.DeviceArray.empty((2, 2), sim.ACL_FLOAT)
    attrs = {"num_rows": 2, "num_columns": 2, "dtype": sim.DataTypeAttr(sim.ACL_INT32)}
    rc = sim.run_aclop("Eye", [], [op_in(y)], attrs)
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    assert "attribute dtype says" in sim.recent_error()
    attrs = {"num_rows": 2, "batch_shape": [1], "dtype": sim.DataTypeAttr(sim.ACL_FLOAT)}
    rc = sim.run_aclop("Eye", [], [op_in(y)], attrs)
    assert rc == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "batch_shape" in sim.recent_error()
