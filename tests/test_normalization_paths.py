"""Normalization on both paths: native_layer_norm's three outputs (mean and rstd too, which the OpInfo
samples do not compare) and native_layer_norm_backward's three gradients; native_batch_norm's and
_native_batch_norm_legit's output, saved statistics and running statistics (training and evaluation, 2-D to
6-D inputs, strided running stats) and native_batch_norm_backward's three gradients. Each runs once on op_api
(jit_compile=False) and once on acl_op (jit_compile=True), equals CPU's (the saved statistics: op_api's, CPU
leaves them empty in evaluation), and took the path the run forced."""

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


BATCH_NORM_CASES = [(4, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 4), (2, 3, 1, 2, 1, 2)]


def _batch_norm(op, x, weight, bias, running_mean, running_var, training):
    if op == "_native_batch_norm_legit":
        return torch.ops.aten._native_batch_norm_legit(x, weight, bias, running_mean, running_var, training, 0.3, 1e-5)
    return torch.ops.aten.native_batch_norm(x, weight, bias, running_mean, running_var, training, 0.3, 1e-5)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("op", ["native_batch_norm", "_native_batch_norm_legit"])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("size", BATCH_NORM_CASES)
def test_batch_norm_outputs_and_running_stats_on_each_path_equal_cpus(size, training, op, path) -> None:
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(size, generator=generator) * 3 + 1
    channels = size[1]
    weight, bias = torch.randn(channels, generator=generator), torch.randn(channels, generator=generator)
    step = 2 if len(size) == 3 else 1  # strided running stats too
    bases = [torch.randn(channels * step, generator=generator), torch.rand(channels * step, generator=generator) + 0.5]
    cpu_running = [b.clone()[::step] for b in bases]
    out, _, _ = _batch_norm(op, x, weight, bias, *cpu_running, training)
    torch.npu.set_compile_mode(jit_compile=False)
    reference = _batch_norm(op, x.npu(), weight.npu(), bias.npu(), *[b.npu()[::step] for b in bases], training)
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        npu_running = [b.npu()[::step] for b in bases]
        got = _batch_norm(op, x.npu(), weight.npu(), bias.npu(), *npu_running, training)
        counts = torch.npu.path_ledger().get(op, {})
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    assert counts.get(path, 0) >= 1, f"{op}: expected the {path} path, ledger: {counts}"
    torch.testing.assert_close(got[0].cpu(), out, rtol=1e-4, atol=1e-4)
    for name, g, e in zip(("save_mean", "save_invstd"), got[1:], reference[1:]):
        torch.testing.assert_close(g.cpu(), e.cpu(), rtol=1e-4, atol=1e-5, msg=lambda m, n=name: f"{n}: {m}")
    for name, g, e in zip(("running_mean", "running_var"), npu_running, cpu_running):
        torch.testing.assert_close(g.cpu(), e, rtol=1e-4, atol=1e-5, msg=lambda m, n=name: f"{n}: {m}")


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("mask", [(True, True, True), (True, False, False), (False, True, True)])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("size", BATCH_NORM_CASES + [(0, 3, 4)])
def test_batch_norm_gradients_on_each_path_equal_cpus(size, training, mask, path) -> None:
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(size, generator=generator) * 3 + 1
    channels = size[1]
    grad = torch.randn(size, generator=generator)
    weight = torch.randn(channels, generator=generator)
    running_mean = torch.randn(channels, generator=generator)
    running_var = torch.rand(channels, generator=generator) + 0.5
    dims = [0] + list(range(2, len(size)))
    save_mean, save_invstd = torch.empty(0), torch.empty(0)
    if training:  # the saved statistics of no elements are NaN
        save_mean = x.mean(dims) if x.numel() else torch.full((channels,), float("nan"))
        save_invstd = x.var(dims, unbiased=False).add(1e-5).rsqrt() if x.numel() else save_mean.clone()
    args = (weight, running_mean, running_var, save_mean, save_invstd, training, 1e-5, list(mask))
    if x.numel():
        expected = torch.ops.aten.native_batch_norm_backward(grad, x, *args)
    else:  # CPU's kernel divides by the element count (SIGFPE); the sums of no elements are zeros
        expected = (torch.empty(size), torch.zeros(channels), torch.zeros(channels))
        expected = tuple(t if m else None for t, m in zip(expected, mask))
    npu_args = tuple(t.npu() if isinstance(t, torch.Tensor) else t for t in args)
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        got = torch.ops.aten.native_batch_norm_backward(grad.npu(), x.npu(), *npu_args)
        counts = torch.npu.path_ledger().get("native_batch_norm_backward", {})
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    assert counts.get(path, 0) >= 1, f"expected the {path} path, ledger: {counts}"
    for name, g, e in zip(("grad_input", "grad_weight", "grad_bias"), got, expected):
        if e is None:
            assert g is None, name
            continue
        torch.testing.assert_close(g.cpu(), e, rtol=1e-4, atol=1e-4, msg=lambda m, n=name: f"{n}: {m}")
