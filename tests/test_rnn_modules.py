"""nn.LSTM, nn.GRU and nn.RNN train on npu with the CPU fallback forbidden: the loss, the outputs,
the final states and every parameter's gradient match CPU, and an optimizer step moves the
parameters alike. On a privateuse1 device PyTorch's recurrent layers run the fused cells
(_thnn_fused_lstm_cell, _thnn_fused_gru_cell and their backwards) for LSTM and GRU."""

from __future__ import annotations

import copy

import pytest
import torch

RTOL, ATOL = 1e-4, 1e-5


# mul.out is declared from v2.5 on (yaml/op_plugin_functions.yaml's example of a version range)
# and GRU's backward reaches it: on older releases it is the one operator allowed on the CPU.
_TORCH = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
ALLOWED_ON_CPU = {"mul.out"} if _TORCH < (2, 5) else set()


def _forbid_fallback():
    """Forbids the CPU fallback (ALLOWED_ON_CPU aside: _check_fallbacks checks those)."""
    old = torch.npu.get_fallback_mode()
    torch.npu.set_fallback_mode("silent" if ALLOWED_ON_CPU else "error")
    torch.npu.reset_path_ledger()
    return old


def _check_fallbacks():
    fell_back = {op for op, counts in torch.npu.path_ledger().items() if counts["cpu_fallback"]}
    assert fell_back <= ALLOWED_ON_CPU, f"ran on the CPU: {sorted(fell_back - ALLOWED_ON_CPU)}"


def _train_step(module, x, h0):
    opt = torch.optim.SGD(module.parameters(), lr=0.1)
    opt.zero_grad()
    out, state = module(x, h0)
    loss = out.square().mean() + sum(s.square().mean() for s in (state if isinstance(state, tuple) else (state,)))
    loss.backward()
    grads = {name: p.grad.detach().clone() for name, p in module.named_parameters()}
    opt.step()
    params = {name: p.detach().clone() for name, p in module.named_parameters()}
    return loss.detach(), out.detach(), state, grads, params


def _to_npu(value):
    if isinstance(value, tuple):
        return tuple(v.npu() for v in value)
    return None if value is None else value.npu()


def _close(npu, cpu, what):
    torch.testing.assert_close(npu.cpu(), cpu, rtol=RTOL, atol=ATOL, msg=lambda m: f"{what}: {m}")


@pytest.mark.parametrize("cls", [torch.nn.LSTM, torch.nn.GRU, torch.nn.RNN], ids=lambda c: c.__name__)
@pytest.mark.parametrize("num_layers", [1, 2])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_recurrent_layer_trains_on_npu_like_cpu(cls, num_layers, batch_first, bidirectional):
    torch.manual_seed(num_layers * 4 + batch_first * 2 + bidirectional)
    cpu_module = cls(5, 6, num_layers=num_layers, batch_first=batch_first, bidirectional=bidirectional)
    npu_module = copy.deepcopy(cpu_module).npu()
    batch, steps = 3, 4
    x = torch.randn((batch, steps, 5) if batch_first else (steps, batch, 5))
    states = num_layers * (2 if bidirectional else 1)
    h0 = torch.randn(states, batch, 6)
    if cls is torch.nn.LSTM:
        h0 = (h0, torch.randn(states, batch, 6))
    want = _train_step(cpu_module, x, h0)
    old = _forbid_fallback()
    try:
        got = _train_step(npu_module, x.npu(), _to_npu(h0))
        torch.npu.synchronize()
        _check_fallbacks()
    finally:
        torch.npu.set_fallback_mode(old)
    _close(got[0], want[0], "loss")
    _close(got[1], want[1], "output")
    for i, (g, w) in enumerate(zip(got[2] if isinstance(got[2], tuple) else (got[2],),
                                   want[2] if isinstance(want[2], tuple) else (want[2],))):
        _close(g.detach(), w.detach(), f"final state {i}")
    for name in want[3]:
        _close(got[3][name], want[3][name], f"grad of {name}")
        _close(got[4][name], want[4][name], f"{name} after the step")


@pytest.mark.parametrize("cls", [torch.nn.LSTM, torch.nn.GRU], ids=lambda c: c.__name__)
def test_recurrent_layer_without_bias_and_without_initial_state(cls):
    torch.manual_seed(7)
    cpu_module = cls(4, 3, bias=False)
    npu_module = copy.deepcopy(cpu_module).npu()
    x = torch.randn(5, 2, 4, requires_grad=True)
    xn = x.detach().npu().requires_grad_()
    out, _ = cpu_module(x)
    out.sum().backward()
    old = _forbid_fallback()
    try:
        out_n, _ = npu_module(xn)
        out_n.sum().backward()
        _check_fallbacks()
    finally:
        torch.npu.set_fallback_mode(old)
    _close(out_n.detach(), out.detach(), "output")
    _close(xn.grad, x.grad, "input gradient")
    for (name, p), (_, pn) in zip(cpu_module.named_parameters(), npu_module.named_parameters()):
        _close(pn.grad, p.grad, f"grad of {name}")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_lstm_cell_in_half_precision_computes_in_float32(dtype):
    torch.manual_seed(3)
    igates, hgates = torch.randn(4, 12), torch.randn(4, 12)
    cx, bias = torch.randn(4, 3), torch.randn(12)
    want = torch.ops.aten._thnn_fused_lstm_cell(igates.npu(), hgates.npu(), cx.npu(), bias.npu(), None)
    got = torch.ops.aten._thnn_fused_lstm_cell(igates.to(dtype).npu(), hgates.to(dtype).npu(), cx.to(dtype).npu(),
                                      bias.to(dtype).npu(), None)
    for g, w in zip(got, want):
        assert g.dtype == dtype
        torch.testing.assert_close(g.float().cpu(), w.cpu(), rtol=2e-2, atol=2e-2)


def test_fused_cell_rejects_mismatched_gates():
    with pytest.raises(RuntimeError, match="_thnn_fused_gru_cell: gates of shape"):
        torch.ops.aten._thnn_fused_gru_cell(torch.randn(2, 8).npu(), torch.randn(2, 9).npu(), torch.randn(2, 3).npu())
