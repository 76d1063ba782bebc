"""The generic elementwise kernel through its aclnn entry points, against numpy:
every functor (unary math, activations and their backward, binary/ternary math,
compares, where, masked_fill), sizes with tails and several blocks, broadcasting,
strided views, type promotion and rejected dtypes."""

from __future__ import annotations

import math

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, random_values, round_to, to_device

SIZES = [0, 1, 7, 997, 70_001]  # empty, one, primes, several blocks and tiles
FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOL = {sim.ACL_FLOAT: 2e-6, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1.6e-2, sim.ACL_DOUBLE: 1e-6}

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _phi(x):
    return 0.5 * (1.0 + _erf(x / math.sqrt(2.0)))


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def _gelu_tanh_grad(g, x):
    k, c = math.sqrt(2 / math.pi), 0.044715
    t = np.tanh(k * (x + c * x**3))
    return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * c * x * x))


# api -> (numpy reference on float64, input range)
UNARY = {
    "aclnnNeg": (np.negative, (-50, 50)),
    "aclnnExp": (np.exp, (-10, 10)),
    "aclnnLog": (np.log, (0.01, 100)),
    "aclnnSqrt": (np.sqrt, (0, 100)),
    "aclnnRsqrt": (lambda x: 1 / np.sqrt(x), (0.01, 100)),
    "aclnnReciprocal": (lambda x: 1 / x, (0.5, 100)),
    "aclnnTanh": (np.tanh, (-6, 6)),
    "aclnnSigmoid": (_sigmoid, (-20, 20)),
    "aclnnRelu": (lambda x: np.maximum(x, 0), (-10, 10)),
    "aclnnSilu": (lambda x: x * _sigmoid(x), (-10, 10)),
    "aclnnGelu": (lambda x: x * _phi(x), (-6, 6)),
}

BACKWARD = {
    "aclnnSigmoidBackward": lambda g, y: g * (1 - y) * y,
    "aclnnTanhBackward": lambda g, y: g * (1 - y * y),
    "aclnnSiluBackward": lambda g, x: g * _sigmoid(x) * (1 + x * (1 - _sigmoid(x))),
    "aclnnGeluBackward": lambda g, x: g * (_phi(x) + x * np.exp(-x * x / 2) / math.sqrt(2 * math.pi)),
}


def run(api, inputs, out_shape, out_type, *extra):
    """inputs: list of (values, acl_type) or aclScalars / plain args in order; out appended."""
    args = []
    keep = []
    for item in inputs:
        if isinstance(item, tuple):
            dev = to_device(item[0], item[1])
            keep.append(dev)
            args.append(dev.tensor())
        else:
            args.append(item)
    out = sim.DeviceArray.empty(out_shape, out_type)
    sim.check(sim.run_aclnn(api, *args, *extra, out.tensor()))
    return from_device(out)


def close(got, expected, acl_type, atol=1e-6):
    np.testing.assert_allclose(got, round_to(np.asarray(expected, dtype=np.float64).astype(np.float32), acl_type)
                               if acl_type != sim.ACL_DOUBLE else expected, rtol=TOL[acl_type], atol=atol)


@pytest.mark.parametrize("api", list(UNARY))
@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("n", SIZES)
def test_unary_functors_match_numpy(acl, api, dtype, n):
    acl_type = FLOATS[dtype]
    ref, (lo, hi) = UNARY[api]
    x = random_values((n,), acl_type, np.random.default_rng(n), lo, hi)
    got = run(api, [(x, acl_type)], (n,), acl_type)
    close(got, ref(x.astype(np.float64)), acl_type, atol=1e-6 if acl_type == sim.ACL_FLOAT else 1e-3)


