"""The acl_op reductions along one dimension (abi/aclop/reduction.decl) against numpy: ArgMaxV2, ArgMin,
ArgMaxWithValue, ArgMinWithValue over each dimension, with keep_dims, NaN, integers and a 0-D x."""

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


def run(op, inputs, outputs, attrs=None):
    sim.check(sim.run_aclop(op, inputs, [op_in(o) for o in outputs], attrs), op)
    return [o.to_numpy() for o in outputs]


def reduced_shape(shape, dim, keep):
    return tuple(1 if k == dim % len(shape) else n for k, n in enumerate(shape) if keep or k != dim % len(shape))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("acl_type", [F32, I64])
def test_arg_extremes_along_a_dimension(acl, dim, keep, acl_type):
    rng = np.random.default_rng(7)
    a = rng.integers(-6, 6, (3, 4, 5)).astype(sim.numpy_dtype(acl_type))
    shape = reduced_shape(a.shape, dim, keep)
    for op, fn in [("ArgMaxV2", np.argmax), ("ArgMin", np.argmin)]:
        (y,) = run(op, [op_in(dev(a)), const(dim)], [out_of(shape, I32)], {"keep_dims": keep})
        np.testing.assert_array_equal(y, fn(a, axis=dim, keepdims=keep), err_msg=op)
    for op, fn, pick in [("ArgMaxWithValue", np.argmax, np.max), ("ArgMinWithValue", np.argmin, np.min)]:
        idx, val = run(op, [op_in(dev(a))], [out_of(shape, I64), out_of(shape, acl_type)],
                       {"dimension": dim, "keep_dims": keep})
        np.testing.assert_array_equal(idx, fn(a, axis=dim, keepdims=keep), err_msg=op)
        np.testing.assert_array_equal(val, pick(a, axis=dim, keepdims=keep), err_msg=op)


def test_nan_wins_and_0d_input(acl):
    a = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 5.0, 5.0, -1.0]], np.float32)
    idx, val = run("ArgMaxWithValue", [op_in(dev(a))], [out_of((2,), I32), out_of((2,))], {"dimension": 1})
    np.testing.assert_array_equal(idx, [1, 1])  # the first NaN; the first of equal maxima
    assert np.isnan(val[0]) and val[1] == 5.0
    (y,) = run("ArgMin", [op_in(dev(np.array(4.0, np.float32))), const(0)], [out_of((), I32)])
    assert y == 0


def test_bad_dimension_and_empty_dimension_fail(acl):
    x = dev(np.ones((2, 3), np.float32))
    assert sim.run_aclop("ArgMaxV2", [op_in(x), const(2)], [op_in(out_of((2,), I32))]) == sim.ACL_ERROR_INVALID_PARAM
    assert "dimension 2 is out of range for a 2-D x" in sim.recent_error()
    empty = sim.DeviceArray.empty((2, 0), F32)
    assert sim.run_aclop("ArgMinWithValue", [op_in(empty)], [op_in(out_of((2,), I32)), op_in(out_of((2,)))],
                         {"dimension": 1}) == sim.ACL_ERROR_INVALID_PARAM
    assert "dimension of size 0" in sim.recent_error()


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("acl_type", [F32, I64])
def test_scans_along_an_axis(acl, axis, acl_type):
    rng = np.random.default_rng(8)
    a = rng.integers(-3, 4, (3, 4, 5)).astype(sim.numpy_dtype(acl_type))
    for op, fn in [("Cumsum", np.cumsum), ("Cumprod", np.cumprod)]:
        (y,) = run(op, [op_in(dev(a)), const(axis, I64)], [out_of(a.shape, acl_type)])
        np.testing.assert_allclose(y, fn(a, axis=axis), rtol=1e-6, err_msg=op)


def test_exclusive_or_reverse_scans_are_not_simulated(acl):
    x = dev(np.ones(4, np.float32))
    assert sim.run_aclop("Cumsum", [op_in(x), const(0)], [op_in(out_of((4,)))], {"reverse": True}) == \
        sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "only inclusive forward scans are supported" in sim.recent_error()


@pytest.mark.parametrize("axes,keep", [([1], False), ([0, 2], True), ([], False), ([-1], True)])
@pytest.mark.parametrize("acl_type", [F32, I64])
def test_reduce_prod_over_axes(acl, axes, keep, acl_type):
    a = (np.arange(3 * 4 * 5) % 5 - 2).reshape(3, 4, 5).astype(sim.numpy_dtype(acl_type))
    a[a == 0] = 1
    dims = tuple(axes) if axes else None
    expected = np.asarray(np.prod(a, axis=dims, keepdims=keep))
    (y,) = run("ReduceProd", [op_in(dev(a)), const(axes, I64)], [out_of(expected.shape, acl_type)],
               {"keep_dims": keep})
    np.testing.assert_allclose(y, expected, rtol=1e-6)
    (e,) = run("ReduceProd", [op_in(sim.DeviceArray.empty((2, 0), acl_type)), const([1], I64)],
               [out_of((2,), acl_type)])
    np.testing.assert_array_equal(e, [1, 1])  # the product of no elements


def test_tensor_equal(acl):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = a.copy()
    (y,) = run("TensorEqual", [op_in(dev(a)), op_in(dev(b))], [out_of((1,), sim.ACL_BOOL)])
    assert y[0]
    b[2, 3] = np.nan
    (n,) = run("TensorEqual", [op_in(dev(a)), op_in(dev(b))], [out_of((1,), sim.ACL_BOOL)])
    assert not n[0]
    (s,) = run("TensorEqual", [op_in(dev(a)), op_in(dev(a.reshape(4, 3)))], [out_of((1,), sim.ACL_BOOL)])
    assert not s[0]  # another shape


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 2), (0, 3)])
def test_trace(acl, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 3
    (y,) = run("Trace", [op_in(dev(a))], [out_of(())])
    assert y == np.trace(a)
    assert sim.run_aclop("Trace", [op_in(dev(np.ones(3, np.float32)))], [op_in(out_of(()))]) == \
        sim.ACL_ERROR_INVALID_PARAM
