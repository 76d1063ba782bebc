"""aclnnMseLoss, aclnnSmoothL1Loss, aclnnHuberLoss, aclnnBinaryCrossEntropy and their backwards
(pointwise_loss_custom, pointwise_loss_grad_custom) against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOLERANCE = {sim.ACL_FLOAT: 1e-5, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1.6e-2}
NONE, MEAN, SUM = 0, 1, 2


def _loss(kind, x, t, p, w):
    d = x - t
    z = np.abs(d)
    if kind == "mse":
        loss = d * d
    elif kind == "smooth_l1":
        loss = np.where(z < p, 0.5 * z * z / p if p > 0 else 0.0, z - 0.5 * p)
    elif kind == "huber":
        loss = np.where(z < p, 0.5 * z * z, p * (z - 0.5 * p))
    else:
        with np.errstate(divide="ignore"):
            loss = -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
    return loss * w if w is not None else loss


def _grad(kind, x, t, p, w, g, norm):
    d = x - t
    if kind == "mse":
        dx = 2 * norm * d * g
    elif kind == "smooth_l1":
        dx = np.where(d <= -p, -norm * g, np.where(d >= p, norm * g, norm * d * g / (p if p > 0 else 1)))
    elif kind == "huber":
        dx = np.where(d <= -p, -norm * g * p, np.where(d >= p, norm * g * p, norm * d * g))
    else:
        dx = g * d / np.maximum((1 - x) * x, 1e-12) * norm
    return dx * w if w is not None else dx


CASES = {  # api, kind, parameter
    "mse": ("aclnnMseLoss", None),
    "smooth_l1": ("aclnnSmoothL1Loss", 0.6),
    "huber": ("aclnnHuberLoss", 0.9),
    "bce": ("aclnnBinaryCrossEntropy", None),
}


def _args(kind, x, t, w, reduction, p):
    if kind == "bce":
        return (x, t, w, reduction)
    return (x, t, reduction) if p is None else (x, t, reduction, p)


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("kind", list(CASES))
@pytest.mark.parametrize("n", [0, 1, 37, 5000])
@pytest.mark.parametrize("reduction", [NONE, MEAN, SUM])
def test_pointwise_losses_match_numpy(acl, dtype, kind, n, reduction):
    acl_type = FLOATS[dtype]
    api, p = CASES[kind]
    rng = np.random.default_rng(n * 7 + reduction)
    if kind == "bce":
        x = round_to(rng.uniform(0.01, 0.99, n).astype(np.float32), acl_type).astype(np.float64)
        t = round_to(rng.uniform(0, 1, n).astype(np.float32), acl_type).astype(np.float64)
        w = round_to(rng.uniform(0.5, 2, n).astype(np.float32), acl_type).astype(np.float64)
    else:
        x = round_to(rng.uniform(-2, 2, n).astype(np.float32), acl_type).astype(np.float64)
        t = round_to(rng.uniform(-2, 2, n).astype(np.float32), acl_type).astype(np.float64)
        w = None
    per_element = _loss(kind, x, t, p, w)
    with np.errstate(invalid="ignore"):  # the mean of no elements: NaN
        want = per_element if reduction == NONE else (per_element.mean() if reduction == MEAN else per_element.sum())
    dx_, dt_ = to_device(x, acl_type), to_device(t, acl_type)
    dw_ = to_device(w, acl_type) if w is not None else None
    out = sim.DeviceArray.empty(np.shape(want), acl_type)
    args = _args(kind, dx_.tensor(), dt_.tensor(), dw_.tensor() if dw_ else None, reduction, p)
    sim.check(sim.run_aclnn(api, *args, out.tensor()))
    tol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=tol * 4, atol=tol * 4 * max(1, np.sqrt(n)))
    if n == 0:
        return
    g = round_to(rng.uniform(0.5, 2, np.shape(want)).astype(np.float32), acl_type).astype(np.float64)
    dg = to_device(np.asarray(g), acl_type)
    grad = sim.DeviceArray.empty((n,), acl_type)
    args = _args(kind, dx_.tensor(), dt_.tensor(), dw_.tensor() if dw_ else None, reduction, p)
    sim.check(sim.run_aclnn(api + "Backward", dg.tensor(), *args, grad.tensor()))
    norm = 1.0 / n if reduction == MEAN else 1.0
    np.testing.assert_allclose(from_device(grad), _grad(kind, x, t, p, w, g, norm), rtol=tol * 4, atol=tol * 4)


def test_losses_broadcast_target_and_check_arguments(acl):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = np.array([1.0, 0.5, 2.0], np.float32)
    out = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    dx_, dt_ = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(t)
    sim.check(sim.run_aclnn("aclnnMseLoss", dx_.tensor(), dt_.tensor(), NONE, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), (x - t) ** 2)
    scalar = sim.DeviceArray.empty((), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnMseLoss", dx_.tensor(), dt_.tensor(), 3, scalar.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "reduction 3 is not 0 (none)" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnMseLoss", dx_.tensor(), dt_.tensor(), MEAN, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "out has shape [2, 3], expected []" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnSmoothL1Loss", dx_.tensor(), dt_.tensor(), MEAN, -1.0, scalar.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "beta must be non-negative" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnHuberLoss", dx_.tensor(), dt_.tensor(), MEAN, 0.0, scalar.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "delta must be positive" in sim.recent_error()
    bad = sim.DeviceArray.from_numpy(np.zeros(4, np.float32))
    rc, _, _ = sim.aclnn_workspace("aclnnMseLoss", dx_.tensor(), bad.tensor(), MEAN, scalar.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "do not broadcast" in sim.recent_error()


def test_binary_cross_entropy_outside_zero_one_fails_the_kernel(acl):
    x = sim.DeviceArray.from_numpy(np.array([0.5, 1.25], np.float32))
    t = sim.DeviceArray.from_numpy(np.array([0.0, 1.0], np.float32))
    out = sim.DeviceArray.empty((), sim.ACL_FLOAT)
    rc = sim.run_aclnn("aclnnBinaryCrossEntropy", x.tensor(), t.tensor(), None, MEAN, out.tensor())
    sync = acl.aclrtSynchronizeStream(None)
    assert rc != 0 or sync != 0
    assert "all elements of input should be between 0 and 1" in sim.recent_error()
