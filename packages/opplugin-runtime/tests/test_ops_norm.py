"""Softmax, log_softmax, layer norm and NLL / cross entropy on npu (op_api kernels over
aclnnSoftmax, aclnnLogSoftmax, aclnnSoftmaxBackward, aclnnLogSoftmaxBackward,
aclnnLayerNorm, aclnnLayerNormBackward, aclnnGroupNorm,
aclnnGroupNormBackward, aclnnNLLLoss, aclnnNLLLossBackward), forward
and backward through autograd, compared with CPU; the CPU fallback is forbidden."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F


@pytest.fixture(autouse=True)
def _no_fallback():
    """Every op of these tests must run on npu: a CPU fallback raises. Seeded data."""
    torch.manual_seed(0)
    torch.npu.set_fallback_mode("error")


# float32: sums over rows of up to 5000 elements round differently than CPU's
TORCH_VERSION = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
TOL = {torch.float32: {"rtol": 1e-4, "atol": 2e-5}, torch.float16: {"rtol": 2e-3, "atol": 2e-3},
       torch.bfloat16: {"rtol": 1.6e-2, "atol": 1.6e-2}}


def _pair(t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """A CPU leaf and an npu leaf with the same values, both requiring grad."""
    return t.clone().requires_grad_(), t.npu().requires_grad_()


@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape,dim", [((4, 7), 1), ((4, 7), -1), ((3, 5, 6), 0), ((3, 5, 6), -2), ((11,), 0),
                                       ((2, 5000), 1), ((), 0), ((0, 3), 1)])
def test_softmax_forward_and_backward_match_cpu(fn, dtype, shape, dim, assert_same, ledger):
    x = torch.randn(shape) * 3
    g = torch.randn(shape)
    xc, xn = _pair(x.to(dtype))
    yc, yn = fn(xc.float(), dim).to(dtype), fn(xn, dim)  # CPU reference computed in float32
    assert_same(yn, yc, **TOL[dtype])
    if dtype != torch.float32:  # CPU's half softmax backward: compare grads of the float32 graph
        xc = x.to(dtype).float().requires_grad_()
        yc = fn(xc, dim)
    yc.backward(g.to(yc.dtype))
    yn.backward(g.to(dtype).npu())
    assert_same(xn.grad, xc.grad.to(dtype), **TOL[dtype])
    name = "_softmax" if fn is torch.softmax else "_log_softmax"
    counts = ledger()
    assert counts[name]["op_api"] == 1 and counts[name + "_backward_data"]["op_api"] == 1


@pytest.mark.parametrize("name", ["_softmax", "_log_softmax"])
def test_softmax_half_to_float_out_non_contiguous_and_errors(name, assert_same, ledger):
    op = getattr(torch.ops.aten, name)
    x = torch.randn(6, 9)
    # half_to_float: Half in, Float out (CPU refuses it; the reference is the float op)
    y = op(x.half().npu(), 1, True)
    assert y.dtype == torch.float32
    assert_same(y, op(x.half().float(), 1, False), rtol=1e-5, atol=1e-6)
    assert_same(op(x.npu().t(), 1, False), op(x.t(), 1, False))
    out = torch.empty(0, device="npu")
    op.out(x.npu(), 0, False, out=out)
    assert_same(out, op(x, 0, False))
    assert ledger()[name + ".out"]["op_api"] == 1
    # softmax(dtype=float32) of a half tensor converts first (no half_to_float path)
    fn = torch.softmax if name == "_softmax" else torch.log_softmax
    assert_same(fn(x.half().npu(), 1, dtype=torch.float32), fn(x.half().float(), 1))
    with pytest.raises(RuntimeError, match=name + ": self has dtype Long; npu supports Float, Half and BFloat16"):
        op(torch.arange(4).npu(), 0, False)
    with pytest.raises(RuntimeError, match=name + ": conversion from Float to Float is not supported"):
        op(x.npu(), 0, True)
    with pytest.raises(IndexError, match="Dimension out of range"):
        op(x.npu(), 2, False)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape,normalized,affine", [((4, 10), (10,), True), ((3, 5, 8), (5, 8), True),
                                                     ((2, 3, 7), (7,), False), ((6, 4099), (4099,), True),
                                                     ((0, 6), (6,), True), ((5, 1), (1,), True)])
def test_layer_norm_forward_and_backward_match_cpu(dtype, shape, normalized, affine, assert_same, ledger):
    x = torch.randn(shape) * 2 + 1
    w = torch.rand(normalized) + 0.5
    b = torch.randn(normalized)
    g = torch.randn(shape)
    tol = TOL[dtype] if dtype != torch.float32 else {"rtol": 1e-4, "atol": 1e-5}
    xc, xn = _pair(x.to(dtype))
    wc, wn = _pair(w.to(dtype))
    bc, bn = _pair(b.to(dtype))
    args_c = (wc, bc) if affine else (None, None)
    args_n = (wn, bn) if affine else (None, None)
    # float32 CPU reference (CPU's half kernels accumulate differently)
    xf = xc.float() if dtype != torch.float32 else xc
    yc = F.layer_norm(xf, normalized, *(a.float() if a is not None else None for a in args_c), eps=1e-5)
    yn = F.layer_norm(xn, normalized, *args_n, eps=1e-5)
    assert_same(yn, yc.to(dtype), **tol)
    yc.backward(g.to(dtype).float())
    yn.backward(g.to(dtype).npu())
    # a one-element row has var 0: rstd = 1/sqrt(eps) amplifies rounding noise of gradients that are 0
    one_element = math.prod(normalized) == 1
    assert_same(xn.grad, xc.grad, **({"rtol": tol["rtol"], "atol": 1e-4} if one_element else tol))
    if affine:
        grad_tol = {"rtol": tol["rtol"] * 4, "atol": tol["atol"] * 40}
        assert_same(wn.grad, wc.grad, **grad_tol)
        assert_same(bn.grad, bc.grad, **grad_tol)
    counts = ledger()
    assert counts["native_layer_norm"]["op_api"] == 1
    assert counts["native_layer_norm_backward"]["op_api"] == 1


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape,groups,affine", [((2, 8, 5, 5), 4, True), ((1, 6, 7), 6, True), ((3, 4), 2, False),
                                                 ((2, 4, 70, 70), 2, True), ((0, 4, 3), 2, True),
                                                 ((2, 6, 3, 4, 2), 3, False)])
def test_group_norm_forward_and_backward_match_cpu(dtype, shape, groups, affine, assert_same, ledger):
    x = torch.randn(shape) * 2 + 1
    c = shape[1]
    w = torch.rand(c) + 0.5
    b = torch.randn(c)
    g = torch.randn(shape)
    tol = TOL[dtype] if dtype != torch.float32 else {"rtol": 1e-4, "atol": 1e-5}
    xc, xn = _pair(x.to(dtype))
    wc, wn = _pair(w.to(dtype))
    bc, bn = _pair(b.to(dtype))
    args_c = (wc, bc) if affine else (None, None)
    args_n = (wn, bn) if affine else (None, None)
    # float32 CPU reference (CPU's half kernels accumulate differently)
    xf = xc.float() if dtype != torch.float32 else xc
    yc = F.group_norm(xf, groups, *(a.float() if a is not None else None for a in args_c), eps=1e-5)
    yn = F.group_norm(xn, groups, *args_n, eps=1e-5)
    assert_same(yn, yc.to(dtype), **tol)
    if x.numel() == 0:
        return
    yc.backward(g.to(dtype).float())
    yn.backward(g.to(dtype).npu())
    grad_tol = {"rtol": tol["rtol"] * 4, "atol": tol["atol"] * 40}
    assert_same(xn.grad, xc.grad.to(dtype), **grad_tol)
    if affine:
        assert_same(wn.grad, wc.grad.to(dtype), **grad_tol)
        assert_same(bn.grad, bc.grad.to(dtype), **grad_tol)
    counts = ledger()
    assert counts["native_group_norm"]["op_api"] == 1
    assert counts["native_group_norm_backward"]["op_api"] == 1


def test_group_norm_of_a_channels_last_input_and_empty_planes(assert_same):
    x = torch.randn(2, 6, 5, 4).to(memory_format=torch.channels_last)
    w, b = torch.rand(6) + 0.5, torch.randn(6)
    assert_same(F.group_norm(x.npu(), 3, w.npu(), b.npu()), F.group_norm(x, 3, w, b), rtol=1e-4, atol=1e-5)
    n, c, hw = 2, 4, 0
    if TORCH_VERSION >= (2, 14):  # CPU refuses empty planes from torch 2.14 on; npu does as CPU
        for device in ("cpu", "npu"):
            with pytest.raises(RuntimeError, match="Expected HxW to be greater than 0, got 0"):
                torch.native_group_norm(torch.empty(n, c, hw, device=device), None, None, n, c, hw, 2, 1e-5)
        return
    out, mean, rstd = torch.native_group_norm(torch.empty(n, c, hw).npu(), None, None, n, c, hw, 2, 1e-5)
    _, mean_c, rstd_c = torch.native_group_norm(torch.empty(n, c, hw), None, None, n, c, hw, 2, 1e-5)
    assert out.shape == (n, c, hw)
    assert_same(mean, mean_c)
    assert_same(rstd, rstd_c, equal_nan=True)


def test_native_layer_norm_stats_output_mask_and_errors(assert_same):
    x = torch.randn(3, 4, 5)
    out_c, mean_c, rstd_c = torch.native_layer_norm(x, [4, 5], None, None, 1e-5)
    out_n, mean_n, rstd_n = torch.native_layer_norm(x.npu(), [4, 5], None, None, 1e-5)
    assert_same(out_n, out_c, rtol=1e-4, atol=1e-5)
    assert_same(mean_n, mean_c, rtol=1e-5, atol=1e-6)
    assert_same(rstd_n, rstd_c, rtol=1e-5, atol=1e-6)
    g = torch.randn(3, 4, 5)
    w = torch.rand(4, 5)
    grads_c = torch.ops.aten.native_layer_norm_backward(g, x, [4, 5], mean_c, rstd_c, w, None, [False, True, False])
    grads_n = torch.ops.aten.native_layer_norm_backward(g.npu(), x.npu(), [4, 5], mean_n, rstd_n, w.npu(), None,
                                                        [False, True, False])
    assert grads_n[0] is None and grads_n[2] is None and grads_c[0] is None
    assert_same(grads_n[1], grads_c[1], rtol=1e-4, atol=1e-5)
    with pytest.raises(RuntimeError, match=r"native_layer_norm: Given normalized_shape=\[4\], expected input with "
                                           r"shape \[\*, 4\]"):
        torch.native_layer_norm(x.npu(), [4], None, None, 1e-5)
    with pytest.raises(RuntimeError, match="native_layer_norm: input has dtype Double"):
        torch.native_layer_norm(x.double().npu(), [5], None, None, 1e-5)
    with pytest.raises(RuntimeError, match="native_layer_norm: Expected weight/bias to be of same shape"):
        torch.native_layer_norm(x.npu(), [5], torch.ones(4, device="npu"), None, 1e-5)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 2])
def test_cross_entropy_forward_and_backward_match_cpu(reduction, weighted, ignore_index, assert_same, ledger):
    logits = torch.randn(9, 5) * 2
    target = torch.tensor([0, 2, 4, 1, 2, 3, 0, 4, 2])
    weight = torch.rand(5) + 0.5 if weighted else None
    lc, ln = _pair(logits)
    yc = F.cross_entropy(lc, target, weight=weight, reduction=reduction, ignore_index=ignore_index)
    yn = F.cross_entropy(ln, target.npu(), weight=weight.npu() if weighted else None, reduction=reduction,
                         ignore_index=ignore_index)
    assert_same(yn, yc, rtol=1e-5, atol=1e-6)
    g = torch.randn(yc.shape)
    yc.backward(g)
    yn.backward(g.npu())
    assert_same(ln.grad, lc.grad, rtol=1e-5, atol=1e-6)
    counts = ledger()
    assert counts["nll_loss_forward"]["op_api"] == 1 and counts["nll_loss_backward"]["op_api"] == 1
    assert counts["_log_softmax"]["op_api"] == 1 and counts["_log_softmax_backward_data"]["op_api"] == 1


def test_nll_loss_one_sample_half_empty_batch_and_errors(assert_same):
    x = torch.randn(6).log_softmax(0)
    for reduction in (0, 1, 2):
        out_c = torch.ops.aten.nll_loss_forward(x, torch.tensor(3), None, reduction, -100)
        out_n = torch.ops.aten.nll_loss_forward(x.npu(), torch.tensor(3).npu(), None, reduction, -100)
        assert_same(out_n[0], out_c[0])
        assert_same(out_n[1], out_c[1])
    xh = torch.randn(4, 3).log_softmax(1).half()
    t = torch.tensor([2, 0, 1, 1])
    assert_same(F.nll_loss(xh.npu(), t.npu()), F.nll_loss(xh.float(), t).half(), rtol=2e-3, atol=2e-3)
    empty = torch.empty(0, 3)
    assert_same(F.nll_loss(empty.npu(), torch.empty(0, dtype=torch.long).npu(), reduction="sum"),
                F.nll_loss(empty, torch.empty(0, dtype=torch.long), reduction="sum"))
    two = torch.randn(3, 4)
    with pytest.raises(RuntimeError,
                       match="nll_loss_forward: expected target dtype to be Long, Int or Byte, but got Short"):
        torch.ops.aten.nll_loss_forward(two.npu(), torch.tensor([1, 2, 0]).short().npu(), None, 1, -100)
    with pytest.raises(RuntimeError, match=r"nll_loss_forward: size mismatch \(got input: \[3, 4\], target: \[2\]\)"):
        torch.ops.aten.nll_loss_forward(two.npu(), torch.tensor([1, 2]).npu(), None, 1, -100)
    with pytest.raises(RuntimeError, match="weight tensor should be defined either for all 4 classes or no classes"):
        torch.ops.aten.nll_loss_forward(two.npu(), torch.tensor([1, 2, 0]).npu(), torch.ones(3).npu(), 1, -100)
    with pytest.raises(RuntimeError, match=r"Target 9 is out of bounds\."):
        out, _ = torch.ops.aten.nll_loss_forward(two.npu(), torch.tensor([1, 9, 0]).npu(), None, 1, -100)
        out.cpu()


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_nll_loss_takes_an_int32_target_as_upstream_torch_npu(assert_same, reduction):
    """ATen's CPU kernel rejects an int32 target; torch_npu (and so scripts written for it) passes one.
    The loss and its gradient equal CPU's with the same target as int64."""
    logits = torch.randn(5, 4).log_softmax(1)
    target = torch.tensor([3, 0, 1, 3, -100])
    weight = torch.rand(4) + 0.5
    x_c = logits.clone().requires_grad_()
    x_n = logits.npu().requires_grad_()
    loss_c = F.nll_loss(x_c, target, weight, reduction=reduction)
    loss_n = F.nll_loss(x_n, target.int().npu(), weight.npu(), reduction=reduction)
    assert_same(loss_n, loss_c, rtol=1e-6, atol=1e-6)
    loss_c.sum().backward()
    loss_n.sum().backward()
    assert_same(x_n.grad, x_c.grad, rtol=1e-6, atol=1e-6)


