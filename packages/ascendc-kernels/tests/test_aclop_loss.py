"""The loss acl_op types (abi/aclop/loss.decl) against numpy references: each reduction, broadcast
operands, the optional weight, a bad reduction."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32 = sim.ACL_FLOAT


def dev(a):
    return sim.DeviceArray.from_numpy(np.ascontiguousarray(a, dtype=np.float32))


def out_of(shape):
    return sim.DeviceArray.empty(tuple(shape), F32)


def run(op, inputs, out_shape, attrs):
    out = out_of(out_shape)
    sim.check(sim.run_aclop(op, [op_in(dev(a)) for a in inputs], [op_in(out)], attrs), op)
    return out.to_numpy()


def reduce(v, reduction):
    return {"none": v, "mean": np.mean(v), "sum": np.sum(v)}[reduction]


RNG = np.random.default_rng(0)
X = RNG.uniform(0.05, 0.95, (3, 4)).astype(np.float32)
T = RNG.uniform(0.0, 1.0, (3, 4)).astype(np.float32)
W = RNG.uniform(0.5, 2.0, (4,)).astype(np.float32)
G = RNG.normal(size=(3, 4)).astype(np.float32)


def smooth_l1(d, sigma):
    z = np.abs(d)
    return np.where(z < sigma, 0.5 * z * z / sigma, z - 0.5 * sigma)


def bce(x, t, w):
    return -w * (t * np.log(x) + (1 - t) * np.log(1 - x))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_forward_types(acl, reduction):
    shape = X.shape if reduction == "none" else ()
    d = X.astype(np.float64) - T
    np.testing.assert_allclose(run("MseLoss", [X, T], shape, {"reduction": reduction}), reduce(d * d, reduction),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run("SmoothL1LossV2", [X, T], shape, {"reduction": reduction, "sigma": 0.3}),
                               reduce(smooth_l1(d, 0.3), reduction), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run("BinaryCrossEntropy", [X, T], shape, {"reduction": reduction}),
                               reduce(bce(X.astype(np.float64), T, 1.0), reduction), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run("BinaryCrossEntropy", [X, T, W], shape, {"reduction": reduction}),
                               reduce(bce(X.astype(np.float64), T, W), reduction), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_gradient_types(acl, reduction):
    # a reduced loss's gradient comes as one element, broadcast to the inputs
    g = G if reduction == "none" else np.array(1.5, np.float32)
    scale = 1.0 / X.size if reduction == "mean" else 1.0
    d = X.astype(np.float64) - T
    np.testing.assert_allclose(run("MseLossGrad", [X, T, g], X.shape, {"reduction": reduction}),
                               2 * d * g * scale, rtol=1e-5, atol=1e-6)
    sl1 = np.where(np.abs(d) < 0.3, d / 0.3, np.sign(d)) * g * scale
    np.testing.assert_allclose(run("SmoothL1LossGradV2", [X, T, g], X.shape, {"reduction": reduction, "sigma": 0.3}),
                               sl1, rtol=1e-5, atol=1e-6)
    x = X.astype(np.float64)
    expected = W * g * (x - T) / ((1 - x) * x) * scale
    np.testing.assert_allclose(run("BinaryCrossEntropyGrad", [X, T, g, W], X.shape, {"reduction": reduction}),
                               expected, rtol=1e-5, atol=1e-6)


def test_broadcast_operands(acl):
    t = T[:1]  # (1, 4) against (3, 4)
    d = X.astype(np.float64) - t
    np.testing.assert_allclose(run("MseLoss", [X, t], X.shape, {"reduction": "none"}), d * d, rtol=1e-5, atol=1e-6)


def test_a_bad_reduction_or_shape_is_refused(acl):
    x, t = dev(X), dev(T)
    assert sim.run_aclop("MseLoss", [op_in(x), op_in(t)], [op_in(out_of(()))],
                         {"reduction": "max"}) == sim.ACL_ERROR_INVALID_PARAM
    assert "reduction is 'max'" in sim.recent_error()
    assert sim.run_aclop("MseLoss", [op_in(x), op_in(t)], [op_in(out_of(()))],
                         {"reduction": "none"}) == sim.ACL_ERROR_INVALID_PARAM
    assert "output has shape" in sim.recent_error()
    assert sim.run_aclop("SmoothL1LossV2", [op_in(x), op_in(t)], [op_in(out_of(()))],
                         {"sigma": -1.0}) == sim.ACL_ERROR_INVALID_PARAM
    assert "sigma must be non-negative" in sim.recent_error()


def nll_reference(x, target, weight, reduction, ignore_index):
    w = np.where(target == ignore_index, 0.0, weight[np.clip(target, 0, x.shape[1] - 1)])
    picked = x[np.arange(len(target)), np.clip(target, 0, x.shape[1] - 1)]
    losses = -w * picked
    total = w.sum()
    if reduction == "none":
        return losses, 0.0
    return (losses.sum() / total if reduction == "mean" else losses.sum()), total


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("target_type", [np.int32, np.int64])
def test_nll_types(acl, reduction, target_type):
    x = RNG.normal(size=(5, 4)).astype(np.float32)
    target = np.array([0, 3, -100, 1, 3], target_type)
    weight = W
    shape = (5,) if reduction == "none" else ()
    y, total = out_of(shape), out_of(())
    sim.check(sim.run_aclop("NLLLoss", [op_in(dev(x)), op_in(sim.DeviceArray.from_numpy(target)), op_in(dev(weight))],
                            [op_in(y), op_in(total)], {"reduction": reduction}), "NLLLoss")
    expected, expected_total = nll_reference(x.astype(np.float64), target, weight, reduction, -100)
    np.testing.assert_allclose(y.to_numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(total.to_numpy(), expected_total, rtol=1e-5)

    g = RNG.normal(size=shape).astype(np.float32)
    tw = np.array(expected_total if reduction == "mean" else 1.0, np.float32)
    (dx,) = [out_of(x.shape)]
    sim.check(sim.run_aclop("NLLLossGrad", [op_in(dev(x)), op_in(dev(g)), op_in(sim.DeviceArray.from_numpy(target)),
                                            op_in(dev(weight)), op_in(dev(tw))], [op_in(dx)],
                            {"reduction": reduction}), "NLLLossGrad")
    expected_dx = np.zeros_like(x, dtype=np.float64)
    for row, cls in enumerate(target):
        if cls != -100:
            scale = g[row] if reduction == "none" else g / (tw if reduction == "mean" else 1.0)
            expected_dx[row, cls] = -weight[cls] * scale
    np.testing.assert_allclose(dx.to_numpy(), expected_dx, rtol=1e-5, atol=1e-6)


def test_nll_refuses_a_target_of_another_length(acl):
    x = dev(np.zeros((3, 4), np.float32))
    target = sim.DeviceArray.from_numpy(np.array([0, 1], np.int64))
    assert sim.run_aclop("NLLLoss", [op_in(x), op_in(target)], [op_in(out_of(())), op_in(out_of(()))],
                         {"reduction": "sum"}) == sim.ACL_ERROR_INVALID_PARAM
    assert "input target of shape [2] must hold one class per row (3)" in sim.recent_error()
