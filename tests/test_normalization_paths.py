"""Normalization on both paths: native_layer_norm's three outputs (mean and rstd too, which the OpInfo
samples do not compare) and native_layer_norm_backward's three gradients, run once on op_api
(jit_compile=False) and once on acl_op (jit_compile=True), equal CPU's, including rows of equal values and
empty inputs, and each operator took the path the run forced."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch

CASES = [
    ((3, 4, 5), [5], True),
    ((2, 3, 4), [3, 4], False),
    ((6, 7), [7], True),
    ((0, 4), [4], True),
    ((3, 0), [0], True),
]


def _layer_norm_and_gradients(x, shape, weight, bias, grad, eps):
    x = x.detach().requires_grad_()
    mask = [True, weight is not None, bias is not None]
    y, mean, rstd = torch.ops.aten.native_layer_norm(x, shape, weight, bias, eps)
    grads = torch.ops.aten.native_layer_norm_backward(grad, x, shape, mean, rstd, weight, bias, mask)
    return (y, mean, rstd, *grads)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize(("size", "shape", "affine"), CASES)
def test_layer_norm_outputs_and_gradients_on_each_path_equal_cpus(size, shape, affine, path) -> None:
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(size, generator=generator)
    if x.numel():
        x[0] = 1.5  # a row of equal values: variance 0, rstd 1/sqrt(eps)
    weight = torch.randn(shape, generator=generator) if affine else None
    bias = torch.randn(shape, generator=generator) if affine else None
    grad = torch.randn(size, generator=generator)
    expected = _layer_norm_and_gradients(x, shape, weight, bias, grad, 1e-5)
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        npu = lambda t: None if t is None else t.npu()  # noqa: E731
        got = _layer_norm_and_gradients(x.npu(), shape, npu(weight), npu(bias), grad.npu(), 1e-5)
        ledger = torch.npu.path_ledger()
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    for op in ("native_layer_norm", "native_layer_norm_backward"):
        assert ledger.get(op, {}).get(path, 0) >= 1, f"{op}: expected the {path} path, ledger: {ledger.get(op)}"
    names = ("out", "mean", "rstd", "grad_input", "grad_weight", "grad_bias")
    for name, g, e in zip(names, got, expected):
        if e is None:
            assert g is None, name
            continue
        torch.testing.assert_close(g.cpu(), e, rtol=1e-4, atol=1e-4, equal_nan=True, msg=lambda m, n=name: f"{n}: {m}")
