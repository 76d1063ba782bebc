"""The unary math acl_op types (abi/aclop/unary_math.decl) and Log's and Pow's forms for log2, log10 and
exp2 against numpy references, and a bad attribute."""

from __future__ import annotations

import math

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from test_aclop_math import const, dev, op_in, out_of, run


def _erfinv(y: float) -> float:
    if abs(y) >= 1:
        return math.copysign(math.inf, y) if abs(y) == 1 else math.nan
    x = 0.0  # Newton's method on erf(x) - y
    for _ in range(60):
        x -= (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


erfinv = np.vectorize(_erfinv)


@pytest.mark.parametrize("op,fn,lo,hi", [
    ("Sin", np.sin, -4, 4), ("Cos", np.cos, -4, 4), ("Tan", np.tan, -1.4, 1.4), ("Asin", np.arcsin, -1, 1),
    ("Acos", np.arccos, -1, 1), ("Atan", np.arctan, -5, 5), ("Sinh", np.sinh, -3, 3), ("Cosh", np.cosh, -3, 3),
    ("Asinh", np.arcsinh, -5, 5), ("Acosh", np.arccosh, 1, 6), ("Atanh", np.arctanh, -0.99, 0.99),
    ("Erf", np.vectorize(math.erf), -3, 3), ("Erfc", np.vectorize(math.erfc), -3, 3), ("Erfinv", erfinv, -0.99, 0.99),
    ("Expm1", np.expm1, -3, 3), ("Log1p", np.log1p, -0.9, 5), ("Ceil", np.ceil, -3, 3),
    ("Floor", np.floor, -3, 3), ("Trunc", np.trunc, -3, 3), ("Round", np.round, -3, 3), ("Sign", np.sign, -3, 3),
])
def test_math_types(acl, op, fn, lo, hi):
    a = np.linspace(lo, hi, 777, dtype=np.float32)
    (y,) = run(op, [op_in(dev(a))], [out_of(a.shape)])
    np.testing.assert_allclose(y, fn(a.astype(np.float64)), rtol=3e-6, atol=2e-6)


def test_round_to_decimals(acl):
    a = np.array([1.2345, -2.5551, 1234.5, 0.125], np.float32)
    (y,) = run("Round", [op_in(dev(a))], [out_of(a.shape)], {"decimals": 2})
    np.testing.assert_allclose(y, np.round(a, 2), rtol=1e-6)
    (y,) = run("Round", [op_in(dev(a))], [out_of(a.shape)], {"decimals": -2})
    np.testing.assert_allclose(y, np.round(a, -2), rtol=1e-6)


def test_log_with_base_two_and_ten(acl):
    a = np.linspace(0.1, 50, 333, dtype=np.float32)
    for base, fn in [(2.0, np.log2), (10.0, np.log10)]:
        (y,) = run("Log", [op_in(dev(a))], [out_of(a.shape)], {"base": base})
        np.testing.assert_allclose(y, fn(a.astype(np.float64)), rtol=2e-6, atol=1e-6)


def test_pow_of_a_constant_base(acl):
    a = np.linspace(-4, 4, 101, dtype=np.float32)
    (y,) = run("Pow", [const(2.0), op_in(dev(a))], [out_of(a.shape)])
    np.testing.assert_allclose(y, np.exp2(a.astype(np.float64)), rtol=2e-6)


def test_invert_and_sign_on_integers(acl):
    i = np.arange(-5, 6, dtype=np.int64)
    (y,) = run("Invert", [op_in(dev(i))], [out_of(i.shape, sim.ACL_INT64)])
    np.testing.assert_array_equal(y, np.invert(i))
    u = np.array([0, 1, 200, 255], np.uint8)
    (y,) = run("Invert", [op_in(dev(u))], [out_of(u.shape, sim.ACL_UINT8)])
    np.testing.assert_array_equal(y, np.invert(u))
    (y,) = run("Sign", [op_in(dev(i))], [out_of(i.shape, sim.ACL_INT64)])
    np.testing.assert_array_equal(y, np.sign(i))


def test_nan_to_num_replaces_nan_and_the_infinities(acl):
    a = np.array([np.nan, np.inf, -np.inf, 1.5, -2.0], np.float32)
    (y,) = run("NanToNum", [op_in(dev(a))], [out_of(a.shape)], {"nan": 7.0, "posinf": 100.0, "neginf": -50.0})
    np.testing.assert_array_equal(y, [7.0, 100.0, -50.0, 1.5, -2.0])
    (y,) = run("NanToNum", [op_in(dev(a))], [out_of(a.shape)])
    big = np.finfo(np.float32).max
    np.testing.assert_array_equal(y, [0.0, big, -big, 1.5, -2.0])


def test_bad_inputs_are_refused(acl):
    x = dev(np.ones(4, np.float32))
    assert sim.run_aclop("Log", [op_in(x)], [op_in(out_of((4,)))], {"base": 3.0}) == \
        sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "only base -1 (e), scale 1 and shift 0 are supported" in sim.recent_error()
    assert sim.run_aclop("Round", [op_in(x)], [op_in(out_of((4,)))], {"decimals": "two"}) != sim.ACL_SUCCESS
    assert "decimals" in sim.recent_error()
    assert sim.run_aclop("Invert", [op_in(x)], [op_in(out_of((4,)))]) != sim.ACL_SUCCESS
    assert sim.run_aclop("Sin", [op_in(x)], [op_in(out_of((5,)))]) != sim.ACL_SUCCESS