def test_unary_double_and_int_promotion(acl):
    x = np.random.default_rng(1).uniform(0.1, 5, 513)
    got = run("aclnnExp", [(x, sim.ACL_DOUBLE)], (513,), sim.ACL_DOUBLE)
    np.testing.assert_allclose(got, np.exp(x), rtol=1e-14)
    i = np.arange(1, 40, dtype=np.int32)
    got = run("aclnnSqrt", [(i, sim.ACL_INT32)], (39,), sim.ACL_FLOAT)  # int -> float32
    np.testing.assert_allclose(got, np.sqrt(i.astype(np.float64)), rtol=1e-6)
    got = run("aclnnNeg", [(i, sim.ACL_INT32)], (39,), sim.ACL_INT32)
    np.testing.assert_array_equal(got, -i)
    u = np.arange(0, 200, dtype=np.uint8)
    np.testing.assert_array_equal(run("aclnnNeg", [(u, sim.ACL_UINT8)], (200,), sim.ACL_UINT8), -u)
    np.testing.assert_array_equal(run("aclnnRelu", [(i - 20, sim.ACL_INT32)], (39,), sim.ACL_INT32),
                                  np.maximum(i - 20, 0))


def test_nan_and_infinity_edges(acl):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 100.0, -100.0], dtype=np.float32)
    with np.errstate(all="ignore"):
        for api in ("aclnnTanh", "aclnnSigmoid", "aclnnRelu", "aclnnExp"):
            got = run(api, [(x, sim.ACL_FLOAT)], x.shape, sim.ACL_FLOAT)
            expected = UNARY[api][0](x.astype(np.float64))
            np.testing.assert_allclose(got, expected.astype(np.float32), rtol=1e-6, atol=1e-30, equal_nan=True)


@pytest.mark.parametrize("approximate", [0, 1])
@pytest.mark.parametrize("dtype", list(FLOATS))
def test_gelu_v2_and_backward(acl, approximate, dtype):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(7)
    x = random_values((1031,), acl_type, rng, -6, 6)
    g = random_values((1031,), acl_type, rng, -2, 2)
    x64, g64 = x.astype(np.float64), g.astype(np.float64)
    got = run("aclnnGeluV2", [(x, acl_type)], x.shape, acl_type, approximate)
    close(got, _gelu_tanh(x64) if approximate else x64 * _phi(x64), acl_type, atol=2e-6 if dtype == "float32" else 2e-3)
    got = run("aclnnGeluBackwardV2", [(g, acl_type), (x, acl_type)], x.shape, acl_type,
              b"tanh" if approximate else b"none")
    expected = _gelu_tanh_grad(g64, x64) if approximate else BACKWARD["aclnnGeluBackward"](g64, x64)
    close(got, expected, acl_type, atol=2e-6 if dtype == "float32" else 4e-3)


@pytest.mark.parametrize("api", list(BACKWARD))
@pytest.mark.parametrize("n", [1, 997, 70_001])
def test_activation_backward(acl, api, n):
    rng = np.random.default_rng(n)
    g = random_values((n,), sim.ACL_FLOAT, rng, -2, 2)
    lo, hi = (0, 1) if api == "aclnnSigmoidBackward" else (-1, 1) if api == "aclnnTanhBackward" else (-6, 6)
    y = random_values((n,), sim.ACL_FLOAT, rng, lo, hi)
    got = run(api, [(g, sim.ACL_FLOAT), (y, sim.ACL_FLOAT)], (n,), sim.ACL_FLOAT)
    close(got, BACKWARD[api](g.astype(np.float64), y.astype(np.float64)), sim.ACL_FLOAT, atol=2e-6)


def test_threshold_backward(acl):
    rng = np.random.default_rng(3)
    for acl_type in (sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_INT32):
        g = random_values((3, 257), acl_type, rng)
        x = random_values((3, 257), acl_type, rng)
        x[0, :5] = 0
        got = run("aclnnThresholdBackward", [(g, acl_type), (x, acl_type), sim.Scalar(0)], g.shape, acl_type)
        np.testing.assert_array_equal(got, np.where(x <= 0, 0, g).astype(got.dtype))


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32", "int64"])
@pytest.mark.parametrize("n", SIZES)
def test_sub_maximum_minimum(acl, dtype, n):
    acl_type = {**FLOATS, "int32": sim.ACL_INT32, "int64": sim.ACL_INT64}[dtype]
    rng = np.random.default_rng(11 + n)
    a, b = random_values((n,), acl_type, rng), random_values((n,), acl_type, rng)
    floating = acl_type in FLOATS.values()
    alpha = sim.Scalar(2.0 if floating else 2)
    got = run("aclnnSub", [(a, acl_type), (b, acl_type), alpha], (n,), acl_type)
    expected = round_to(a.astype(np.float32) - np.float32(2) * b.astype(np.float32), acl_type) if floating \
        else (a - 2 * b)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(run("aclnnMaximum", [(a, acl_type), (b, acl_type)], (n,), acl_type),
                                  np.maximum(a, b))
    np.testing.assert_array_equal(run("aclnnMinimum", [(a, acl_type), (b, acl_type)], (n,), acl_type),
                                  np.minimum(a, b))