def _bn_pair(channels: int, dims: int, dtype: torch.dtype = torch.float32):
    """A CPU and an npu BatchNorm module with the same (random) parameters and running stats."""
    cls = {1: torch.nn.BatchNorm1d, 2: torch.nn.BatchNorm2d, 3: torch.nn.BatchNorm3d}[dims]
    cpu = cls(channels, momentum=0.3)
    with torch.no_grad():
        cpu.weight.uniform_(0.5, 1.5)
        cpu.bias.uniform_(-1, 1)
        cpu.running_mean.uniform_(-0.5, 0.5)
        cpu.running_var.uniform_(0.5, 2)
    npu = cls(channels, momentum=0.3)
    npu.load_state_dict(cpu.state_dict())
    return cpu, npu.npu()


BN_CASES = [(2, (4, 3, 5, 6)), (1, (8, 5)), (1, (4, 3, 7)), (3, (2, 2, 3, 4, 5)), (2, (3, 17, 1, 1))]


@pytest.mark.parametrize("dims,shape", BN_CASES)
@pytest.mark.parametrize("train", [True, False])
def test_batch_norm_module_train_and_eval_match_cpu(dims, shape, train, assert_same, ledger):
    cpu, npu = _bn_pair(shape[1], dims)
    cpu.train(train)
    npu.train(train)
    x = torch.randn(shape) * 2 + 0.5
    g = torch.randn(shape)
    xc, xn = _pair(x)
    yc, yn = cpu(xc), npu(xn)
    assert_same(yn, yc, rtol=1e-4, atol=1e-5)
    assert_same(npu.running_mean, cpu.running_mean, rtol=1e-5, atol=1e-6)
    assert_same(npu.running_var, cpu.running_var, rtol=1e-5, atol=1e-6)
    assert_same(npu.num_batches_tracked, cpu.num_batches_tracked)
    yc.backward(g)
    yn.backward(g.npu())
    assert_same(xn.grad, xc.grad, rtol=1e-4, atol=1e-5)
    assert_same(npu.weight.grad, cpu.weight.grad, rtol=1e-4, atol=1e-4)
    assert_same(npu.bias.grad, cpu.bias.grad, rtol=1e-4, atol=1e-4)
    counts = ledger()  # eager nn.BatchNorm reaches native_batch_norm on both torch 2.1 and 2.13
    assert counts["native_batch_norm"]["op_api"] == 1 and counts["native_batch_norm_backward"]["op_api"] == 1


