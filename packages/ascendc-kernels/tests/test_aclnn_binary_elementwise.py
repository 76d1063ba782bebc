"""The binary and ternary operators of the elementwise kernel (abi/aclnn/binary_elementwise.decl)
against numpy and closed forms: clamp, powers, the division family (signs, rounding, integer
division by zero), floating binary math, incomplete gamma and zeta, nextafter in float16,
bitwise, shifts, logical operators, gcd/lcm, scalar operands and type promotion."""

from __future__ import annotations

import math

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device


def run(api, *operands, out_shape=None, out_type=None, extra=()):
    """api(operands..., extra..., out): numpy arrays become device tensors of their dtype, the rest
    passes as is; returns out."""
    args, shapes, dtypes = [], [], []
    keep = []
    for x in operands:
        if isinstance(x, np.ndarray):
            acl_type = sim.acl_dtype(x.dtype)
            device = to_device(x, acl_type)
            keep.append(device)
            args.append(device.tensor())
            shapes.append(x.shape)
            dtypes.append(acl_type)
        else:
            args.append(x)
    shape = out_shape if out_shape is not None else np.broadcast_shapes(*shapes)
    out = sim.DeviceArray.empty(shape, out_type if out_type is not None else dtypes[0])
    sim.check(sim.run_aclnn(api, *args, *extra, out.tensor()), api)
    return from_device(out)


def sync_error() -> str:
    rc = sim.load().aclrtSynchronizeDevice()
    return "" if rc == 0 else sim.recent_error()


SIGNED = np.array([-7, -6, -5, -1, 0, 1, 5, 6, 7, 100, -100], dtype=np.int64)
DIVISORS = np.array([3, -3, 2, -2, 5, -4, 7, 1, -1, 9, -9], dtype=np.int64)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8])
def test_integer_division_family_matches_python(acl, dtype):
    a, b = SIGNED.astype(dtype), DIVISORS.astype(dtype)
    np.testing.assert_array_equal(run("aclnnRemainderTensorTensor", a, b), np.remainder(a, b))
    np.testing.assert_array_equal(run("aclnnFmodTensor", a, b), np.fmod(a, b))
    np.testing.assert_array_equal(run("aclnnFloorDivide", a, b), np.floor_divide(a, b))
    np.testing.assert_array_equal(run("aclnnDivMod", a, b, extra=(1,)), (np.trunc(a / b)).astype(dtype))
    np.testing.assert_array_equal(run("aclnnDivMod", a, b, extra=(2,)), np.floor_divide(a, b))


