"""Adaptive 3-D average pooling, max pooling with indices (2-D, 3-D, adaptive 2-D) and their gradients on both
paths: run once on op_api (jit_compile=False) and once on acl_op (jit_compile=True), each equals CPU's (the
indices exactly, so max_unpool reads them), and the operator took the path the run forced (the A/B test's
OpInfo samples run forwards only, and none reaches the out= overloads)."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.nn.functional as F
from forced_path import on_path  # tests/conftest.py loads it

# pooling, identity along an axis, and upsampling along W (output size 1 everywhere is a mean in ATen)
SIZES = [(2, 3, 4), (5, 1, 3)]


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("output_size", SIZES, ids=str)
def test_adaptive_avg_pool3d_and_gradient_equal_cpus(path: str, dtype: torch.dtype, output_size) -> None:
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(2, 3, 5, 6, 2, generator=generator).to(dtype)
    # CPU sums 16-bit windows in their own dtype; the device accumulates in float32 as CANN does, so the
    # reference for them is CPU's float32 result, rounded
    reference = torch.float64 if dtype == torch.float64 else torch.float32
    leaf = x.to(reference).clone().requires_grad_()
    out = F.adaptive_avg_pool3d(leaf, output_size)
    grad_output = torch.randn(out.shape, generator=generator).to(dtype)
    out.backward(grad_output.to(reference))
    npu_leaf = x.npu().requires_grad_()
    npu_out = on_path(path, "_adaptive_avg_pool3d", lambda: F.adaptive_avg_pool3d(npu_leaf, output_size))
    on_path(path, "_adaptive_avg_pool3d_backward", lambda: npu_out.backward(grad_output.npu()))
    exact = {"rtol": 0, "atol": 0} if dtype == torch.float64 else {}
    torch.testing.assert_close(npu_out.detach().cpu(), out.detach().to(dtype), **exact)
    torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad.to(dtype), **exact)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_adaptive_avg_pool3d_out_overloads_equal_cpus(path: str) -> None:
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(3, 4, 5, 6, generator=generator)  # unbatched (C, D, H, W)
    out = torch.empty(0, device="npu")
    on_path(path, "adaptive_avg_pool3d.out",
            lambda: torch.ops.aten.adaptive_avg_pool3d.out(x.npu(), (2, 2, 3), out=out))
    torch.testing.assert_close(out.cpu(), F.adaptive_avg_pool3d(x, (2, 2, 3)))
    grad = torch.randn(3, 2, 2, 3, generator=generator)
    grad_input = torch.empty(0, device="npu")
    on_path(path, "adaptive_avg_pool3d_backward.grad_input",
            lambda: torch.ops.aten.adaptive_avg_pool3d_backward.grad_input(grad.npu(), x.npu(), grad_input=grad_input))
    torch.testing.assert_close(grad_input.cpu(), torch.ops.aten._adaptive_avg_pool3d_backward(grad, x))


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_adaptive_avg_pool3d_gradient_of_another_shape_is_refused_like_cpu(path: str) -> None:
    x = torch.randn(2, 3, 4, 5, 6)
    grad = torch.randn(2, 3, 4, 5)  # one dimension short
    try:
        torch.ops.aten._adaptive_avg_pool3d_backward(grad, x)
    except RuntimeError:
        pass
    else:
        pytest.skip("this torch's CPU kernel does not check the gradient's shape")
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        with pytest.raises(RuntimeError, match="adaptive_avg_pool3d_backward"):
            torch.ops.aten._adaptive_avg_pool3d_backward(grad.npu(), x.npu())
    finally:
        torch.npu.set_compile_mode(jit_compile=False)


# max pooling: (ledger name of the forward, of the backward, input shape, the pooling with indices)
MAX_POOLS = {
    "max_pool2d": ("max_pool2d_with_indices.out", "max_pool2d_with_indices_backward.grad_input", (2, 3, 7, 9),
                   lambda x: F.max_pool2d(x, 3, 2, 1, dilation=(1, 2), ceil_mode=True, return_indices=True)),
    "max_pool3d": ("max_pool3d_with_indices", "max_pool3d_with_indices_backward", (2, 3, 4, 7, 9),
                   lambda x: F.max_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 0), ceil_mode=True, return_indices=True)),
    "adaptive_max_pool2d": ("adaptive_max_pool2d.out", "adaptive_max_pool2d_backward.grad_input", (2, 3, 7, 9),
                            lambda x: F.adaptive_max_pool2d(x, (3, 4), return_indices=True)),
}


def _tricky_input(shape, dtype: torch.dtype) -> torch.Tensor:
    """Small integers (ties in most windows), a NaN and one window's worth of -inf."""
    x = torch.randint(-2, 3, shape, generator=torch.Generator().manual_seed(2)).to(dtype)
    x[(0, 1) + (1,) * (len(shape) - 4) + (3, 4)] = float("nan")
    x[(1, 2) + (slice(0, 2),) * (len(shape) - 4) + (slice(0, 3), slice(0, 3))] = float("-inf")
    return x


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("op", sorted(MAX_POOLS))
def test_max_pooling_with_indices_and_gradient_equal_cpus(path: str, dtype: torch.dtype, op: str) -> None:
    forward, backward, shape, pool = MAX_POOLS[op]
    x = _tricky_input(shape, dtype)
    reference = torch.float64 if dtype == torch.float64 else torch.float32
    leaf = x.to(reference).clone().requires_grad_()
    values, indices = pool(leaf)
    grad_output = torch.randn(values.shape, generator=torch.Generator().manual_seed(3)).to(dtype)
    values.backward(grad_output.to(reference))
    npu_leaf = x.npu().requires_grad_()
    npu_values, npu_indices = on_path(path, forward, lambda: pool(npu_leaf))
    on_path(path, backward, lambda: npu_values.backward(grad_output.npu()))
    torch.testing.assert_close(npu_values.detach().cpu(), values.detach().to(dtype), rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(npu_indices.cpu(), indices, rtol=0, atol=0)
    # the gradient sums in float32 (float64 for double) on the device, CPU 16-bit ones in their dtype: CPU's
    # float32 result, rounded
    exact = {"rtol": 0, "atol": 0} if dtype == torch.float64 else {}
    torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad.to(dtype), **exact)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_max_unpool_reads_the_indices_of_max_pool(path: str, dtype: torch.dtype) -> None:
    x = torch.randn(2, 3, 6, 8, generator=torch.Generator().manual_seed(4)).to(dtype)
    values, indices = on_path(path, "max_pool2d_with_indices.out", lambda: F.max_pool2d(x.npu(), 2,
                                                                                         return_indices=True))
    unpooled = on_path(path, "max_unpool2d", lambda: F.max_unpool2d(values, indices, 2))
    # CPU's reference in float32 (torch 2.1's CPU max_unpool has no 16-bit kernels); x's values are 16-bit ones
    torch.testing.assert_close(unpooled.cpu(), F.max_unpool2d(*F.max_pool2d(x.float(), 2, return_indices=True),
                                                              2).to(dtype), rtol=0, atol=0)
    values3, indices3 = on_path(path, "max_pool3d_with_indices",
                                lambda: F.max_pool3d(x.npu()[None], 2, return_indices=True))
    unpooled3 = on_path(path, "max_unpool3d", lambda: F.max_unpool3d(values3, indices3, 2))
    torch.testing.assert_close(unpooled3.cpu(), F.max_unpool3d(*F.max_pool3d(x[None].float(), 2, return_indices=True),
                                                               2).to(dtype), rtol=0, atol=0)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_max_pooling_out_overloads_equal_cpus(path: str) -> None:
    x = _tricky_input((2, 3, 7, 9), torch.float32)[1]  # unbatched (C, H, W), with the -inf corner
    grad = torch.randn(3, 4, 5, generator=torch.Generator().manual_seed(5))
    out, indices = torch.empty(3, 5, 4, device="npu").transpose(1, 2), torch.empty(0, dtype=torch.long, device="npu")
    on_path(path, "max_pool2d_with_indices.out",
            lambda: torch.ops.aten.max_pool2d_with_indices.out(x.npu(), [2, 2], [2, 2], [1, 1], out=out,
                                                                indices=indices))
    expected, expected_indices = torch.ops.aten.max_pool2d_with_indices(x, [2, 2], [2, 2], [1, 1])
    torch.testing.assert_close(out.cpu(), expected, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(indices.cpu(), expected_indices, rtol=0, atol=0)
    grad_input = torch.empty(0, device="npu")
    on_path(path, "max_pool2d_with_indices_backward.grad_input",
            lambda: torch.ops.aten.max_pool2d_with_indices_backward.grad_input(
                grad.npu(), x.npu(), [2, 2], [2, 2], [1, 1], [1, 1], False, indices, grad_input=grad_input))
    torch.testing.assert_close(grad_input.cpu(), torch.ops.aten.max_pool2d_with_indices_backward(
        grad, x, [2, 2], [2, 2], [1, 1], [1, 1], False, expected_indices))
    x4 = x[None]  # unbatched 3-D (C, D, H, W)
    out3, indices3 = torch.empty(0, device="npu"), torch.empty(0, dtype=torch.long, device="npu")
    on_path(path, "max_pool3d_with_indices.out",
            lambda: torch.ops.aten.max_pool3d_with_indices.out(x4.npu(), [1, 3, 3], [1, 2, 2], [0, 1, 1], out=out3,
                                                                indices=indices3))
    expected3, expected_indices3 = torch.ops.aten.max_pool3d_with_indices(x4, [1, 3, 3], [1, 2, 2], [0, 1, 1])
    torch.testing.assert_close(out3.cpu(), expected3, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(indices3.cpu(), expected_indices3, rtol=0, atol=0)
    grad3 = torch.randn(expected3.shape, generator=torch.Generator().manual_seed(6))
    grad_input3 = torch.empty(0, device="npu")
    on_path(path, "max_pool3d_with_indices_backward.grad_input",
            lambda: torch.ops.aten.max_pool3d_with_indices_backward.grad_input(
                grad3.npu(), x4.npu(), [1, 3, 3], [1, 2, 2], [0, 1, 1], [1, 1, 1], False, indices3,
                grad_input=grad_input3))
    torch.testing.assert_close(grad_input3.cpu(), torch.ops.aten.max_pool3d_with_indices_backward(
        grad3, x4, [1, 3, 3], [1, 2, 2], [0, 1, 1], [1, 1, 1], False, expected_indices3))
    out_a, indices_a = torch.empty(0, device="npu"), torch.empty(0, dtype=torch.long, device="npu")
    on_path(path, "adaptive_max_pool2d.out",
            lambda: torch.ops.aten.adaptive_max_pool2d.out(x.npu(), [3, 4], out=out_a, indices=indices_a))
    expected_a, expected_indices_a = torch.ops.aten.adaptive_max_pool2d(x, [3, 4])
    torch.testing.assert_close(out_a.cpu(), expected_a, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(indices_a.cpu(), expected_indices_a, rtol=0, atol=0)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_max_pooling_refuses_integer_input_like_each_other(path: str) -> None:
    x = torch.ones(1, 2, 4, 4, dtype=torch.long, device="npu")
    for op, fn in (("max_pool2d_with_indices", lambda: F.max_pool2d(x, 2, return_indices=True)),
                   ("max_pool3d_with_indices", lambda: F.max_pool3d(x, 2, return_indices=True))):
        with pytest.raises(RuntimeError, match=f"{op}: self of dtype Long is not supported on npu"):
            on_path(path, op, fn)


def _acl_op_with_jit_off(op: str, fn):
    """fn() with jit_compile off; fails unless `op` took the acl_op path."""
    torch.npu.set_compile_mode(jit_compile=False)
    torch.npu.reset_path_ledger()
    result = fn()
    assert torch.npu.path_ledger().get(op, {}).get("acl_op", 0) >= 1, torch.npu.path_ledger().get(op)
    return result


def test_max_pooling_of_an_internal_format_input_runs_acl_op_and_equals_cpus() -> None:
    # op_api takes base formats only: an NC1HWC0 input goes to acl_op even with jit_compile off
    x = _tricky_input((2, 19, 7, 9), torch.float32)
    x_nc1hwc0 = opplugin_runtime.npu_format_cast(x.npu(), 3)
    values, indices = _acl_op_with_jit_off("max_pool2d_with_indices.out",
                                           lambda: F.max_pool2d(x_nc1hwc0, 3, 2, 1, return_indices=True))
    expected, expected_indices = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    torch.testing.assert_close(values.cpu(), expected, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(indices.cpu(), expected_indices, rtol=0, atol=0)
    grad = torch.randn(expected.shape, generator=torch.Generator().manual_seed(7))
    grad_input = _acl_op_with_jit_off("max_pool2d_with_indices_backward.grad_input",
                                      lambda: torch.ops.aten.max_pool2d_with_indices_backward(
                                          opplugin_runtime.npu_format_cast(grad.npu(), 3), x_nc1hwc0, [3, 3],
                                          [2, 2], [1, 1], [1, 1], False, indices))
    torch.testing.assert_close(grad_input.cpu(), torch.ops.aten.max_pool2d_with_indices_backward(
        grad, x, [3, 3], [2, 2], [1, 1], [1, 1], False, expected_indices))
    values_a, indices_a = _acl_op_with_jit_off("adaptive_max_pool2d.out",
                                               lambda: F.adaptive_max_pool2d(x_nc1hwc0, (3, 4),
                                                                             return_indices=True))
    expected_a, expected_indices_a = F.adaptive_max_pool2d(x, (3, 4), return_indices=True)
    torch.testing.assert_close(values_a.cpu(), expected_a, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(indices_a.cpu(), expected_indices_a, rtol=0, atol=0)
