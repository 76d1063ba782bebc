"""Normalization on both paths: native_layer_norm's three outputs (mean and rstd too, which the OpInfo
samples do not compare) and native_layer_norm_backward's three gradients; native_batch_norm's and
_native_batch_norm_legit's output, saved statistics and running statistics (training and evaluation, 2-D to
6-D inputs, strided running stats) and native_batch_norm_backward's three gradients; native_group_norm's
three outputs and native_group_norm_backward's gradients (float32, float16, bfloat16), the same bits on both
paths, and the same errors. Each runs once on op_api
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


GROUP_NORM_CASES = [
    ((2, 6, 5, 4), 3, True),
    ((3, 4, 7), 2, False),
    ((2, 4), 4, True),
    ((1, 6, 2, 2, 3), 1, True),
    ((0, 4, 3), 2, True),
    ((2, 4, 0), 2, True),  # empty planes: an empty output before torch 2.14, refused (on CPU and npu) from it
]
_GROUP_NORM_REFUSES_EMPTY_PLANES = torch.torch_version.TorchVersion(torch.__version__) >= (2, 14)


def _group_norm_and_gradients(x, groups, weight, bias, grad, eps):
    n, c = x.shape[:2]
    hw = 1
    for size in x.shape[2:]:
        hw *= size
    y, mean, rstd = torch.ops.aten.native_group_norm(x, weight, bias, n, c, hw, groups, eps)
    mask = [True, weight is not None, bias is not None]
    grads = torch.ops.aten.native_group_norm_backward(grad, x, mean, rstd, weight, n, c, hw, groups, mask)
    return (y, mean, rstd, *grads)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize(("size", "groups", "affine"), GROUP_NORM_CASES)
def test_group_norm_outputs_and_gradients_on_each_path_equal_cpus(size, groups, affine, dtype, path) -> None:
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(size, generator=generator) * 2 + 1
    if x.numel() and groups > 1:  # (one group of equal values would make every gradient rounding noise)
        x[0, : size[1] // groups] = 1.5  # a group of equal values: variance 0, rstd 1/sqrt(eps)
    weight = torch.rand(size[1], generator=generator) + 0.5 if affine else None
    bias = torch.randn(size[1], generator=generator) if affine else None
    grad = torch.randn(size, generator=generator)
    cast = lambda t, d=dtype: None if t is None else t.to(d)  # noqa: E731
    if _GROUP_NORM_REFUSES_EMPTY_PLANES and x.dim() > 2 and 0 in size[2:]:
        on = lambda t, device: None if t is None else t.to(dtype).to(device)  # noqa: E731
        torch.npu.set_compile_mode(jit_compile=path == "acl_op")
        try:
            for device in ("cpu", "npu"):
                with pytest.raises(RuntimeError, match="Expected HxW to be greater than 0, got 0"):
                    _group_norm_and_gradients(on(x, device), groups, on(weight, device), on(bias, device),
                                              on(grad, device), 1e-5)
        finally:
            torch.npu.set_compile_mode(jit_compile=False)
        return
    # a float32 CPU reference for the 16-bit dtypes: CPU's own 16-bit kernels round differently
    expected = _group_norm_and_gradients(x.to(dtype).float(), groups, cast(weight, torch.float32),
                                         cast(bias, torch.float32), grad.to(dtype).float(), 1e-5)
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        npu = lambda t: None if t is None else t.to(dtype).npu()  # noqa: E731
        got = _group_norm_and_gradients(npu(x), groups, npu(weight), npu(bias), npu(grad), 1e-5)
        ledger = torch.npu.path_ledger()
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    for op in ("native_group_norm", "native_group_norm_backward"):
        assert ledger.get(op, {}).get(path, 0) >= 1, f"{op}: expected the {path} path, ledger: {ledger.get(op)}"
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == torch.float32 else {"rtol": 2e-2, "atol": 2e-2}
    names = ("out", "mean", "rstd", "grad_input", "grad_weight", "grad_bias")
    for name, g, e in zip(names, got, expected):
        if e is None:
            assert g is None, name
            continue
        assert g.dtype == dtype, name
        torch.testing.assert_close(g.cpu().float(), e.to(dtype).float(), **tol, equal_nan=True,
                                   msg=lambda m, n=name: f"{n}: {m}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_group_norm_paths_give_the_same_bits(dtype) -> None:
    generator = torch.Generator().manual_seed(1)
    x = (torch.randn(3, 8, 6, 5, generator=generator) * 3).to(dtype).npu()
    x = x.to(memory_format=torch.channels_last)  # CPU's layout check passes; both read it as NCHW
    weight = torch.randn(8, generator=generator).to(dtype).npu()
    bias = torch.randn(8, generator=generator).npu()  # float32 bias of a 16-bit input: CPU's mixed rule
    results = {}
    for path in ("op_api", "acl_op"):
        torch.npu.set_compile_mode(jit_compile=path == "acl_op")
        try:
            xg = x.detach().requires_grad_()
            wg, bg = weight.detach().requires_grad_(), bias.detach().requires_grad_()
            y = torch.nn.functional.group_norm(xg, 4, wg, bg)
            y.backward(torch.ones_like(y) * 0.5 + y.detach())
            results[path] = (y, xg.grad, wg.grad, bg.grad)
        finally:
            torch.npu.set_compile_mode(jit_compile=False)
    for name, a, b in zip(("y", "grad_input", "grad_weight", "grad_bias"), results["op_api"], results["acl_op"]):
        assert a.dtype == b.dtype, name
        torch.testing.assert_close(a.cpu(), b.cpu(), rtol=0, atol=0, msg=lambda m, n=name: f"{n}: {m}")


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_group_norm_bad_arguments_name_the_op(path) -> None:
    x = torch.randn(2, 6, 4).npu()
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        with pytest.raises(RuntimeError, match=r"native_group_norm: expected group \(4\) > 0 dividing C \(6\)"):
            torch.ops.aten.native_group_norm(x, None, None, 2, 6, 4, 4, 1e-5)
        with pytest.raises(RuntimeError, match="native_group_norm: weight of 5 elements, expected C = 6"):
            torch.ops.aten.native_group_norm(x, torch.ones(5).npu(), None, 2, 6, 4, 3, 1e-5)
        strided = x.transpose(1, 2).contiguous().transpose(1, 2)
        if _GROUP_NORM_REFUSES_EMPTY_PLANES:  # torch >= 2.14: any layout, as CPU, but no empty planes
            got = torch.ops.aten.native_group_norm(strided, None, None, 2, 6, 4, 3, 1e-5)
            want = torch.ops.aten.native_group_norm(strided.cpu(), None, None, 2, 6, 4, 3, 1e-5)
            for g, w in zip(got, want):
                torch.testing.assert_close(g.cpu(), w, rtol=1e-4, atol=1e-5)
            with pytest.raises(RuntimeError, match="native_group_norm: Expected HxW to be greater than 0, got 0"):
                torch.ops.aten.native_group_norm(torch.empty(2, 6, 0).npu(), None, None, 2, 6, 0, 3, 1e-5)
        else:
            with pytest.raises(RuntimeError, match="Expected X.is_contiguous"):
                torch.ops.aten.native_group_norm(strided, None, None, 2, 6, 4, 3, 1e-5)
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
