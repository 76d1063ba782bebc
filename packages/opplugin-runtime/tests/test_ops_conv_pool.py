"""nn.Conv1d/Conv2d (convolution_overrideable + convolution_backward_overrideable) and
max_pool2d (max_pool2d_with_indices + backward) on npu against CPU, forward and
backward through autograd, with NPU_FALLBACK=error (nothing may run on the CPU).
Backward passes use tensor.backward(grad), so no reduction op is needed."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

TOL = {"atol": 1e-4, "rtol": 1e-4}


@pytest.fixture(autouse=True)
def _no_fallback():
    torch.npu.set_fallback_mode("error")


def _leaf_pair(t):
    return t.clone().requires_grad_(), t.detach().npu().requires_grad_()


CONV2D = [  # (input shape, out channels, kernel, stride, padding, dilation, groups, bias)
    ((2, 3, 8, 8), 4, 3, 1, 1, 1, 1, True),
    ((1, 4, 11, 13), 6, (3, 2), (2, 3), (1, 0), (2, 1), 2, True),
    ((3, 6, 9, 9), 6, 3, 1, 1, 1, 6, False),
    ((1, 1, 1, 1), 1, 1, 1, 0, 1, 1, False),
    ((2, 3, 17, 19), 8, 5, 2, 2, 1, 1, True),
    ((1, 520, 4, 4), 2, 3, 1, 1, 1, 1, True),  # a window (520 * 3 * 3) longer than the kernels' 4096-element tile
    ((1, 1, 3, 4100), 2, (2, 3), (1, 2), (1, 4), (1, 3), 1, False),  # lines wider than a tile, padding past a stride
]


@pytest.mark.parametrize("case", CONV2D)
def test_conv2d_forward_and_backward(case, ledger, assert_same):
    shape, cout, k, s, p, d, groups, bias = case
    x, xn = _leaf_pair(torch.randn(shape))
    w, wn = _leaf_pair(torch.randn(cout, shape[1] // groups, *((k, k) if isinstance(k, int) else k)))
    b, bn = _leaf_pair(torch.randn(cout)) if bias else (None, None)
    y = F.conv2d(x, w, b, stride=s, padding=p, dilation=d, groups=groups)
    yn = F.conv2d(xn, wn, bn, stride=s, padding=p, dilation=d, groups=groups)
    assert_same(yn, y, **TOL)
    g = torch.randn_like(y)
    y.backward(g)
    yn.backward(g.npu())
    assert_same(xn.grad, x.grad, **TOL)
    assert_same(wn.grad, w.grad, atol=1e-3, rtol=1e-4)
    if bias:
        assert_same(bn.grad, b.grad, **TOL)
    counts = ledger()
    assert counts["convolution_overrideable"]["op_api"] == 1
    assert counts["convolution_backward_overrideable"]["op_api"] == 1


def test_conv_modules_1d_half_and_weight_only_grad(assert_same):
    conv = torch.nn.Conv1d(3, 5, 4, stride=2, padding=1)
    conv_n = torch.nn.Conv1d(3, 5, 4, stride=2, padding=1).npu()
    conv_n.load_state_dict(conv.state_dict())
    x = torch.randn(2, 3, 21)
    assert_same(conv_n(x.npu()), conv(x), **TOL)
    conv_n.zero_grad()
    y, yn = conv(x), conv_n(x.npu())  # input without grad: only weight and bias gradients
    g = torch.randn_like(y)
    y.backward(g)
    yn.backward(g.npu())
    assert_same(conv_n.weight.grad, conv.weight.grad, atol=1e-3, rtol=1e-4)
    assert_same(conv_n.bias.grad, conv.bias.grad, **TOL)
    xh, wh = torch.randn(1, 2, 6, 6).half(), torch.randn(3, 2, 3, 3).half()
    assert_same(F.conv2d(xh.npu(), wh.npu(), padding=1), F.conv2d(xh.float(), wh.float(), padding=1).half(),
                atol=2e-2, rtol=1e-2)


def test_conv2d_non_contiguous_and_empty_batch(assert_same):
    x = torch.randn(2, 8, 7, 3).permute(0, 3, 1, 2)  # (2, 3, 8, 7), non-contiguous
    w = torch.randn(4, 3, 3, 3)
    assert_same(F.conv2d(x.npu(), w.npu(), padding=1), F.conv2d(x, w, padding=1), **TOL)
    cl = torch.randn(2, 3, 8, 8).contiguous(memory_format=torch.channels_last)
    assert_same(F.conv2d(cl.npu(), w.npu()), F.conv2d(cl, w).contiguous(), **TOL)
    e, en = _leaf_pair(torch.randn(0, 3, 5, 5))
    ww, wwn = _leaf_pair(w)
    y, yn = F.conv2d(e, ww), F.conv2d(en, wwn)
    assert_same(yn, y)
    y.backward(torch.randn_like(y))
    yn.backward(torch.randn_like(yn))
    assert_same(en.grad, e.grad)
    assert_same(wwn.grad, ww.grad)


def test_conv_errors_name_the_op():
    x = torch.randn(1, 3, 5, 5, device="npu")
    with pytest.raises(RuntimeError, match="convolution_overrideable: input of dtype Int"):
        F.conv2d(x.int(), torch.ones(2, 3, 3, 3, dtype=torch.int32, device="npu"))
    with pytest.raises(RuntimeError, match="convolution_overrideable: negative output_padding is not supported"):
        torch.ops.aten.convolution_overrideable(x, torch.randn(3, 2, 3, 3, device="npu"), None, [1, 1], [0, 0],
                                                [1, 1], True, [-1, 0], 1)
    with pytest.raises(RuntimeError, match="convolution_overrideable: expected a batched 1-D, 2-D or 3-D input"):
        torch.ops.aten.convolution_overrideable(x[..., None, None], torch.randn(2, 3, 1, 1, 1, 1, device="npu"),
                                                None, [1] * 4, [0] * 4, [1] * 4, False, [0] * 4, 1)


# ---- max_pool2d ----
@pytest.mark.parametrize("shape,k,s,p,d,ceil_mode", [((2, 3, 8, 8), 2, None, 0, 1, False),
                                                    ((2, 3, 9, 7), 3, 2, 1, 1, True),
                                                    ((1, 2, 13, 11), (3, 2), (1, 2), 1, (2, 1), False),
                                                    ((3, 9, 9), 3, 3, 0, 1, True),
                                                    ((4, 16, 33, 33), 3, 2, 1, 1, False)])
def test_max_pool2d_forward_and_backward(shape, k, s, p, d, ceil_mode, ledger, assert_same):
    x, xn = _leaf_pair(torch.randn(shape))
    y, idx = F.max_pool2d(x, k, s, p, d, ceil_mode=ceil_mode, return_indices=True)
    yn, idxn = F.max_pool2d(xn, k, s, p, d, ceil_mode=ceil_mode, return_indices=True)
    assert_same(yn, y)
    assert_same(idxn, idx)
    g = torch.randn_like(y)
    y.backward(g)
    yn.backward(g.npu())
    assert_same(xn.grad, x.grad)
    counts = ledger()
    assert counts["max_pool2d_with_indices.out"]["op_api"] == 1
    assert counts["max_pool2d_with_indices_backward.grad_input"]["op_api"] == 1


def test_max_pool2d_nan_views_dtypes_and_module(assert_same):
    x = torch.randn(2, 2, 6, 6)
    x[0, 0, 1, 1] = float("nan")
    assert_same(F.max_pool2d(x.npu(), 2), F.max_pool2d(x, 2), equal_nan=True)
    t = torch.randn(2, 6, 7, 3).permute(0, 3, 1, 2)
    assert_same(F.max_pool2d(t.npu(), 2), F.max_pool2d(t, 2))
    for dtype in (torch.float16, torch.bfloat16, torch.float64):
        h = torch.randn(1, 3, 8, 8).to(dtype)
        # the CPU reference in float32 (torch 2.1's CPU max_pool2d has no float16): a max is exact
        assert_same(F.max_pool2d(h.npu(), 3, 2, 1), F.max_pool2d(h.double(), 3, 2, 1).to(dtype))
    pool = torch.nn.MaxPool2d(2, ceil_mode=True)
    z = torch.randn(0, 3, 5, 5)
    assert_same(pool(z.npu()), pool(z))


def test_max_pool2d_errors():
    with pytest.raises(RuntimeError, match="max_pool2d_with_indices: self of dtype Int"):
        F.max_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.int32, device="npu"), 2, return_indices=True)
    with pytest.raises(RuntimeError, match="pad should be"):
        F.max_pool2d(torch.ones(1, 1, 4, 4, device="npu"), 2, padding=2)


def test_small_cnn_trains_like_cpu(assert_same):
    """conv -> max_pool -> conv -> max_pool: a LeNet-like stack, one SGD step (weights updated with
    tensor ops the elementwise family owns are left out: the gradients are compared)."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 5, padding=2), torch.nn.MaxPool2d(2),
                              torch.nn.Conv2d(4, 8, 3), torch.nn.MaxPool2d(2, ceil_mode=True))
    net_n = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 5, padding=2), torch.nn.MaxPool2d(2),
                                torch.nn.Conv2d(4, 8, 3), torch.nn.MaxPool2d(2, ceil_mode=True)).npu()
    net_n.load_state_dict(net.state_dict())
    x = torch.randn(3, 1, 28, 28)
    y, yn = net(x), net_n(x.npu())
    assert_same(yn, y, **TOL)
    g = torch.randn_like(y)
    y.backward(g)
    yn.backward(g.npu())
    for p, pn in zip(net.parameters(), net_n.parameters()):
        assert_same(pn.grad, p.grad, atol=1e-3, rtol=1e-3)
