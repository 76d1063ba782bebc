"""Backward on npu (needs the hooks' hasPrimaryContext)."""

import torch


def test_backward_of_a_small_graph():
    x_cpu = torch.randn(5, dtype=torch.float32)
    w_cpu = torch.randn(5, dtype=torch.float32)
    x = x_cpu.npu().requires_grad_()
    w = w_cpu.npu().requires_grad_()
    loss = (x * w + x).abs().sum()
    loss.backward()
    xc = x_cpu.clone().requires_grad_()
    wc = w_cpu.clone().requires_grad_()
    (xc * wc + xc).abs().sum().backward()
    assert x.grad.device.type == "npu"
    torch.testing.assert_close(x.grad.cpu(), xc.grad)
    torch.testing.assert_close(w.grad.cpu(), wc.grad)


def test_backward_on_second_device():
    x = torch.randn(4).to("npu:1").requires_grad_()
    (x * x).sum().backward()
    assert x.grad.device == torch.device("npu:1")
    torch.testing.assert_close(x.grad.cpu(), 2 * x.detach().cpu())