def test_maximum_propagates_nan_and_div_promotes(acl):
    a = np.array([np.nan, 1.0, 2.0, np.nan], dtype=np.float32)
    b = np.array([0.0, np.nan, 1.0, np.nan], dtype=np.float32)
    got = run("aclnnMaximum", [(a, sim.ACL_FLOAT), (b, sim.ACL_FLOAT)], (4,), sim.ACL_FLOAT)
    np.testing.assert_array_equal(got, np.maximum(a, b))
    got = run("aclnnMinimum", [(a, sim.ACL_FLOAT), (b, sim.ACL_FLOAT)], (4,), sim.ACL_FLOAT)
    np.testing.assert_array_equal(got, np.minimum(a, b))
    got = run("aclnnClampMinTensor", [(a, sim.ACL_FLOAT), (b, sim.ACL_FLOAT)], (4,), sim.ACL_FLOAT)
    np.testing.assert_array_equal(got, np.maximum(a, b))
    i = np.arange(-6, 7, dtype=np.int32)
    j = np.full(13, 4, dtype=np.int64)
    got = run("aclnnDiv", [(i, sim.ACL_INT32), (j, sim.ACL_INT64)], (13,), sim.ACL_FLOAT)
    np.testing.assert_array_equal(got, (i / j).astype(np.float32))


@pytest.mark.parametrize("shapes", [((3, 1, 5), (4, 1)), ((1,), (2, 3)), ((2, 3), ()), ((0, 3), (1, 3)),
                                    ((64, 1), (1, 513))])
def test_binary_broadcasting(acl, shapes):
    rng = np.random.default_rng(4)
    a = random_values(shapes[0], sim.ACL_FLOAT, rng)
    b = random_values(shapes[1], sim.ACL_FLOAT, rng, 1, 50)
    shape = np.broadcast_shapes(a.shape, b.shape)
    np.testing.assert_array_equal(run("aclnnDiv", [(a, sim.ACL_FLOAT), (b, sim.ACL_FLOAT)], shape, sim.ACL_FLOAT),
                                  a / b)
    got = run("aclnnSub", [(a, sim.ACL_FLOAT), (b, sim.ACL_FLOAT), sim.Scalar(1.0)], shape, sim.ACL_FLOAT)
    np.testing.assert_array_equal(got, a - b)
    got = run("aclnnGtTensor", [(a, sim.ACL_FLOAT), (b, sim.ACL_FLOAT)], shape, sim.ACL_BOOL)
    np.testing.assert_array_equal(got, a > b)


def test_strided_input_and_output(acl):
    rng = np.random.default_rng(5)
    base = random_values((40, 30), sim.ACL_FLOAT, rng, 0.1, 10)
    x = to_device(base, sim.ACL_FLOAT)
    view = x.tensor(shape=(30, 20), strides=(1, 30), offset=3)  # a transposed window
    flat = base.reshape(-1)
    expected = np.sqrt(np.array([[flat[3 + i + 30 * j] for j in range(20)] for i in range(30)]))
    out_base = sim.DeviceArray.empty((20, 60), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceZero", out_base.tensor()))
    out_view = out_base.tensor(shape=(30, 20), strides=(1, 60), offset=0)
    sim.check(sim.run_aclnn("aclnnSqrt", view, out_view))
    got = from_device(out_base)
    np.testing.assert_allclose(got[:, :30].T, expected, rtol=1e-6)
    assert np.all(got[:, 30:] == 0)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "int64", "bool"])
