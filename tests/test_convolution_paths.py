"""3-D and transposed 1-3-D convolution on npu (the op_api path: aclnnConvolution, aclnnConvolutionBackward):
forward and the gradients of input, weight and bias through autograd equal CPU's, for float32, float16 and
bfloat16 with groups, dilation, padding, strides and output_padding; bad arguments raise naming the
operator and the argument."""

from __future__ import annotations

import copy

import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.nn.functional as F
from forced_path import on_path  # tests/conftest.py loads it

DTYPES = [torch.float32, torch.float16, torch.bfloat16]
# Against CPU's float32 result of the same 16-bit inputs (older CPUs lack 16-bit convolutions): the device
# accumulates in float32 and rounds once, float16's column gradient once more before its sums.
TOLERANCE = {torch.float32: (1e-4, 1e-4), torch.float16: (4e-3, 4e-3), torch.bfloat16: (2e-2, 2e-2)}

# (input shape, weight shape, keyword arguments)
CONV3D_CASES = [
    ((2, 3, 5, 6, 7), (4, 3, 3, 3, 3), {"padding": 1}),
    ((1, 4, 7, 6, 9), (6, 2, 2, 3, 3), {"stride": (2, 1, 3), "padding": (0, 1, 2), "dilation": (2, 1, 1),
                                        "groups": 2}),
    ((2, 4, 4, 5, 4), (4, 1, 3, 2, 3), {"stride": (1, 2, 1), "padding": (1, 0, 1), "dilation": (1, 1, 2),
                                        "groups": 4}),
]
TRANSPOSED_CASES = [
    ((2, 3, 7), (3, 4, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
    ((1, 4, 9), (4, 3, 2), {"stride": 3, "dilation": 2, "output_padding": 2, "groups": 2}),
    ((2, 3, 5, 4), (3, 2, 3, 3), {}),
    ((2, 4, 5, 6), (4, 3, 3, 2), {"stride": (2, 3), "padding": (1, 0), "output_padding": (1, 2),
                                  "dilation": (1, 2), "groups": 2}),
    ((1, 6, 4, 4), (6, 1, 3, 3), {"stride": 2, "padding": 1, "output_padding": (0, 1), "groups": 6}),
    # output_padding not below stride but below dilation
    ((1, 2, 5, 5), (2, 3, 3, 3), {"stride": 1, "dilation": 2, "output_padding": 1}),
    ((1, 2, 3, 4, 3), (2, 3, 2, 3, 2), {"stride": (2, 1, 2), "padding": (0, 1, 1), "output_padding": (1, 0, 1),
                                        "dilation": (1, 2, 1)}),
    ((2, 4, 3, 3, 2), (4, 2, 3, 2, 2), {"stride": (1, 2, 2), "padding": (1, 0, 0), "output_padding": (0, 1, 0),
                                        "dilation": (2, 1, 1), "groups": 2}),
]


def _case_id(case) -> str:
    return f"{list(case[0])}-{list(case[1])}-{case[2]}"


def _compare_with_cpu(fn, x_shape, w_shape, bias_size, dtype, kwargs) -> None:
    generator = torch.Generator().manual_seed(sum(x_shape) + sum(w_shape))
    x = torch.randn(x_shape, generator=generator).to(dtype)
    w = (torch.randn(w_shape, generator=generator) / 2).to(dtype)
    b = torch.randn(bias_size, generator=generator).to(dtype)
    reference = torch.float32
    leaves = [t.to(reference).clone().requires_grad_() for t in (x, w, b)]
    out = fn(*leaves, **kwargs)
    grad_output = torch.randn(out.shape, generator=generator).to(dtype)
    out.backward(grad_output.to(reference))
    npu_leaves = [t.npu().requires_grad_() for t in (x, w, b)]
    npu_out = on_path("op_api", "convolution_overrideable", lambda: fn(*npu_leaves, **kwargs))
    on_path("op_api", "convolution_backward_overrideable", lambda: npu_out.backward(grad_output.npu()))
    rtol, atol = TOLERANCE[dtype]
    torch.testing.assert_close(npu_out.detach().cpu(), out.detach().to(dtype), rtol=rtol, atol=atol)
    for name, npu_leaf, leaf in zip(("input", "weight", "bias"), npu_leaves, leaves):
        assert npu_leaf.grad.dtype == dtype, name
        # the weight and bias gradients sum over every position: their scale grows with the count
        scale = max(1.0, leaf.grad.abs().max().item() / 10)
        torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad.to(dtype), rtol=rtol, atol=atol * scale,
                                   msg=lambda m, name=name: f"gradient of {name}: {m}")


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("case", CONV3D_CASES, ids=_case_id)
def test_conv3d_and_gradients_equal_cpus(case, dtype: torch.dtype) -> None:
    x_shape, w_shape, kwargs = case
    _compare_with_cpu(F.conv3d, x_shape, w_shape, w_shape[0], dtype, kwargs)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("case", TRANSPOSED_CASES, ids=_case_id)
def test_conv_transpose_and_gradients_equal_cpus(case, dtype: torch.dtype) -> None:
    x_shape, w_shape, kwargs = case
    fn = {3: F.conv_transpose1d, 4: F.conv_transpose2d, 5: F.conv_transpose3d}[len(x_shape)]
    _compare_with_cpu(fn, x_shape, w_shape, w_shape[1] * kwargs.get("groups", 1), dtype, kwargs)


@pytest.mark.parametrize("fn,x_shape,w_shape", [(F.conv3d, (0, 2, 4, 4, 4), (3, 2, 3, 3, 3)),
                                                (F.conv_transpose2d, (0, 2, 4, 4), (2, 3, 3, 3))],
                         ids=["conv3d", "conv_transpose2d"])
def test_empty_batch_gives_cpus_shapes_and_zero_gradients(fn, x_shape, w_shape) -> None:
    leaves = [torch.randn(s).requires_grad_() for s in (x_shape, w_shape, (3,))]
    out = fn(*leaves)
    out.sum().backward()
    npu_leaves = [t.detach().npu().requires_grad_() for t in leaves]
    npu_out = fn(*npu_leaves)
    npu_out.sum().backward()
    assert npu_out.shape == out.shape
    for npu_leaf, leaf in zip(npu_leaves, leaves):
        torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad)


