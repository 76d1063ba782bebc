"""The activation gradients on both paths: the gradient of each activation for a random grad_output,
run once on op_api (jit_compile=False) and once on acl_op (jit_compile=True), equals CPU's (also at the
activations' kinks, where torch releases differ), and the
backward operator took the path the run forced (the A/B test's OpInfo samples run forwards only)."""

from __future__ import annotations

from typing import Callable

import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.nn.functional as F
from forced_path import on_path  # tests/conftest.py loads it

# backward operator -> the activation whose gradient runs it
ACTIVATIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "elu_backward.grad_input": lambda t: F.elu(t, 0.7),
    "glu_backward": lambda t: F.glu(t, 1),
    "hardshrink_backward.grad_input": lambda t: F.hardshrink(t, 0.6),
    "hardsigmoid_backward.grad_input": F.hardsigmoid,
    "hardswish_backward": F.hardswish,
    "hardtanh_backward": lambda t: F.hardtanh(t, -2.0, 1.5),
    "leaky_relu_backward.grad_input": lambda t: F.leaky_relu(t, 0.2),
    "log_sigmoid_backward": F.logsigmoid,
    "mish_backward": F.mish,
    "softplus_backward.grad_input": lambda t: F.softplus(t, 2.0, 5.0),
    "softshrink_backward.grad_input": lambda t: F.softshrink(t, 0.6),
}

# The activations' kinks: hardswish/hardsigmoid at -3 and 3, hardtanh at -2 and 1.5, the shrinks at -0.6
# and 0.6, relu-like ones at 0.
KINKS = torch.tensor([-3.0, 3.0, -2.0, 1.5, -0.6, 0.6, 0.0])



def _cpu_hardswish_kinks_agree() -> bool:
    """Whether CPU's hardswish_backward at -3 and 3 is the same for a lone element and inside a vector:
    before ATen's boundary fix its vectorized loop and its scalar tail disagree there, so no device
    kernel can match CPU at both."""
    x = torch.tensor([-3.0, 3.0]).repeat(32)
    vector = torch.ops.aten.hardswish_backward(torch.ones_like(x), x)[:2]
    lone = torch.cat([torch.ops.aten.hardswish_backward(torch.ones(1), x[i:i + 1]) for i in range(2)])
    return torch.equal(vector, lone)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("backward", sorted(ACTIVATIONS))
def test_activation_gradient_on_each_path_equals_cpus(backward: str, path: str) -> None:
    activation = ACTIVATIONS[backward]
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(4, 6, 8, generator=generator) * 3
    kinks = KINKS if backward != "hardswish_backward" or _cpu_hardswish_kinks_agree() else KINKS[2:]
    x[0, 0, :kinks.numel()] = kinks  # where the gradients change their piece
    grad_output = torch.randn(activation(x).shape, generator=generator)
    leaf = x.clone().requires_grad_()
    activation(leaf).backward(grad_output)
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        npu_leaf = x.npu().requires_grad_()
        activation(npu_leaf).backward(grad_output.npu())
        counts = torch.npu.path_ledger().get(backward, {})
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    assert counts.get(path, 0) >= 1, f"{backward}: expected the {path} path, ledger: {counts}"
    torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("channels", [6, 1], ids=["per_channel", "shared"])
def test_prelu_gradients_on_each_path_equal_cpus(path: str, dtype: torch.dtype, channels: int) -> None:
    generator = torch.Generator().manual_seed(1)
    x = (torch.randn(4, 6, 5, generator=generator) * 3).to(dtype)
    x[0, 0, :3] = torch.tensor([0.0, -0.0, 1.0])  # the kink, where x > 0 changes
    weight = torch.randn(channels, generator=generator).to(dtype)
    grad_output = torch.randn(4, 6, 5, generator=generator).to(dtype)
    # the backward operator itself: both gradients in the broadcast shape, as ATen's kernel gives them
    shaped = weight.view(1, channels, 1)
    expected = torch.ops.aten._prelu_kernel_backward(grad_output, x, shaped)
    got = on_path(path, "_prelu_kernel_backward", lambda: torch.ops.aten._prelu_kernel_backward(
        grad_output.npu(), x.npu(), shaped.npu()))
    # bit for bit where CPU computes in float32 (torch 2.1's CPU rounds bfloat16 products in bfloat16)
    exact = {"rtol": 0, "atol": 0} if dtype != torch.bfloat16 or torch.__version__ >= "2.2" else {}
    for e, g in zip(expected, got):
        assert g.shape == e.shape
        torch.testing.assert_close(g.cpu(), e, **exact)
    # through autograd: the weight's gradient summed to its shape
    leaf, w = x.clone().requires_grad_(), weight.clone().requires_grad_()
    F.prelu(leaf, w).backward(grad_output)
    npu_leaf, npu_w = x.npu().requires_grad_(), weight.npu().requires_grad_()
    on_path(path, "_prelu_kernel_backward", lambda: F.prelu(npu_leaf, npu_w).backward(grad_output.npu()))
    torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad, **exact)
    # the weight's gradient is a sum, whose order is the device's: within the rounding any order allows
    wide = x.double().requires_grad_()
    wide_w = weight.double().requires_grad_()
    F.prelu(wide, wide_w).backward(grad_output.double())
    terms = (x.double() * grad_output.double()).abs().sum() * x.numel() * torch.finfo(dtype).eps
    torch.testing.assert_close(npu_w.grad.cpu().double(), wide_w.grad, rtol=0, atol=float(terms) + 1e-300)