@pytest.mark.parametrize("n", [0, 1, 997, 70_001])
def test_compares(acl, dtype, n):
    acl_type = {**FLOATS, "int32": sim.ACL_INT32, "int64": sim.ACL_INT64, "bool": sim.ACL_BOOL}[dtype]
    rng = np.random.default_rng(n)
    a = random_values((n,), acl_type, rng, -5, 5)
    b = random_values((n,), acl_type, rng, -5, 5)
    if acl_type != sim.ACL_BOOL:
        a, b = np.round(a), np.round(b)  # equal values occur
    for name, op in (("Eq", np.equal), ("Ne", np.not_equal), ("Lt", np.less), ("Le", np.less_equal),
                     ("Gt", np.greater), ("Ge", np.greater_equal)):
        got = run(f"aclnn{name}Tensor", [(a, acl_type), (b, acl_type)], (n,), sim.ACL_BOOL)
        np.testing.assert_array_equal(got, op(a, b))
        scalar = sim.Scalar(True) if acl_type == sim.ACL_BOOL else sim.Scalar(1)
        got = run(f"aclnn{name}Scalar", [(a, acl_type), scalar], (n,), sim.ACL_BOOL)
        np.testing.assert_array_equal(got, op(a, 1))
    np.testing.assert_array_equal(run("aclnnLogicalNot", [(a, acl_type)], (n,), sim.ACL_BOOL), np.logical_not(a))