def test_modules_train_on_npu_like_cpu() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv3d(2, 4, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.ConvTranspose3d(4, 2, 2, stride=2, groups=2))
    npu_model = copy.deepcopy(model).npu()
    x = torch.randn(2, 2, 4, 4, 4)
    model(x).square().sum().backward()
    npu_model(x.npu()).square().sum().backward()
    for (name, p), npu_p in zip(model.named_parameters(), npu_model.parameters()):
        torch.testing.assert_close(npu_p.grad.cpu(), p.grad, rtol=1e-4, atol=1e-4, msg=lambda m, n=name: f"{n}: {m}")


def _raises_like_cpu(fn, args_cpu, args_npu, kwargs, npu_match: str) -> None:
    with pytest.raises(RuntimeError):
        fn(*args_cpu, **kwargs)
    with pytest.raises(RuntimeError, match=npu_match):
        fn(*args_npu, **kwargs)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_output_padding_not_below_stride_or_dilation_is_refused_like_cpu(nd: int) -> None:
    fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[nd]
    x, w = torch.randn((1, 2) + (4,) * nd), torch.randn((2, 3) + (3,) * nd)
    _raises_like_cpu(fn, (x, w), (x.npu(), w.npu()), {"stride": 2, "output_padding": 2},
                     "convolution_overrideable: output padding must be smaller than either stride or dilation")


def test_bad_arguments_name_the_operator_and_argument() -> None:
    x, w = torch.randn(1, 2, 4, 4, 4).npu(), torch.randn(3, 2, 3, 3, 3).npu()
    op = torch.ops.aten.convolution_overrideable
    with pytest.raises(RuntimeError, match=r"convolution_overrideable: expected stride to be .* 3 values"):
        op(x, w, None, [1, 1], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 1)
    with pytest.raises(RuntimeError, match="convolution_overrideable: negative padding is not supported"):
        op(x, w, None, [1, 1, 1], [0, -1, 0], [1, 1, 1], False, [0, 0, 0], 1)
    with pytest.raises(RuntimeError, match="convolution_overrideable: Given transposed=1, weight of size"):
        op(x, w, None, [1, 1, 1], [0, 0, 0], [1, 1, 1], True, [0, 0, 0], 1)
    with pytest.raises(RuntimeError, match="convolution_overrideable: input of dtype Long is not supported"):
        op(x.long(), w.long(), None, [1, 1, 1], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 1)
    with pytest.raises(RuntimeError, match="convolution_overrideable: .*Kernel size can't be greater"):
        op(x[:, :, :2], w, None, [1, 1, 1], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 1)
    with pytest.raises(RuntimeError, match="convolution_overrideable: .*Output size is too small"):
        op(torch.randn(1, 2, 1, 1, 1).npu(), torch.randn(2, 3, 1, 1, 1).npu(), None, [1, 1, 1], [1, 1, 1],
           [1, 1, 1], True, [0, 0, 0], 1)
    grad = torch.randn(1, 3, 2, 2, 3).npu()  # the output is [1, 3, 2, 2, 2]
    with pytest.raises(RuntimeError, match="convolution_backward_overrideable: grad_output has shape"):
        torch.ops.aten.convolution_backward_overrideable(grad, x, w, [1, 1, 1], [0, 0, 0], [1, 1, 1], False,
                                                         [0, 0, 0], 1, [True, True, True])
