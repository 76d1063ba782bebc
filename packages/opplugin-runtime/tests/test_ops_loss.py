"""The elementwise losses (mse, smooth_l1, huber, binary cross entropy over aclnnMseLoss,
aclnnSmoothL1Loss, aclnnHuberLoss, aclnnBinaryCrossEntropy and their backwards), spatial NLL
(nll_loss2d over aclnnNLLLoss2d), torch.special's orthogonal polynomials, vdot and
_native_batch_norm_legit on npu, forward and backward through autograd, compared with CPU; the
CPU fallback is forbidden."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F


@pytest.fixture(autouse=True)
def _no_fallback():
    """Every op of these tests must run on npu: a CPU fallback raises. Seeded data."""
    torch.manual_seed(0)
    torch.npu.set_fallback_mode("error")


TOL = {torch.float32: {"rtol": 1e-5, "atol": 1e-6}, torch.float16: {"rtol": 2e-3, "atol": 1e-3},
       torch.bfloat16: {"rtol": 1.6e-2, "atol": 1e-2}}

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
LOSSES = {
    # the loss, and the aten operators its forward and backward reach (the path ledger's names)
    "mse_loss": (lambda x, t, **kw: F.mse_loss(x, t, **kw), ("mse_loss.out", "mse_loss_backward")),
    "smooth_l1_loss": (lambda x, t, **kw: F.smooth_l1_loss(x, t, beta=0.7, **kw),
                       ("smooth_l1_loss.out", "smooth_l1_loss_backward.grad_input")),
    # (F.smooth_l1_loss calls l1_loss for beta 0; the aten operator itself then is an l1 loss)
    "smooth_l1_loss_beta0": (lambda x, t, reduction: torch.ops.aten.smooth_l1_loss(x, t, REDUCTIONS[reduction], 0.0),
                             ("smooth_l1_loss.out", "smooth_l1_loss_backward.grad_input")),
    "huber_loss": (lambda x, t, **kw: F.huber_loss(x, t, delta=0.8, **kw), ("huber_loss", "huber_loss_backward.out")),
}


def _cpu_reference(fn, x, t, g, **kwargs):
    """The loss and the gradient of x on CPU in x's dtype or, where torch's CPU kernel lacks it
    (torch 2.1's for float16 and bfloat16), computed in float32 and rounded to it."""
    try:
        x_c = x.clone().requires_grad_()
        y_c = fn(x_c, t, **kwargs)
        y_c.backward(g)
        return y_c.detach(), x_c.grad
    except RuntimeError as error:
        if "not implemented for" not in str(error):
            raise
    x_c = x.float().requires_grad_()
    y_c = fn(x_c, t.float(), **kwargs)
    y_c.backward(g.float())
    return y_c.detach().to(x.dtype), x_c.grad.to(x.dtype)


@pytest.mark.parametrize("name", sorted(LOSSES))
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_regression_losses_match_cpu(name, reduction, dtype, assert_same, ledger):
    fn, (forward, backward) = LOSSES[name]
    x = (torch.randn(6, 5, 7) * 2).to(dtype)
    t = torch.randn(6, 5, 7).to(dtype)
    g = torch.randn((6, 5, 7) if reduction == "none" else ()).to(dtype)
    y_c, grad_c = _cpu_reference(fn, x, t, g, reduction=reduction)
    x_n = x.npu().requires_grad_()
    y_n = fn(x_n, t.npu(), reduction=reduction)
    assert y_n.shape == y_c.shape and y_n.dtype == dtype
    assert_same(y_n, y_c, **TOL[dtype])
    y_n.backward(g.npu())
    assert_same(x_n.grad, grad_c, **TOL[dtype])
    counts = ledger()
    assert counts[forward]["op_api"] == 1 and counts[backward]["op_api"] == 1


def test_regression_losses_broadcast_target_and_empty_input(assert_same):
    x = torch.randn(4, 3)
    t = torch.randn(3)
    with pytest.warns(UserWarning, match="target size"):
        assert_same(F.mse_loss(x.npu(), t.npu(), reduction="sum"), F.mse_loss(x, t, reduction="sum"), rtol=1e-5,
                    atol=1e-6)
    empty = torch.empty(0, 3)
    for fn in (F.mse_loss, F.smooth_l1_loss, F.huber_loss):
        assert_same(fn(empty.npu(), empty.npu()), fn(empty, empty), equal_nan=True)  # the mean of nothing: NaN
        assert_same(fn(empty.npu(), empty.npu(), reduction="sum"), fn(empty, empty, reduction="sum"))
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values for beta"):
        F.smooth_l1_loss(x.npu(), x.npu(), beta=-1.0)
    with pytest.raises(RuntimeError, match="aclnnHuberLoss: delta must be positive"):
        F.huber_loss(x.npu(), x.npu(), delta=0.0)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_binary_cross_entropy_matches_cpu(reduction, weighted, dtype, assert_same, ledger):
    x = torch.rand(5, 8).to(dtype)
    x[0, :3] = torch.tensor([0.0, 1.0, 1e-30])  # logs clamped at -100, the gradient's 1e-12 floor
    t = torch.rand(5, 8).round().to(dtype)
    w = (torch.rand(8) + 0.5).to(dtype) if weighted else None
    g = torch.rand((5, 8) if reduction == "none" else ()).to(dtype)
    bce = lambda x, t, **kw: F.binary_cross_entropy(x, t, weight=None if w is None else w.to(x.dtype), **kw)  # noqa: E731
    y_c, grad_c = _cpu_reference(bce, x, t, g, reduction=reduction)
    x_n = x.npu().requires_grad_()
    y_n = F.binary_cross_entropy(x_n, t.npu(), weight=None if w is None else w.npu(), reduction=reduction)
    assert_same(y_n, y_c, **TOL[dtype])
    y_n.backward(g.npu())
    assert_same(x_n.grad, grad_c, **TOL[dtype])
    counts = ledger()
    assert counts["binary_cross_entropy"]["op_api"] == 1 and counts["binary_cross_entropy_backward"]["op_api"] == 1


def test_binary_cross_entropy_rejects_values_outside_zero_one():
    x = torch.tensor([0.2, 1.5, 0.3])
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(x.npu(), torch.zeros(3, device="npu")).cpu()
    with pytest.raises(RuntimeError, match="all elements of target should be between 0 and 1"):
        F.binary_cross_entropy(torch.full((3,), 0.5, device="npu"), torch.tensor([0.0, 2.0, 1.0]).npu()).cpu()


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_spatial_cross_entropy_matches_cpu(reduction, weighted, assert_same, ledger):
    logits = torch.randn(2, 4, 3, 5) * 2
    target = torch.randint(0, 4, (2, 3, 5))
    target[0, 1, 2] = -100
    weight = torch.rand(4) + 0.5 if weighted else None
    x_c, x_n = logits.clone().requires_grad_(), logits.npu().requires_grad_()
    y_c = F.cross_entropy(x_c, target, weight=weight, reduction=reduction)
    y_n = F.cross_entropy(x_n, target.npu(), weight=None if weight is None else weight.npu(), reduction=reduction)
    assert_same(y_n, y_c, rtol=1e-5, atol=1e-6)
    g = torch.randn(y_c.shape)
    y_c.backward(g)
    y_n.backward(g.npu())
    assert_same(x_n.grad, x_c.grad, rtol=1e-5, atol=1e-6)
    counts = ledger()
    assert counts["nll_loss2d_forward"]["op_api"] == 1 and counts["nll_loss2d_backward"]["op_api"] == 1


def test_spatial_nll_takes_int32_targets_and_checks_them(assert_same):
    x = torch.randn(2, 3, 4, 4).log_softmax(1)
    t = torch.randint(0, 3, (2, 4, 4))
    assert_same(F.nll_loss(x.npu(), t.int().npu()), F.nll_loss(x, t), rtol=1e-6, atol=1e-6)
    bad = t.clone()
    bad[1, 2, 3] = 7
    with pytest.raises(RuntimeError, match=r"Target 7 is out of bounds\."):
        F.nll_loss(x.npu(), bad.npu()).cpu()
    with pytest.raises(RuntimeError, match="size mismatch"):
        torch.ops.aten.nll_loss2d_forward(x.npu(), t[:, :3].npu(), None, 1, -100)


POLYNOMIALS = [
    "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
]


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_orthogonal_polynomials_match_cpu(name, assert_same, ledger):
    """Low degrees (the recurrence), high ones (the trigonometric forms inside [-1, 1] and, for
    Hermite, NaN past degree 128), negative degrees (0), the ends of the interval and a scalar n."""
    fn = getattr(torch.special, name)
    x = torch.cat([torch.linspace(-1.5, 1.5, 31), torch.tensor([-1.0, 0.0, 1.0, 0.5, 0.25])])
    for n in (torch.tensor(-2.0), torch.tensor(0.0), torch.tensor(1.0), torch.tensor(3.0), torch.tensor(5.0),
              torch.tensor(9.0), torch.tensor(12.0), torch.tensor(130.0)):
        expected = fn(x, n)
        if name.startswith("hermite") and n > 128 and not expected.isnan().all():
            continue  # releases before torch's NaN past degree 128 overflow there instead
        got = fn(x.npu(), n.npu())
        scale = expected.abs().clamp(min=1.0)  # large values: relative; near roots: absolute
        assert_same(got / scale.npu(), expected / scale, rtol=2e-5, atol=2e-5, equal_nan=True)
    degrees = torch.arange(-1, 8).float()
    assert_same(fn(x[:9].npu(), degrees.npu()), fn(x[:9], degrees), rtol=2e-5, atol=2e-5)
    assert_same(fn(x.npu(), 4), fn(x, 4), rtol=2e-5, atol=2e-5)
    assert ledger()[f"special_{name}.out"]["op_api"] >= 1


def test_vdot_of_real_and_complex_vectors(assert_same):
    a, b = torch.randn(33), torch.randn(33)
    assert_same(torch.vdot(a.npu(), b.npu()), torch.vdot(a, b), rtol=1e-5, atol=1e-5)
    ca, cb = torch.randn(9, dtype=torch.complex64), torch.randn(9, dtype=torch.complex64)
    assert_same(torch.vdot(ca.npu(), cb.npu()), torch.vdot(ca, cb), rtol=1e-5, atol=1e-5)
    with pytest.raises(RuntimeError, match="vdot: expected both vectors to have same dtype"):
        torch.vdot(a.npu(), b.half().npu())
    with pytest.raises(RuntimeError, match="vdot: 1D tensors expected"):
        torch.vdot(a.view(3, 11).npu(), b.view(3, 11).npu())


@pytest.mark.parametrize("training", [True, False])
def test_native_batch_norm_legit_matches_cpu(training, assert_same):
    x = torch.randn(4, 3, 5)
    w, b = torch.rand(3) + 0.5, torch.randn(3)
    rm_c, rv_c = torch.randn(3), torch.rand(3) + 0.5
    rm_n, rv_n = rm_c.npu(), rv_c.npu()
    out_c = torch.ops.aten._native_batch_norm_legit(x, w, b, rm_c, rv_c, training, 0.1, 1e-5)
    out_n = torch.ops.aten._native_batch_norm_legit(x.npu(), w.npu(), b.npu(), rm_n, rv_n, training, 0.1, 1e-5)
    assert_same(out_n[0], out_c[0], rtol=1e-5, atol=1e-5)
    assert_same(rm_n, rm_c, rtol=1e-6, atol=1e-6)
    assert_same(rv_n, rv_c, rtol=1e-6, atol=1e-6)
    if training:  # CPU returns the statistics empty in evaluation; ATen's meta gives (C,)
        assert_same(out_n[1], out_c[1], rtol=1e-5, atol=1e-6)
        assert_same(out_n[2], out_c[2], rtol=1e-5, atol=1e-5)
    else:
        assert out_n[1].shape == (3,) and out_n[1].dtype == torch.float32
        assert_same(out_n[1], rm_c, rtol=0, atol=0)
    no_stats_c = torch.ops.aten._native_batch_norm_legit(x, w, b, True, 0.1, 1e-5)
    no_stats_n = torch.ops.aten._native_batch_norm_legit(x.npu(), w.npu(), b.npu(), True, 0.1, 1e-5)
    for got, expected in zip(no_stats_n, no_stats_c):
        assert_same(got, expected, rtol=1e-5, atol=1e-5)