def test_compare_scalar_promotes_and_nan(acl):
    i = np.arange(-3, 4, dtype=np.int32)
    got = run("aclnnLtScalar", [(i, sim.ACL_INT32), sim.Scalar(0.5)], (7,), sim.ACL_BOOL)  # compared in float
    np.testing.assert_array_equal(got, i < 0.5)
    f = np.array([np.nan, 1.0], dtype=np.float32)
    np.testing.assert_array_equal(run("aclnnNeTensor", [(f, sim.ACL_FLOAT), (f, sim.ACL_FLOAT)], (2,),
                                      sim.ACL_BOOL), [True, False])
    got = run("aclnnEqTensor", [(f, sim.ACL_FLOAT), (f, sim.ACL_FLOAT)], (2,), sim.ACL_FLOAT)  # bool cast to out
    np.testing.assert_array_equal(got, [0.0, 1.0])


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "int64", "bool"])
def test_where_and_masked_fill(acl, dtype):
    acl_type = {**FLOATS, "int64": sim.ACL_INT64, "bool": sim.ACL_BOOL}[dtype]
    rng = np.random.default_rng(9)
    cond = rng.integers(0, 2, (5, 1, 211)).astype(bool)
    a = random_values((1, 3, 211), acl_type, rng)
    b = random_values((5, 3, 1), acl_type, rng)
    got = run("aclnnSWhere", [(cond, sim.ACL_BOOL), (a, acl_type), (b, acl_type)], (5, 3, 211), acl_type)
    np.testing.assert_array_equal(got, np.where(cond, a, b))
    self_values = random_values((4, 211), acl_type, rng)
    mask = rng.integers(0, 2, (211,)).astype(bool)
    x = to_device(self_values, acl_type)
    m = to_device(mask, sim.ACL_BOOL)
    value = sim.Scalar(True) if acl_type == sim.ACL_BOOL else sim.Scalar(7)
    sim.check(sim.run_aclnn("aclnnInplaceMaskedFillScalar", x.tensor(), m.tensor(), value))
    np.testing.assert_array_equal(from_device(x), np.where(mask, 1 if acl_type == sim.ACL_BOOL else 7, self_values)
                                  .astype(from_device(x).dtype))
    x = to_device(self_values, acl_type)
    v = to_device(np.array(True if acl_type == sim.ACL_BOOL else 3), acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceMaskedFillTensor", x.tensor(), m.tensor(), v.tensor()))
    np.testing.assert_array_equal(from_device(x), np.where(mask, 1 if acl_type == sim.ACL_BOOL else 3, self_values)
                                  .astype(from_device(x).dtype))


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("n", [1, 997, 70_001])
def test_addcmul_addcdiv_lerp(acl, dtype, n):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(n)
    s, t1 = random_values((n,), acl_type, rng, -5, 5), random_values((n,), acl_type, rng, -5, 5)
    t2 = random_values((n,), acl_type, rng, 0.5, 5)
    w = random_values((n,), acl_type, rng, 0, 1)
    s64, t164, t264, w64 = (v.astype(np.float64) for v in (s, t1, t2, w))
    got = run("aclnnAddcmul", [(s, acl_type), (t1, acl_type), (t2, acl_type), sim.Scalar(0.5)], (n,), acl_type)
    close(got, s64 + 0.5 * t164 * t264, acl_type, atol=1e-5)
    got = run("aclnnAddcdiv", [(s, acl_type), (t1, acl_type), (t2, acl_type), sim.Scalar(-0.25)], (n,), acl_type)
    close(got, s64 - 0.25 * t164 / t264, acl_type, atol=1e-5)
    got = run("aclnnLerp", [(s, acl_type), (t1, acl_type), (w, acl_type)], (n,), acl_type)
    close(got, s64 + w64 * (t164 - s64), acl_type, atol=1e-5)
    for weight in (0.1, 0.9):
        got = run("aclnnLerps", [(s, acl_type), (t1, acl_type), sim.Scalar(weight)], (n,), acl_type)
        close(got, s64 + weight * (t164 - s64), acl_type, atol=1e-5)


def test_inplace_variants(acl):
    rng = np.random.default_rng(12)
    a = random_values((3, 129), sim.ACL_FLOAT, rng, 1, 10)
    b = random_values((129,), sim.ACL_FLOAT, rng, 1, 10)
    a_dev, b_dev = to_device(a, sim.ACL_FLOAT), to_device(b, sim.ACL_FLOAT)
    x = to_device(a, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceSub", x.tensor(), b_dev.tensor(), sim.Scalar(1.0)))
    np.testing.assert_array_equal(from_device(x), a - b)
    x = to_device(a, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceDiv", x.tensor(), b_dev.tensor()))
    np.testing.assert_array_equal(from_device(x), a / b)
    x = to_device(a, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceSqrt", x.tensor()))
    np.testing.assert_allclose(from_device(x), np.sqrt(a), rtol=1e-6)
    x = to_device(a, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceAddcdiv", x.tensor(), a_dev.tensor(),
                            b_dev.tensor(), sim.Scalar(2.0)))
    np.testing.assert_allclose(from_device(x), a + 2 * a / b, rtol=1e-6)


@pytest.mark.parametrize("exponent", [2, 3, 0, -1, 0.5, -0.5, 2.5, 1.7])
def test_pow_tensor_scalar(acl, exponent):
    rng = np.random.default_rng(13)
    x = random_values((1001,), sim.ACL_FLOAT, rng, 0.1, 4)
    got = run("aclnnPowTensorScalar", [(x, sim.ACL_FLOAT), sim.Scalar(exponent)], x.shape, sim.ACL_FLOAT)
    np.testing.assert_allclose(got, np.power(x.astype(np.float64), exponent).astype(np.float32), rtol=4e-6)
    neg = np.array([-2.0, -1.5, 0.0], dtype=np.float32)
    got = run("aclnnPowTensorScalar", [(neg, sim.ACL_FLOAT), sim.Scalar(exponent)], neg.shape, sim.ACL_FLOAT)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = np.power(neg.astype(np.float64), exponent).astype(np.float32)
        np.testing.assert_allclose(got, expected, rtol=4e-6, equal_nan=True)


def test_pow_integer(acl):
    i = np.arange(-5, 6, dtype=np.int64)
    got = run("aclnnPowTensorScalar", [(i, sim.ACL_INT64), sim.Scalar(3)], i.shape, sim.ACL_INT64)
    np.testing.assert_array_equal(got, i**3)
    got = run("aclnnPowTensorScalar", [(i, sim.ACL_INT64), sim.Scalar(0.5)], i.shape, sim.ACL_FLOAT)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(got, np.sqrt(i.astype(np.float32)), rtol=1e-6, equal_nan=True)
    i_dev, out = to_device(i, sim.ACL_INT64), sim.DeviceArray.empty(i.shape, sim.ACL_INT64)
    rc, msg = status_and_message("aclnnPowTensorScalar", i_dev.tensor(), sim.Scalar(-1), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "negative integer powers" in msg


def status_and_message(api, *args):
    rc, _, executor = sim.aclnn_workspace(api, *args)
    if executor:
        sim.load().aclDestroyAclOpExecutor(executor)
    return rc, sim.recent_error()


def test_rejected_dtypes_and_shapes_name_the_argument(acl):
    i = sim.DeviceArray.empty((4,), sim.ACL_INT32)
    f = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    b = sim.DeviceArray.empty((4,), sim.ACL_BOOL)
    rc, msg = status_and_message("aclnnNeg", b.tensor(), b.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and msg == "aclnnNeg: self of dtype ACL_BOOL is not supported"
    rc, msg = status_and_message("aclnnGelu", i.tensor(), i.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and msg == "aclnnGelu: self of dtype ACL_INT32 is not supported"
    rc, msg = status_and_message("aclnnExp", f.tensor(), i.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "out has dtype ACL_INT32, which cannot hold" in msg
    rc, msg = status_and_message("aclnnSub", b.tensor(), b.tensor(), sim.Scalar(1), b.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "two bool tensors" in msg
    rc, msg = status_and_message("aclnnSub", i.tensor(), i.tensor(), sim.Scalar(0.5), i.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "alpha must be an integer" in msg
    rc, msg = status_and_message("aclnnSWhere", i.tensor(), f.tensor(), f.tensor(), f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and msg == "aclnnSWhere: condition must be a bool tensor, got ACL_INT32"
    rc, msg = status_and_message("aclnnAddcdiv", i.tensor(), i.tensor(), i.tensor(), sim.Scalar(1), i.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "is not supported" in msg
    g = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    rc, msg = status_and_message("aclnnMaximum", f.tensor(), g.tensor(), f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "cannot be broadcast" in msg
    rc, msg = status_and_message("aclnnDiv", f.tensor(), f.tensor(), g.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "out shape [3] differs" in msg
    rc, msg = status_and_message("aclnnDiv", None, f.tensor(), f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_NULLPTR and "self" in msg
    rc, msg = status_and_message("aclnnGeluV2", f.tensor(), 2, f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "approximate must be 0" in msg


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32"])
def test_tensor_scalar_ops(acl, dtype):
    acl_type = {**FLOATS, "int32": sim.ACL_INT32}[dtype]
    rng = np.random.default_rng(14)
    x = random_values((2, 517), acl_type, rng)
    floating = acl_type in FLOATS.values()
    s = 0.75 if floating else 3
    got = run("aclnnAdds", [(x, acl_type), sim.Scalar(s), sim.Scalar(1)], x.shape, acl_type)
    expected = round_to(x.astype(np.float32) + np.float32(s), acl_type) if floating else x + s
    np.testing.assert_array_equal(got, expected)
    # alpha scales other (CANN's aclnnAdds/aclnnSubs): self + 2 * s, self - 2 * s
    alpha = sim.Scalar(2.0 if floating else 2)
    for api, sign in (("aclnnAdds", 1), ("aclnnSubs", -1)):
        got = run(api, [(x, acl_type), sim.Scalar(s), alpha], x.shape, acl_type)
        expected = (round_to(x.astype(np.float32) + np.float32(sign * 2 * s), acl_type) if floating
                    else x + sign * 2 * s)
        np.testing.assert_array_equal(got, expected)
    dev = to_device(x, acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceSubs", dev.tensor(), sim.Scalar(s), alpha))
    np.testing.assert_array_equal(from_device(dev), round_to(x.astype(np.float32) - np.float32(2 * s), acl_type)
                                  if floating else x - 2 * s)
    if not floating:
        rc, msg = status_and_message("aclnnAdds", to_device(x, acl_type).tensor(), sim.Scalar(s), sim.Scalar(0.5),
                                     to_device(x, acl_type).tensor())
        assert rc == sim.ACLNN_ERR_PARAM_INVALID and "alpha must be an integer" in msg
    got = run("aclnnMuls", [(x, acl_type), sim.Scalar(s)], x.shape, acl_type)
    expected = round_to(x.astype(np.float32) * np.float32(s), acl_type) if floating else x * s
    np.testing.assert_array_equal(got, expected)
    out_type = acl_type if floating else sim.ACL_FLOAT
    got = run("aclnnDivs", [(x, acl_type), sim.Scalar(s)], x.shape, out_type)
    np.testing.assert_array_equal(got, round_to(x.astype(np.float32) / np.float32(s), out_type))
    dev = to_device(x, acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceMuls", dev.tensor(), sim.Scalar(s)))
    np.testing.assert_array_equal(from_device(dev), round_to(x.astype(np.float32) * np.float32(s), acl_type)
                                  if floating else x * s)
