"""aclnnNLLLoss and aclnnNLLLossBackward (nll_loss_custom, nll_loss_grad_custom) against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOLERANCE = {sim.ACL_FLOAT: 1e-5, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1.6e-2}
NONE, MEAN, SUM = 0, 1, 2


def _nll(x, t, w, reduction, ignore):
    n = x.shape[0]
    keep = t != ignore
    safe = np.where(keep, t, 0)
    wt = (w[safe] if w is not None else np.ones(n)) * keep
    loss = -wt * x[np.arange(n), safe]
    if reduction == NONE:
        return loss, 0.0
    total = wt.sum()
    with np.errstate(invalid="ignore"):  # mean of no counted rows: NaN, as torch
        return (loss.sum() / total if reduction == MEAN else loss.sum()), total


def _nll_grad(x, t, w, reduction, ignore, g, total):
    n = x.shape[0]
    keep = t != ignore
    safe = np.where(keep, t, 0)
    wt = (w[safe] if w is not None else np.ones(n)) * keep
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = g if reduction == NONE else np.full(n, g / total if reduction == MEAN else g)
    dx = np.zeros_like(x)
    dx[np.arange(n), safe] = np.where(keep, -wt * scale, dx[np.arange(n), safe])
    return dx


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("n,c", [(0, 4), (1, 1), (7, 13), (3000, 5), (4, 1031)])
@pytest.mark.parametrize("reduction", [NONE, MEAN, SUM])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss_forward_and_backward_match_numpy(acl, dtype, n, c, reduction, weighted):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(n * 31 + c + reduction)
    x = round_to(rng.uniform(-5, 0, (n, c)).astype(np.float32), acl_type).astype(np.float64)
    t = rng.integers(0, c, n).astype(np.int64)
    ignore = 0 if c > 1 else -100
    w = round_to(rng.uniform(0.2, 2, c).astype(np.float32), acl_type).astype(np.float64) if weighted else None
    want, want_total = _nll(x, t, w, reduction, ignore)
    dx_, dt_ = to_device(x, acl_type), sim.DeviceArray.from_numpy(t)
    dw_ = to_device(w, acl_type) if weighted else None
    out = sim.DeviceArray.empty(np.shape(want), acl_type)
    total = sim.DeviceArray.empty((), acl_type)
    sim.check(sim.run_aclnn("aclnnNLLLoss", dx_.tensor(), dt_.tensor(), dw_.tensor() if weighted else None,
                            reduction, ignore, out.tensor(), total.tensor()))
    tol = TOLERANCE[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=tol * 4, atol=tol * 4 * max(1, np.sqrt(n)))
    np.testing.assert_allclose(from_device(total), want_total, rtol=tol * 4)
    g = round_to(rng.uniform(0.5, 2, np.shape(want)).astype(np.float32), acl_type).astype(np.float64)
    dg = to_device(np.asarray(g), acl_type)
    grad = sim.DeviceArray.empty((n, c), acl_type)
    sim.check(sim.run_aclnn("aclnnNLLLossBackward", dg.tensor(), dx_.tensor(), dt_.tensor(),
                            dw_.tensor() if weighted else None, reduction, ignore, total.tensor(), grad.tensor()))
    got_total = from_device(total).astype(np.float64)
    np.testing.assert_allclose(from_device(grad), _nll_grad(x, t, w, reduction, ignore, g, got_total),
                               rtol=tol * 4, atol=tol)


def test_nll_loss_one_sample_int32_targets_and_errors(acl):
    x = np.log(np.array([0.2, 0.5, 0.3], np.float32))
    dx_ = sim.DeviceArray.from_numpy(x)
    t = sim.DeviceArray.from_numpy(np.array(1, np.int32))
    out, total = sim.DeviceArray.empty((), sim.ACL_FLOAT), sim.DeviceArray.empty((), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnNLLLoss", dx_.tensor(), t.tensor(), None, NONE, -100, out.tensor(),
                            total.tensor()))
    np.testing.assert_allclose(out.to_numpy(), -x[1], rtol=1e-6)
    assert total.to_numpy() == 0
    x2 = sim.DeviceArray.from_numpy(np.zeros((2, 3), np.float32))
    bad_t = sim.DeviceArray.from_numpy(np.array([1, 2, 0], np.int64))
    o2 = sim.DeviceArray.empty((), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnNLLLoss", x2.tensor(), bad_t.tensor(), None, MEAN, -100, o2.tensor(),
                                   total.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnNLLLoss: target has shape [3], expected [2]" in sim.recent_error()
    ft = sim.DeviceArray.from_numpy(np.zeros(2, np.float32))
    rc, _, _ = sim.aclnn_workspace("aclnnNLLLoss", x2.tensor(), ft.tensor(), None, MEAN, -100, o2.tensor(),
                                   total.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "target has dtype ACL_FLOAT" in sim.recent_error()
    good_t = sim.DeviceArray.from_numpy(np.array([1, 2], np.int64))
    rc, _, _ = sim.aclnn_workspace("aclnnNLLLoss", x2.tensor(), good_t.tensor(), None, 3, -100, o2.tensor(),
                                   total.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "reduction 3 is not 0 (none)" in sim.recent_error()


def test_nll_loss_target_out_of_range_fails_the_kernel(acl):
    x = sim.DeviceArray.from_numpy(np.zeros((2, 3), np.float32))
    t = sim.DeviceArray.from_numpy(np.array([1, 3], np.int64))
    out, total = sim.DeviceArray.empty((), sim.ACL_FLOAT), sim.DeviceArray.empty((), sim.ACL_FLOAT)
    rc = sim.run_aclnn("aclnnNLLLoss", x.tensor(), t.tensor(), None, MEAN, -100, out.tensor(), total.tensor())
    sync = acl.aclrtSynchronizeStream(None)
    assert rc != 0 or sync != 0
    assert "Target 3 is out of bounds." in sim.recent_error()
