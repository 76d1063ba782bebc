"""The binary pointwise acl_op types (abi/aclop/pointwise.decl) against numpy: broadcasting, constant
scalar inputs, the integer types, LogAddExp's bases, and the attribute values not simulated."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in

F32, I64, I32 = sim.ACL_FLOAT, sim.ACL_INT64, sim.ACL_INT32


def const(value, acl_type=F32):
    v = np.asarray(value, dtype=sim.numpy_dtype(acl_type))
    return (None, tuple(v.shape), acl_type, sim.ACL_FORMAT_ND, v)


def out_of(shape, acl_type=F32):
    return sim.DeviceArray.empty(tuple(shape), acl_type)


def run(op, inputs, outputs, attrs=None):
    sim.check(sim.run_aclop(op, inputs, [op_in(o) for o in outputs], attrs), op)
    return [o.to_numpy() for o in outputs]


def xlogy(x, y):
    with np.errstate(all="ignore"):
        return np.where((x == 0) & ~np.isnan(y), 0.0, x * np.log(y))


FLOAT_TYPES = [
    ("Atan2", np.arctan2, {}), ("Xlogy", xlogy, {}),
    ("LogAddExp", np.logaddexp, {}), ("LogAddExp", np.logaddexp2, {"base": 2.0}),
    ("Mod", np.fmod, {}), ("FloorMod", np.remainder, {}), ("FloorDiv", np.floor_divide, {}),
]


@pytest.mark.parametrize("op,fn,attrs", FLOAT_TYPES, ids=[f"{op}{attrs}" for op, _, attrs in FLOAT_TYPES])
def test_float_types_broadcast(acl, op, fn, attrs):
    a = np.linspace(-4, 4, 12, dtype=np.float32).reshape(3, 1, 4)
    b = np.array([[0.5], [1.5], [-2.25], [3.0], [0.75]], np.float32)
    (y,) = run(op, [op_in(dev(a)), op_in(dev(b))], [out_of((3, 5, 4))], attrs)
    np.testing.assert_allclose(y, fn(a.astype(np.float64), b.astype(np.float64)), rtol=2e-6, atol=2e-6, err_msg=op)


INT_TYPES = [
    ("BitwiseAnd", np.bitwise_and), ("BitwiseOr", np.bitwise_or), ("BitwiseXor", np.bitwise_xor),
    ("Mod", np.fmod), ("FloorMod", np.remainder), ("FloorDiv", np.floor_divide),
]


@pytest.mark.parametrize("op,fn", INT_TYPES)
@pytest.mark.parametrize("acl_type", [I32, I64])
def test_integer_types_with_a_constant(acl, op, fn, acl_type):
    a = np.arange(-9, 9, dtype=sim.numpy_dtype(acl_type)).reshape(3, 6)
    b = np.array([3, -4, 5, -7, 2, 6], dtype=a.dtype)
    (y,) = run(op, [op_in(dev(a)), op_in(dev(b))], [out_of(a.shape, acl_type)])
    np.testing.assert_array_equal(y, fn(a, b), err_msg=op)
    (s,) = run(op, [op_in(dev(a)), const(-3, acl_type)], [out_of(a.shape, acl_type)])
    np.testing.assert_array_equal(s, fn(a, a.dtype.type(-3)), err_msg=op)


def test_shifts(acl):
    x = np.array([1, -8, 255, -1, 7], np.int64)
    shift = np.array([0, 1, 4, 63, 64], np.int64)
    (left,) = run("LeftShift", [op_in(dev(x)), op_in(dev(shift))], [out_of(x.shape, I64)])
    np.testing.assert_array_equal(left, [1, -16, 4080, np.iinfo(np.int64).min, 0])  # 64 bits or more: 0
    (right,) = run("RightShift", [op_in(dev(x)), op_in(dev(shift))], [out_of(x.shape, I64)])
    np.testing.assert_array_equal(right, [1, -4, 15, -1, 0])  # arithmetic, the sign fills past the width
    (c,) = run("LeftShift", [op_in(dev(x)), const(2, I64)], [out_of(x.shape, I64)])
    np.testing.assert_array_equal(c, x << 2)


def test_trunc_and_pow_with_a_constant_base(acl):
    a = np.array([-2.5, -0.5, 0.0, 0.5, 2.75, np.inf], np.float32)
    (t,) = run("Trunc", [op_in(dev(a))], [out_of(a.shape)])
    np.testing.assert_array_equal(t, np.trunc(a))
    e = np.linspace(-2, 3, 11, dtype=np.float32)
    (p,) = run("Pow", [const(2.0), op_in(dev(e))], [out_of(e.shape)])
    np.testing.assert_allclose(p, 2.0 ** e.astype(np.float64), rtol=2e-6)


def test_integer_division_by_zero_and_unsimulated_attributes_fail(acl):
    a = dev(np.array([1, 2, 3], np.int64))
    zero = dev(np.array([1, 0, 1], np.int64))
    sim.check(sim.run_aclop("FloorDiv", [op_in(a), op_in(zero)], [op_in(out_of((3,), I64))]), "FloorDiv")
    assert sim.load().aclrtSynchronizeDevice() != 0  # the kernel fails on the stream
    assert "ZeroDivisionError" in sim.recent_error()
    x = dev(np.ones(3, np.float32))
    assert sim.run_aclop("LogAddExp", [op_in(x), op_in(x)], [op_in(out_of((3,)))], {"base": 10.0}) == \
        sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "only base -1 (e) or 2, scale 1 and shift 0 are supported" in sim.recent_error()
    assert sim.run_aclop("BitwiseAnd", [op_in(x), op_in(x)], [op_in(out_of((3,)))]) != sim.ACL_SUCCESS


def test_fill_broadcasts_one_value(acl):
    (y,) = run("Fill", [const([2, 3], I64), const(2.5)], [out_of((2, 3))])
    np.testing.assert_array_equal(y, np.full((2, 3), 2.5, np.float32))
    value = dev(np.array(-7, np.int32))  # a device value of one element
    (z,) = run("Fill", [const([4], I32), op_in(value)], [out_of((4,), I32)])
    np.testing.assert_array_equal(z, [-7] * 4)
    (s,) = run("Fill", [const([1], I64), const(1.0)], [out_of(())])  # a 0-dim y is dims [1]
    assert s == 1.0
    assert sim.run_aclop("Fill", [const([3], I64), const(1.0)], [op_in(out_of((2,)))]) == sim.ACL_ERROR_INVALID_PARAM


@pytest.mark.parametrize("acl_type", [F32, sim.ACL_DOUBLE, I64])
def test_linspace(acl, acl_type):
    (y,) = run("LinSpace", [const(-3.0, sim.ACL_DOUBLE), const(7.0, sim.ACL_DOUBLE), const(6, I32)],
               [out_of((6,), acl_type)])
    expected = np.linspace(-3.0, 7.0, 6)
    np.testing.assert_allclose(y, expected.astype(y.dtype) if acl_type != I64 else np.trunc(expected), rtol=1e-6)
    (f,) = run("LinSpace", [const(0.0), const(1.0), const(5, I64)], [out_of((5,))])
    np.testing.assert_allclose(f, np.linspace(0, 1, 5), rtol=1e-6)
    assert sim.run_aclop("LinSpace", [const(0.0), const(1.0), const(5, I64)], [op_in(out_of((4,)))]) == \
        sim.ACL_ERROR_INVALID_PARAM


@pytest.mark.parametrize("acl_type", [F32, sim.ACL_FLOAT16])
def test_logspace_from_positions(acl, acl_type):
    dtype = sim.numpy_dtype(acl_type)
    attrs = {"start": -1.5, "end": 2.0, "steps": 8, "base": 2.5, "dtype": 0 if acl_type == sim.ACL_FLOAT16 else 1}
    (y,) = run("LogSpaceD", [op_in(dev(np.arange(8).astype(dtype)))], [out_of((8,), acl_type)], attrs)
    np.testing.assert_allclose(y, np.logspace(-1.5, 2.0, 8, base=2.5).astype(dtype), rtol=1e-3 if dtype == np.float16
                               else 1e-6)
    assert y[0] == dtype.type(2.5 ** -1.5) and y[-1] == dtype.type(2.5 ** 2.0)  # both ends exact, as PyTorch's
    # the positions, not the indices, place the values
    (r,) = run("LogSpaceD", [op_in(dev(np.arange(8)[::-1].astype(dtype)))], [out_of((8,), acl_type)], attrs)
    np.testing.assert_array_equal(r, y[::-1])
    # dtype must name y's dtype, and steps the number of positions
    assert sim.run_aclop("LogSpaceD", [op_in(dev(np.arange(8).astype(dtype)))], [op_in(out_of((8,), acl_type))],
                         {**attrs, "dtype": 1 - attrs["dtype"]}) == sim.ACL_ERROR_INVALID_PARAM
    assert sim.run_aclop("LogSpaceD", [op_in(dev(np.arange(8).astype(dtype)))], [op_in(out_of((8,), acl_type))],
                         {**attrs, "steps": 9}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