def test_batch_norm_functional_without_running_stats_half_and_channels_last(assert_same):
    x = torch.randn(4, 3, 5, 5)
    w, b = torch.rand(3) + 0.5, torch.randn(3)
    # training without running stats: the batch statistics, nothing to update
    assert_same(F.batch_norm(x.npu(), None, None, w.npu(), b.npu(), training=True),
                F.batch_norm(x, None, None, w, b, training=True), rtol=1e-4, atol=1e-5)
    cl = x.to(memory_format=torch.channels_last)
    rm, rv = torch.zeros(3), torch.ones(3)
    rm_n, rv_n = rm.npu(), rv.npu()
    assert_same(F.batch_norm(cl.npu(), rm_n, rv_n, training=True, momentum=0.5),
                F.batch_norm(cl, rm, rv, training=True, momentum=0.5), rtol=1e-4, atol=1e-5)
    assert_same(rm_n, rm, rtol=1e-5, atol=1e-6)
    assert_same(rv_n, rv, rtol=1e-5, atol=1e-6)
    xh = x.half()
    out = F.batch_norm(xh.npu(), rm_n, rv_n, w.npu(), b.npu(), training=False)
    assert_same(out, F.batch_norm(xh.float(), rm, rv, w, b, training=False).half(), rtol=2e-3, atol=2e-3)
    out_c, mean_c, invstd_c = torch.native_batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5)
    out_n, mean_n, invstd_n = torch.native_batch_norm(x.npu(), w.npu(), b.npu(), rm_n, rv_n, True, 0.1, 1e-5)
    assert_same(out_n, out_c, rtol=1e-4, atol=1e-5)
    assert_same(mean_n, mean_c, rtol=1e-5, atol=1e-6)
    assert_same(invstd_n, invstd_c, rtol=1e-4, atol=1e-6)
    with pytest.raises(RuntimeError, match="native_batch_norm: running_mean and running_var must be defined in "
                                           "evaluation mode"):
        torch.native_batch_norm(x.npu(), None, None, None, None, False, 0.1, 1e-5)
    with pytest.raises(RuntimeError, match="native_batch_norm: weight should contain 3 elements not 4"):
        torch.native_batch_norm(x.npu(), torch.ones(4).npu(), None, None, None, True, 0.1, 1e-5)
    with pytest.raises(RuntimeError, match="native_batch_norm: input has dtype Double"):
        torch.native_batch_norm(x.double().npu(), None, None, None, None, True, 0.1, 1e-5)


