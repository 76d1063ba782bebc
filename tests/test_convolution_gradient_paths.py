"""Convolutions and their gradients on both paths: run once on op_api (jit_compile=False) and once on acl_op
(jit_compile=True), each equals CPU's, and the operator took the path the run forced (the A/B test's OpInfo
samples run forwards only). Bad arguments fail alike on both paths."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.nn.functional as F
from forced_path import on_path  # tests/conftest.py loads it

# the function, input shape, weight shape, keyword arguments
CASES = [
    (F.conv1d, (2, 4, 9), (6, 2, 3), {"stride": 2, "padding": 1, "groups": 2}),
    (F.conv2d, (2, 3, 7, 6), (4, 3, 3, 2), {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 2)}),
    (F.conv2d, (1, 6, 5, 5), (6, 2, 3, 3), {"padding": 1, "groups": 3}),
    (F.conv3d, (2, 4, 4, 5, 3), (6, 2, 2, 3, 1), {"stride": (1, 2, 1), "padding": (1, 0, 1), "groups": 2}),
    (F.conv_transpose1d, (2, 4, 5), (4, 3, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
    (F.conv_transpose2d, (2, 4, 3, 4), (4, 1, 3, 2), {"stride": (2, 1), "padding": (0, 1), "dilation": (1, 2),
                                                      "groups": 2, "output_padding": (1, 0)}),
    (F.conv_transpose3d, (1, 2, 3, 2, 3), (2, 3, 2, 2, 3), {"stride": 2, "output_padding": (1, 0, 1)}),
    # an output padding not below the stride (but below the dilation): the last rows no window reaches
    (F.conv_transpose2d, (1, 3, 4, 4), (3, 2, 2, 2), {"dilation": 3, "output_padding": (2, 1)}),
]


def case_id(case) -> str:
    return f"{case[0].__name__}-{'x'.join(map(str, case[1]))}"


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_convolution_and_its_gradients_equal_cpus(path: str, dtype: torch.dtype, case) -> None:
    conv, x_shape, w_shape, kwargs = case
    out_channels = w_shape[1] * kwargs.get("groups", 1) if conv.__name__.startswith("conv_transpose") else w_shape[0]
    generator = torch.Generator().manual_seed(0)
    x, w = torch.randn(x_shape, generator=generator).to(dtype), torch.randn(w_shape, generator=generator).to(dtype)
    b = torch.randn(out_channels, generator=generator).to(dtype)
    # the device accumulates in float32 as CANN does: the reference for 16-bit dtypes is CPU's float32, rounded
    leaves = [t.float().clone().requires_grad_() for t in (x, w, b)]
    out = conv(*leaves, **kwargs)
    grad_output = torch.randn(out.shape, generator=generator).to(dtype)
    out.backward(grad_output.float())
    npu_leaves = [t.npu().requires_grad_() for t in (x, w, b)]
    npu_out = on_path(path, "convolution_overrideable", lambda: conv(*npu_leaves, **kwargs))
    on_path(path, "convolution_backward_overrideable", lambda: npu_out.backward(grad_output.npu()))
    tolerance = {torch.float32: {"rtol": 1e-4, "atol": 1e-4}, torch.float16: {"rtol": 2e-3, "atol": 2e-2},
                 torch.bfloat16: {"rtol": 2e-2, "atol": 1e-1}}[dtype]
    torch.testing.assert_close(npu_out.detach().cpu(), out.detach().to(dtype), **tolerance)
    for name, leaf, npu_leaf in zip(("input", "weight", "bias"), leaves, npu_leaves):
        torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad.to(dtype), **tolerance,
                                   msg=lambda m, name=name: f"grad of {name}: {m}")


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_partial_gradients_and_empty_batches(path: str) -> None:
    """Only the gradients asked for are computed; an empty batch gives zero weight and bias gradients."""
    x, w = torch.randn(2, 3, 5, 5), torch.randn(4, 3, 3, 3)
    grad = torch.randn(2, 4, 3, 3)
    args = ([1, 1], [0, 0], [1, 1], False, [0, 0], 1)
    grad_input, grad_weight, grad_bias = on_path(
        path, "convolution_backward_overrideable",
        lambda: torch.ops.aten.convolution_backward(grad.npu(), x.npu(), w.npu(), [4], *args, [True, False, False]))
    expected = torch.ops.aten.convolution_backward(grad, x, w, [4], *args, [True, False, False])
    torch.testing.assert_close(grad_input.cpu(), expected[0], rtol=1e-4, atol=1e-4)
    assert grad_weight is None and grad_bias is None
    empty = torch.randn(0, 3, 5, 5)
    # ATen's convolution_backward answers an empty batch itself: the device operator is called directly
    backward = torch.ops.aten.convolution_backward_overrideable
    results = on_path(path, "convolution_backward_overrideable",
                      lambda: backward(torch.randn(0, 4, 3, 3).npu(), empty.npu(), w.npu(), *args, [True, True, True]))
    assert results[0].shape == empty.shape
    torch.testing.assert_close(results[1].cpu(), torch.zeros_like(w))
    torch.testing.assert_close(results[2].cpu(), torch.zeros(4))


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_bad_arguments_fail_naming_the_operator_on_both_paths(path: str) -> None:
    x, w = torch.randn(1, 4, 5, 5).npu(), torch.randn(2, 3, 3, 3).npu()  # 4 input channels, weight for 3
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        with pytest.raises(RuntimeError, match="convolution_overrideable: Given groups=1, weight of size"):
            torch.ops.aten.convolution_overrideable(x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
        with pytest.raises(RuntimeError, match="convolution_overrideable: Input type .* and weight type"):
            torch.ops.aten.convolution_overrideable(x, w[:, :1].repeat(1, 4, 1, 1).half(), None, [1, 1], [0, 0],
                                                    [1, 1], False, [0, 0], 1)
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
