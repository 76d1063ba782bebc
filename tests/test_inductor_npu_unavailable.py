"""torch.compile on a torch whose Inductor the npu backend cannot build on (before 2.6).

The default backend (Inductor) stops with an error that says why and which backends work, where
Inductor alone would fail on the missing device backend ("'NoneType' object is not callable",
"Device npu not supported"); aot_eager and eager compile npu graphs, forward and backward, on the
npu ops; Inductor on the CPU is unaffected by the registration. On a torch with the npu backend
these tests skip: tests/test_inductor_npu.py covers it.
"""

from __future__ import annotations

import opplugin_runtime  # noqa: F401  registers the npu device
import pytest
import torch
from opplugin_runtime.npu import inductor as npu_inductor

_SUPPORTED, _WHY_NOT = npu_inductor.supported()
pytestmark = pytest.mark.skipif(_SUPPORTED, reason="this torch's Inductor has the npu backend "
                                "(tests/test_inductor_npu.py)")


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _f(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return ((x @ w) * 2).relu().sum(0)


def _inputs() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return torch.randn(5, 4, generator=g), torch.randn(4, 3, generator=g)


def test_default_backend_says_why_and_which_backends_work():
    x, w = _inputs()
    with pytest.raises(Exception) as caught:
        torch.compile(_f)(x.npu(), w.npu())
    text = str(caught.value)
    assert "cannot compile for npu" in text, text
    assert torch.__version__ in text and _WHY_NOT in text, text
    assert "backend='aot_eager'" in text and "backend='eager'" in text, text


@pytest.mark.parametrize("backend", ["aot_eager", "eager"])
def test_other_backends_compile_npu_graphs_forward_and_backward(backend):
    x, w = _inputs()
    wn = w.npu().requires_grad_()
    old = torch.npu.get_fallback_mode()
    torch.npu.set_fallback_mode("error")
    try:
        got = torch.compile(_f, backend=backend)(x.npu(), wn)
        got.sum().backward()
    finally:
        torch.npu.set_fallback_mode(old)
    wc = w.clone().requires_grad_()
    want = _f(x, wc)
    want.sum().backward()
    torch.testing.assert_close(got.detach().cpu(), want.detach())
    torch.testing.assert_close(wn.grad.cpu(), wc.grad)


def test_inductor_still_compiles_for_the_cpu():
    x, w = _inputs()
    torch.testing.assert_close(torch.compile(_f)(x, w), _f(x, w))
