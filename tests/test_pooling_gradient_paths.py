"""Adaptive 3-D average pooling and its gradient on both paths: run once on op_api (jit_compile=False) and
once on acl_op (jit_compile=True), each equals CPU's, and the operator took the path the run forced (the
A/B test's OpInfo samples run forwards only, and none reaches the out= overloads)."""

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