def test_batch_norm_eval_saves_the_running_statistics_as_meta_shapes_them(assert_same):
    """Evaluation mode: ATen's meta function (as CUDA and upstream torch_npu) returns save_mean and
    save_invstd per channel in float32 where CPU returns them empty; npu follows the meta function, so
    that a compiled graph's fake tensors describe the real ones. They hold the statistics used."""
    x = torch.randn(4, 3, 5)
    w, b, rm, rv = torch.rand(3) + 0.5, torch.randn(3), torch.randn(3), torch.rand(3) + 0.1
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        args = (x.to(dtype), w.to(dtype), b.to(dtype), rm, rv, False, 0.1, 1e-5)
        meta = torch.native_batch_norm(*[a.to("meta") if isinstance(a, torch.Tensor) else a for a in args])
        out_n, mean_n, invstd_n = torch.native_batch_norm(
            *[a.npu() if isinstance(a, torch.Tensor) else a for a in args])
        for got, want in zip((out_n, mean_n, invstd_n), meta):
            assert (got.shape, got.dtype) == (want.shape, want.dtype)
        assert_same(mean_n, rm, rtol=0, atol=0)
        assert_same(invstd_n, (rv + 1e-5).rsqrt(), rtol=1e-6, atol=1e-6)
    # empty input: the same statistics, no kernel to run
    _, mean_n, invstd_n = torch.native_batch_norm(x[:0].npu(), w.npu(), b.npu(), rm.npu(), rv.npu(), False, 0.1,
                                                  1e-5)
    assert_same(mean_n, rm, rtol=0, atol=0)
    assert_same(invstd_n, (rv + 1e-5).rsqrt(), rtol=1e-6, atol=1e-6)