def test_float_division_family_matches_numpy(acl):
    rng = np.random.default_rng(1)
    a = rng.uniform(-50, 50, 1000).astype(np.float32)
    b = rng.uniform(-7, 7, 1000).astype(np.float32)
    np.testing.assert_allclose(run("aclnnRemainderTensorTensor", a, b), np.remainder(a, b), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(run("aclnnFmodTensor", a, b), np.fmod(a, b), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(run("aclnnFloorDivide", a, b), np.floor_divide(a, b))
    np.testing.assert_array_equal(run("aclnnDivMod", a, b, extra=(1,)), np.trunc(a / b))
    np.testing.assert_allclose(run("aclnnDivMod", a, b, extra=(0,)), a / b, rtol=1e-6)
    specials = np.array([1.0, -1.0, 0.0, -0.0, np.inf, np.nan, 5.0], np.float32)
    zeros = np.array([0.0, 0.0, 0.0, 0.0, 2.0, 1.0, np.inf], np.float32)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(run("aclnnFloorDivide", specials, zeros), np.floor_divide(specials, zeros))
        np.testing.assert_array_equal(run("aclnnRemainderTensorTensor", specials, zeros), np.remainder(specials, zeros))


@pytest.mark.parametrize("api,extra", [("aclnnRemainderTensorTensor", ()), ("aclnnFmodTensor", ()),
                                       ("aclnnFloorDivide", ()), ("aclnnDivMod", (1,))])
def test_integer_division_by_zero_fails_the_kernel(acl, api, extra):
    a = np.array([1, 2, 3], np.int32)
    b = np.array([1, 0, 3], np.int32)
    out = sim.DeviceArray.empty((3,), sim.ACL_INT32)
    x, y = to_device(a, sim.ACL_INT32), to_device(b, sim.ACL_INT32)
    sim.check(sim.run_aclnn(api, x.tensor(), y.tensor(), *extra, out.tensor()))
    assert "ZeroDivisionError" in sync_error()


def test_scalar_operands_and_their_promotion(acl):
    a = np.array([-7, -2, 0, 3, 8], np.int32)
    # an integral tensor and a Python int stay int32; a Python float gives float32
    np.testing.assert_array_equal(run("aclnnRemainderTensorScalar", a, sim.Scalar(3)), np.remainder(a, 3))
    got = run("aclnnRemainderTensorScalar", a, sim.Scalar(2.5), out_type=sim.ACL_FLOAT)
    np.testing.assert_allclose(got, np.remainder(a.astype(np.float32), 2.5))
    b = np.array([1, 2, 3, 4, 5], np.int64)
    np.testing.assert_array_equal(run("aclnnRemainderScalarTensor", sim.Scalar(7), b, out_shape=(5,)),
                                  np.remainder(7, b))
    np.testing.assert_array_equal(run("aclnnFloorDivides", a, sim.Scalar(-3), extra=()), np.floor_divide(a, -3))
    # other - alpha * self
    f = np.array([1.0, 2.0, -3.0], np.float32)
    np.testing.assert_array_equal(run("aclnnRsubs", f, sim.Scalar(10.0), sim.Scalar(2.0)), 10.0 - 2.0 * f)
    g = np.array([0.5, 0.25, 4.0], np.float32)
    np.testing.assert_array_equal(run("aclnnRsub", f, g, sim.Scalar(3.0)), g - 3.0 * f)


def test_clamp_scalars_tensors_and_nan(acl):
    x = np.array([-3.0, -1.0, 0.0, 0.5, 2.0, np.nan, 9.0], np.float32)
    np.testing.assert_array_equal(run("aclnnClamp", x, sim.Scalar(-1.0), sim.Scalar(1.0)), np.clip(x, -1, 1))
    np.testing.assert_array_equal(run("aclnnClamp", x, None, sim.Scalar(1.0)), np.minimum(x, 1.0))
    np.testing.assert_array_equal(run("aclnnClampMax", x, sim.Scalar(0.0)), np.minimum(x, 0.0))
    assert np.isnan(run("aclnnClamp", x, sim.Scalar(float("nan")), sim.Scalar(1.0))).all()
    # min > max gives max everywhere, as torch.clamp
    np.testing.assert_array_equal(run("aclnnClamp", x[:5], sim.Scalar(2.0), sim.Scalar(1.0)), np.full(5, 1.0))
    lo = np.array([0.0, 0.0, np.nan, 0.0, 0.0, 0.0, 0.0], np.float32)
    hi = np.array([[1.0], [5.0]], np.float32)
    np.testing.assert_array_equal(run("aclnnClampTensor", x, lo, hi), np.minimum(np.maximum(x, lo), hi))
    # an integral self with a floating bound computes in float32
    i = np.array([-5, 0, 5], np.int32)
    got = run("aclnnClamp", i, sim.Scalar(-1.5), sim.Scalar(2.5), out_type=sim.ACL_FLOAT)
    np.testing.assert_array_equal(got, np.array([-1.5, 0.0, 2.5], np.float32))
    self_i, out_i = to_device(i, sim.ACL_INT32), sim.DeviceArray.empty((3,), sim.ACL_INT32)
    assert sim.aclnn_workspace("aclnnClamp", self_i.tensor(), None, None, out_i.tensor())[0] != 0


def test_integer_and_float_powers(acl):
    base = np.array([2, -2, 3, 1, -1, -1, 0, 5], np.int64)
    exponent = np.array([10, 3, -1, -5, -3, -4, 0, 27], np.int64)
    expected = np.array([1024, -8, 0, 1, -1, 1, 1, (5**27) % 2**64 - 2**64 * ((5**27) % 2**64 >= 2**63)], np.int64)
    np.testing.assert_array_equal(run("aclnnPowTensorTensor", base, exponent), expected)
    rng = np.random.default_rng(2)
    a = rng.uniform(0.1, 10, 500).astype(np.float32)
    b = rng.uniform(-3, 3, 500).astype(np.float32)
    np.testing.assert_allclose(run("aclnnPowTensorTensor", a, b), np.power(a, b), rtol=1e-6)
    np.testing.assert_allclose(run("aclnnPowScalarTensor", sim.Scalar(2.0), b, out_shape=(500,)), np.exp2(b),
                               rtol=1e-6)


def test_floating_binary_math(acl):
    rng = np.random.default_rng(3)
    a = rng.uniform(-10, 10, 777).astype(np.float32)
    b = rng.uniform(-10, 10, 777).astype(np.float32)
    np.testing.assert_allclose(run("aclnnAtan2", a, b), np.arctan2(a, b), rtol=1e-6)
    np.testing.assert_allclose(run("aclnnHypot", a, b), np.hypot(a, b), rtol=1e-6)
    np.testing.assert_array_equal(run("aclnnCopysign", a, b), np.copysign(a, b))
    np.testing.assert_allclose(run("aclnnLogAddExp", a, b), np.logaddexp(a, b), rtol=1e-6)
    np.testing.assert_allclose(run("aclnnLogAddExp2", a, b), np.logaddexp2(a, b), rtol=1e-6)
    pos = np.abs(b)
    np.testing.assert_allclose(run("aclnnXLogYTensor", a, pos), a * np.log(pos), rtol=1e-5)
    np.testing.assert_allclose(run("aclnnXLog1pYTensor", a, pos), a * np.log1p(pos), rtol=1e-5)
    # xlogy: 0 where x == 0 (even for y == 0), NaN for a NaN y
    x = np.array([0.0, 0.0, 1.0], np.float32)
    y = np.array([0.0, np.nan, 0.0], np.float32)
    got = run("aclnnXLogYTensor", x, y)
    assert got[0] == 0.0 and np.isnan(got[1]) and got[2] == -np.inf
    inf = np.array([np.inf, -np.inf, np.nan], np.float32)
    np.testing.assert_array_equal(run("aclnnLogAddExp", inf, inf), inf)
    # int to float: atan2 of integers computes in float32
    ints = np.array([1, -1, 0], np.int32)
    got = run("aclnnAtan2", ints, np.array([1, 1, -1], np.int32), out_type=sim.ACL_FLOAT)
    np.testing.assert_allclose(got, np.arctan2([1, -1, 0], [1, 1, -1]).astype(np.float32), rtol=1e-6)


def test_fmax_fmin_heaviside(acl):
    a = np.array([1.0, np.nan, np.nan, -0.0, 0.0, -2.0], np.float32)
    b = np.array([np.nan, 2.0, np.nan, 5.0, 7.0, 3.0], np.float32)
    np.testing.assert_array_equal(run("aclnnFmax", a, b), np.fmax(a, b))
    np.testing.assert_array_equal(run("aclnnFmin", a, b), np.fmin(a, b))
    # torch.heaviside: NaN input gives 0 (numpy's gives NaN)
    np.testing.assert_array_equal(run("aclnnHeaviside", a, b), np.where(a == 0, b, (a > 0).astype(np.float32)))
    x, y = to_device(a, sim.ACL_FLOAT), to_device(b.astype(np.float16), sim.ACL_FLOAT16)
    out = sim.DeviceArray.empty((6,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnHeaviside", x.tensor(), y.tensor(), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "same dtype" in sim.recent_error()


def test_nextafter_steps_the_stored_type(acl):
    a = np.array([1.0, 1.0, 0.0, -0.0, 65504.0, -1.0, 2.0], np.float16)
    b = np.array([2.0, 0.0, 1.0, -1.0, np.inf, -2.0, 2.0], np.float16)
    x, y = to_device(a, sim.ACL_FLOAT16), to_device(b, sim.ACL_FLOAT16)
    out = sim.DeviceArray.empty((7,), sim.ACL_FLOAT16)
    sim.check(sim.run_aclnn("aclnnNextAfter", x.tensor(), y.tensor(), out.tensor()))
    with np.errstate(over="ignore"):
        expected = np.nextafter(a, b)
    np.testing.assert_array_equal(out.to_numpy().view(np.uint16), expected.view(np.uint16))
    f = np.array([1.0, 0.0, -3.0], np.float32)
    g = np.array([2.0, -1.0, -4.0], np.float32)
    np.testing.assert_array_equal(run("aclnnNextAfter", f, g), np.nextafter(f, g))


def test_incomplete_gamma_closed_forms_and_special_values(acl):
    x = np.array([0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0], np.float64)
    ones = np.ones_like(x)
    np.testing.assert_allclose(run("aclnnIgamma", ones, x), 1 - np.exp(-x), rtol=1e-12)
    erf = np.vectorize(math.erf)
    np.testing.assert_allclose(run("aclnnIgamma", np.full_like(x, 0.5), x), erf(np.sqrt(x)), rtol=1e-12)
    # Q(3, x) = e^-x (1 + x + x^2 / 2)
    np.testing.assert_allclose(run("aclnnIgammac", np.full_like(x, 3.0), x), np.exp(-x) * (1 + x + x * x / 2),
                               rtol=1e-12)
    a = np.array([-1.0, 0.0, 0.0, 2.0, np.inf, np.inf, 2.0, np.nan], np.float32)
    z = np.array([1.0, 1.0, 0.0, 0.0, 1.0, np.inf, np.inf, 1.0], np.float32)
    got = run("aclnnIgamma", a, z)
    expected = np.array([np.nan, 1.0, np.nan, 0.0, 0.0, np.nan, 1.0, np.nan], np.float32)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(run("aclnnIgammac", a, z), np.where(np.isnan(expected), np.nan, 1 - expected))


def test_hurwitz_zeta(acl):
    s = np.array([2.0, 4.0, 3.0, 2.0, 1.0, 0.5, 2.0, 2.5], np.float64)
    q = np.array([1.0, 1.0, 1.0, 2.5, 1.0, 1.0, -1.0, -0.5], np.float64)
    got = run("aclnnZeta", s, q)
    np.testing.assert_allclose(got[:3], [math.pi**2 / 6, math.pi**4 / 90, 1.2020569031595942], rtol=1e-13)
    # zeta(s, q) - zeta(s, q + 1) = q^-s
    np.testing.assert_allclose(got[3] - run("aclnnZeta", s[3:4], q[3:4] + 1)[0], 2.5**-2, rtol=1e-12)
    assert got[4] == np.inf and np.isnan(got[5]) and got[6] == np.inf and np.isnan(got[7])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64])
def test_bitwise_and_shifts(acl, dtype):
    rng = np.random.default_rng(4)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, 300, endpoint=True).astype(dtype)
    b = rng.integers(info.min, info.max, 300, endpoint=True).astype(dtype)
    np.testing.assert_array_equal(run("aclnnBitwiseAndTensor", a, b), a & b)
    np.testing.assert_array_equal(run("aclnnBitwiseOrTensor", a, b), a | b)
    np.testing.assert_array_equal(run("aclnnBitwiseXorTensor", a, b), a ^ b)
    bits = info.bits
    counts = np.array([0, 1, bits - 1, bits, bits + 3, 2] + ([-1] if info.min < 0 else [200]), dtype=dtype)
    x = np.full(counts.shape, info.min if info.min < 0 else info.max, dtype=dtype)
    signed = info.min < 0

    def wrap(v: int) -> int:  # two's complement in `bits`
        v &= (1 << bits) - 1
        return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v

    wide = [int(v) for v in x]
    shifts = [int(c) for c in counts]
    expected_left = np.array([wrap(v << c) if 0 <= c < bits else 0 for v, c in zip(wide, shifts)], dtype=dtype)
    np.testing.assert_array_equal(run("aclnnLeftShift", x, counts), expected_left)
    limit = bits - (1 if signed else 0)
    expected_right = np.array([v >> c if 0 <= c < limit else (v >> limit if signed else 0)
                               for v, c in zip(wide, shifts)], dtype=dtype)
    np.testing.assert_array_equal(run("aclnnRightShift", x, counts), expected_right)


def test_bool_bitwise_logical_and_scalars(acl):
    p = np.array([True, True, False, False])
    q = np.array([True, False, True, False])
    np.testing.assert_array_equal(run("aclnnBitwiseAndTensor", p, q), p & q)
    np.testing.assert_array_equal(run("aclnnBitwiseXorTensor", p, q), p ^ q)
    f = np.array([0.0, np.nan, -0.0, 2.5], np.float32)
    i = np.array([0, 0, 3, -1], np.int32)
    for api, op in [("aclnnLogicalAnd", np.logical_and), ("aclnnLogicalOr", np.logical_or),
                    ("aclnnLogicalXor", np.logical_xor)]:
        np.testing.assert_array_equal(run(api, f, i, out_type=sim.ACL_BOOL), op(f, i))
        # out of another dtype holds 1 and 0
        np.testing.assert_array_equal(run(api, f, i, out_type=sim.ACL_FLOAT), op(f, i).astype(np.float32))
    np.testing.assert_array_equal(run("aclnnBitwiseAndScalar", i, sim.Scalar(6)), i & 6)
    # a bool tensor with an integer scalar promotes to int64
    np.testing.assert_array_equal(run("aclnnBitwiseOrScalar", p, sim.Scalar(4), out_type=sim.ACL_INT64),
                                  p.astype(np.int64) | 4)
    x, out = to_device(f, sim.ACL_FLOAT), sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnBitwiseAndTensor", x.tensor(), x.tensor(), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID


def test_gcd_lcm(acl):
    rng = np.random.default_rng(5)
    a = rng.integers(-1000, 1000, 400).astype(np.int64)
    b = rng.integers(-1000, 1000, 400).astype(np.int64)
    a[:3], b[:3] = [0, 0, 12], [0, 18, 0]
    np.testing.assert_array_equal(run("aclnnGcd", a, b), np.gcd(a, b))
    np.testing.assert_array_equal(run("aclnnLcm", a, b), np.lcm(a, b))


def test_half_precision_computes_in_float32(acl):
    rng = np.random.default_rng(6)
    a = rng.uniform(-20, 20, 300).astype(np.float16).astype(np.float32)
    b = rng.uniform(1, 5, 300).astype(np.float16).astype(np.float32)
    got = from_device_pair("aclnnRemainderTensorTensor", a, b, sim.ACL_FLOAT16)
    np.testing.assert_array_equal(got, round_to(np.remainder(a, b), sim.ACL_FLOAT16))
    got = from_device_pair("aclnnAtan2", a, b, sim.ACL_BF16)
    np.testing.assert_allclose(got, round_to(np.arctan2(round_to(a, sim.ACL_BF16), round_to(b, sim.ACL_BF16)),
                                             sim.ACL_BF16), rtol=1e-2)


def from_device_pair(api, a, b, acl_type):
    x, y = to_device(round_to(a, acl_type), acl_type), to_device(round_to(b, acl_type), acl_type)
    out = sim.DeviceArray.empty(a.shape, acl_type)
    sim.check(sim.run_aclnn(api, x.tensor(), y.tensor(), out.tensor()))
    return from_device(out)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_frexp_mantissa_and_int32_exponent(acl, dtype):
    x = np.array([0.75, -3.0, 1e-4, 0.0, -0.0, np.inf, -np.inf, np.nan, 1024.0, 5.5], dtype=dtype)
    acl_type = sim.acl_dtype(x.dtype)
    device = to_device(x, acl_type)
    mantissa = sim.DeviceArray.empty(x.shape, acl_type)
    exponent = sim.DeviceArray.empty(x.shape, sim.ACL_INT32)
    sim.check(sim.run_aclnn("aclnnFrexp", device.tensor(), mantissa.tensor(), exponent.tensor()))
    expected_m, expected_e = np.frexp(x)
    np.testing.assert_array_equal(from_device(mantissa), expected_m)
    np.testing.assert_array_equal(from_device(exponent), np.where(np.isfinite(x), expected_e, 0))
    wrong = sim.DeviceArray.empty(x.shape, sim.ACL_INT64)
    rc, _, _ = sim.aclnn_workspace("aclnnFrexp", device.tensor(), mantissa.tensor(), wrong.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "int32" in sim.recent_error()
