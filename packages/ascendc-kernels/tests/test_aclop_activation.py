"""The activation acl_op types and their gradients (abi/aclop/activation.decl) against numpy references:
attributes, the gradient types' input order and broadcasting, GLU's halves along each dimension, and bad
inputs."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from test_aclop_math import const, dev, op_in, out_of, run

L = float(np.float32(0.6))  # the float attributes as the kernel compares them
T = float(np.float32(0.3))


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def softplus(v, beta=1.0, threshold=20.0):
    return np.where(v * beta > threshold, v, np.log1p(np.exp(v * beta)) / beta)


def elu(v, alpha, scale, input_scale):
    return np.where(v > 0, scale * v, alpha * scale * (np.exp(input_scale * v) - 1))


FORWARD = [
    ("Elu", {"alpha": 0.7, "scale": 1.5, "input_scale": 0.5}, lambda v: elu(v, 0.7, 1.5, 0.5)),
    ("HardShrink", {"lambd": 0.6}, lambda v: np.where(np.abs(v) <= L, 0, v)),
    ("HardSigmoid", {}, lambda v: np.clip(v / 6 + 0.5, 0, 1)),
    ("HardSwish", {}, lambda v: v * np.clip(v / 6 + 0.5, 0, 1)),
    ("LeakyRelu", {"negative_slope": 0.2}, lambda v: np.where(v > 0, v, 0.2 * v)),
    ("LogSigmoid", {}, lambda v: np.log(sigmoid(v))),
    ("Mish", {}, lambda v: v * np.tanh(softplus(v))),
    ("SoftplusV2", {"beta": 2.0, "threshold": 5.0}, lambda v: softplus(v, 2.0, 5.0)),
    ("SoftShrink", {"lambd": 0.6}, lambda v: np.where(v > L, v - L, np.where(v < -L, v + L, 0))),
    ("ThresholdV2D", {"threshold": 0.3, "value": -7.0}, lambda v: np.where(v <= T, -7.0, v)),
]


@pytest.mark.parametrize("op,attrs,fn", FORWARD, ids=[f[0] for f in FORWARD])
def test_forward_types(acl, op, attrs, fn):
    a = np.linspace(-6, 6, 601, dtype=np.float32)
    (y,) = run(op, [op_in(dev(a))], [out_of(a.shape)], attrs)
    np.testing.assert_allclose(y, fn(a.astype(np.float64)), rtol=2e-6, atol=2e-6)


def mish_grad(v):
    sp = softplus(v)
    return np.tanh(sp) + v * sigmoid(v) * (1 - np.tanh(sp) ** 2)


GRADIENT = [
    ("EluGradV2", {"alpha": 0.7, "scale": 1.5, "input_scale": 0.5},
     lambda g, v: g * np.where(v > 0, 1.5, 0.5 * 0.7 * 1.5 * np.exp(0.5 * v))),
    ("HardShrinkGrad", {"lambd": 0.6}, lambda g, v: np.where(np.abs(v) <= L, 0, g)),
    ("HardSigmoidGrad", {}, lambda g, v: np.where((v > -3) & (v < 3), g / 6, 0)),
    ("LeakyReluGrad", {"negative_slope": 0.2}, lambda g, v: np.where(v > 0, g, 0.2 * g)),
    ("LogSigmoidGrad", {}, lambda g, v: g * sigmoid(-v)),
    ("MishGrad", {}, lambda g, v: g * mish_grad(v)),
    ("SoftplusV2Grad", {"beta": 2.0, "threshold": 5.0},
     lambda g, v: np.where(v * 2 > 5, g, g * sigmoid(2 * v))),
    ("SoftShrinkGrad", {"lambd": 0.6}, lambda g, v: np.where(np.abs(v) <= L, 0, g)),
]


@pytest.mark.parametrize("op,attrs,fn", GRADIENT, ids=[g[0] for g in GRADIENT])
def test_gradient_types_broadcast_the_gradient(acl, op, attrs, fn):
    x = np.linspace(-5.9, 5.9, 60, dtype=np.float32).reshape(3, 20)
    g = np.linspace(-2, 2, 20, dtype=np.float32)
    (y,) = run(op, [op_in(dev(g)), op_in(dev(x))], [out_of(x.shape)], attrs)
    np.testing.assert_allclose(y, fn(g.astype(np.float64), x.astype(np.float64)), rtol=2e-6, atol=2e-6)


def test_elu_grad_from_the_result(acl):
    x = np.linspace(-3, 3, 61).astype(np.float32)
    r = elu(x.astype(np.float64), 0.7, 1.5, 0.5).astype(np.float32)
    g = np.full_like(x, 2.0)
    (y,) = run("EluGradV2", [op_in(dev(g)), op_in(dev(r))], [out_of(x.shape)],
               {"alpha": 0.7, "scale": 1.5, "input_scale": 0.5, "is_result": True})
    np.testing.assert_allclose(y, 2 * np.where(x > 0, 1.5, 0.5 * (r + 0.7 * 1.5)), rtol=2e-6, atol=2e-6)


def test_hardswish_grad_and_hardtanh_grad_input_orders(acl):
    x = np.linspace(-4, 4, 81, dtype=np.float32)
    g = np.linspace(1, 2, 81, dtype=np.float32)
    (y,) = run("HardSwishGrad", [op_in(dev(g)), op_in(dev(x))], [out_of(x.shape)])
    inner = (x > -3) & (x < 3)
    np.testing.assert_allclose(y[inner], (g * (x / 3 + 0.5))[inner], rtol=2e-6)
    np.testing.assert_allclose(y[x > 3], g[x > 3])
    np.testing.assert_array_equal(y[x < -3], 0)
    (y,) = run("HardtanhGrad", [op_in(dev(x)), op_in(dev(g))], [out_of(x.shape)], {"min_val": -2.0, "max_val": 1.5})
    np.testing.assert_allclose(y, np.where((x > -2) & (x < 1.5), g, 0))


def test_clip_by_value_and_threshold_on_integers(acl):
    i = np.arange(-6, 7, dtype=np.int64)
    (y,) = run("ClipByValue", [op_in(dev(i)), const(-2, sim.ACL_INT64), const(3, sim.ACL_INT64)],
               [out_of(i.shape, sim.ACL_INT64)])
    np.testing.assert_array_equal(y, np.clip(i, -2, 3))
    (y,) = run("ThresholdV2D", [op_in(dev(i))], [out_of(i.shape, sim.ACL_INT64)], {"threshold": 1.0, "value": 9.0})
    np.testing.assert_array_equal(y, np.where(i <= 1, 9, i))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_glu_and_its_gradient_along_each_dimension(acl, dim):
    x = np.random.default_rng(0).standard_normal((4, 6, 8)).astype(np.float32)
    a, b = np.split(x.astype(np.float64), 2, axis=dim)
    half = a.shape
    (y,) = run("GLU", [op_in(dev(x))], [out_of(half)], {"dim": dim})
    np.testing.assert_allclose(y, a * sigmoid(b), rtol=2e-6, atol=2e-6)
    g = np.random.default_rng(1).standard_normal(half).astype(np.float32)
    (dx,) = run("GLUGrad", [op_in(dev(g)), op_in(dev(x))], [out_of(x.shape)], {"dim": dim})
    s = sigmoid(b)
    want = np.concatenate([g * s, g * a * s * (1 - s)], axis=dim)
    np.testing.assert_allclose(dx, want, rtol=2e-6, atol=2e-6)


def test_bad_inputs_are_refused(acl):
    x = dev(np.ones((3, 5), np.float32))
    assert sim.run_aclop("GLU", [op_in(x)], [op_in(out_of((3, 2)))], {"dim": 1}) == sim.ACL_ERROR_INVALID_PARAM
    assert "odd size along dim 1" in sim.recent_error()
    assert sim.run_aclop("GLU", [op_in(x)], [op_in(out_of((3, 5)))], {"dim": 2}) == sim.ACL_ERROR_INVALID_PARAM
    assert "out of range" in sim.recent_error()
    assert sim.run_aclop("MishGrad", [op_in(x), op_in(dev(np.ones((2, 5), np.float32)))],
                         [op_in(out_of((3, 5)))]) == sim.ACL_ERROR_INVALID_PARAM
    assert "does not broadcast" in sim.recent_error()
    assert sim.run_aclop("Elu", [op_in(dev(np.ones(4, np.int64)))], [op_in(out_of((4,), sim.ACL_INT64))]) != \
        sim.ACL_SUCCESS