@pytest.mark.skipif(TORCH_VERSION < (2, 4), reason="aten._batch_norm_with_update, _batch_norm_no_update and "
                    "batch_norm_backward exist from torch 2.4 (declared [v2.4, newest])")
def test_consolidated_batch_norm_ops_match_cpu(assert_same, ledger):
    x, g = torch.randn(3, 4, 5), torch.randn(3, 4, 5)
    w, b = torch.rand(4) + 0.5, torch.randn(4)
    rm, rv = torch.zeros(4), torch.ones(4)
    rm_n, rv_n = rm.npu(), rv.npu()
    res_c = torch.ops.aten._batch_norm_with_update(x, w, b, rm, rv, 0.2, 1e-5)
    res_n = torch.ops.aten._batch_norm_with_update(x.npu(), w.npu(), b.npu(), rm_n, rv_n, 0.2, 1e-5)
    for got, want in zip(res_n, res_c):
        assert_same(got, want, rtol=1e-4, atol=1e-5)
    assert_same(rm_n, rm, rtol=1e-5, atol=1e-6)
    assert_same(rv_n, rv, rtol=1e-5, atol=1e-6)
    grads_c = torch.ops.aten.batch_norm_backward(g, x, w, rm, rv, res_c[1], res_c[2], True, 1e-5,
                                                 [True, True, True], res_c[3])
    grads_n = torch.ops.aten.batch_norm_backward(g.npu(), x.npu(), w.npu(), rm_n, rv_n, res_n[1], res_n[2], True,
                                                 1e-5, [True, True, True], res_n[3])
    for got, want in zip(grads_n, grads_c):
        assert_same(got, want, rtol=1e-4, atol=1e-4)
    res_c = torch.ops.aten._batch_norm_no_update(x, w, b, rm, rv, 0.2, 1e-5)
    res_n = torch.ops.aten._batch_norm_no_update(x.npu(), w.npu(), b.npu(), rm_n, rv_n, 0.2, 1e-5)
    for i in (0, 3):  # saved statistics: test_batch_norm_eval_saves_the_running_statistics_as_meta_shapes_them
        assert_same(res_n[i], res_c[i], rtol=1e-4, atol=1e-5)
    grads_c = torch.ops.aten.batch_norm_backward(g, x, w, rm, rv, res_c[1], res_c[2], False, 1e-5,
                                                 [True, True, True], res_c[3])
    grads_n = torch.ops.aten.batch_norm_backward(g.npu(), x.npu(), w.npu(), rm_n, rv_n, res_n[1], res_n[2], False,
                                                 1e-5, [True, True, True], res_n[3])
    for got, want in zip(grads_n, grads_c):
        assert_same(got, want, rtol=1e-4, atol=1e-4)
    counts = ledger()
    assert counts["_batch_norm_with_update"]["op_api"] == 1 and counts["_batch_norm_no_update"]["op_api"] == 1
    assert counts["batch_norm_backward"]["op_api"] == 2
