"""native_dropout on both paths (the A/B test compares only dtypes and shapes of random operators): on op_api
(jit_compile=False) and acl_op (jit_compile=True) the output is input * mask / (1 - p) with the returned bool
mask of the input's shape, the keep ratio is near 1 - p, p = 0, p = 1, evaluation and empty inputs give
ATen's results, a reseeded generator repeats the draw, and the operator took the path the run forced.
native_dropout_backward gives CPU's grad_output * mask * scale on both paths: bool masks (broadcast too), a mask
of another dtype and float64, whose scale the masked-scale kernels could only take as a float32."""

from __future__ import annotations

import math

import opplugin_runtime  # noqa: F401
import pytest
import torch
from forced_path import on_path


def _dropout(path: str, x: torch.Tensor, p: float, train: bool | None):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        output, mask = torch.ops.aten.native_dropout(x.npu(), p, train)
        counts = torch.npu.path_ledger().get("native_dropout", {})
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    return output.cpu(), mask.cpu(), counts


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_dropout_output_is_input_times_its_mask_and_keeps_about_1_minus_p(p, dtype, path) -> None:
    x = (torch.randn(200, 133, generator=torch.Generator().manual_seed(0)) + 3).to(dtype)
    output, mask, counts = _dropout(path, x, p, True)
    assert counts.get(path, 0) == 1, counts
    assert mask.dtype == torch.bool and mask.shape == x.shape and output.dtype == dtype
    keep = 1 - p
    expected = (x.float() * mask / (torch.tensor(keep, dtype=dtype).float() if path == "acl_op" else keep))
    rtol = 1e-5 if dtype == torch.float32 else 2e-3
    torch.testing.assert_close(output.float(), expected, rtol=rtol, atol=0)
    n = x.numel()
    assert abs(mask.float().mean().item() - keep) < 5 * math.sqrt(keep * p / n)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_dropout_edge_cases_follow_aten(path) -> None:
    x = torch.randn(4, 6, generator=torch.Generator().manual_seed(1))
    for p, train, out, kept in [(0.0, True, x, True), (1.0, True, torch.zeros_like(x), False),
                                (0.5, False, x, True), (0.5, None, None, None)]:
        output, mask, _ = _dropout(path, x, p, train)
        if out is None:  # train unset means training
            assert 0 < mask.sum() < mask.numel()
            continue
        torch.testing.assert_close(output, out)
        assert mask.dtype == torch.bool and bool(mask.all()) == kept and bool(mask.any()) == kept
    output, mask, _ = _dropout(path, torch.empty(0, 3), 0.5, True)
    assert output.shape == (0, 3) and mask.shape == (0, 3) and mask.dtype == torch.bool
    with pytest.raises(RuntimeError, match="native_dropout: dropout probability has to be between 0 and 1"):
        _dropout(path, x, 1.5, True)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_a_reseeded_generator_repeats_the_mask(path) -> None:
    x = torch.ones(1000)
    torch.npu.manual_seed(123)
    _, first, _ = _dropout(path, x, 0.5, True)
    _, second, _ = _dropout(path, x, 0.5, True)
    torch.npu.manual_seed(123)
    _, again, _ = _dropout(path, x, 0.5, True)
    assert torch.equal(first, again) and not torch.equal(first, second)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
def test_dropout_backward_is_cpus_on_both_paths(path, dtype) -> None:
    g = torch.Generator().manual_seed(3)
    grad = torch.randn(37, 29, generator=g).to(dtype)
    cases = [(grad, torch.rand(37, 29, generator=g) > 0.4, 1 / 0.6),
             (grad, torch.rand(29, generator=g) > 0.5, 1 / 0.7),          # a mask broadcast over the rows
             (grad[:1], torch.rand(37, 29, generator=g) > 0.5, 2.0),     # grad_output broadcast
             (grad, (torch.rand(37, 29, generator=g) > 0.5).to(dtype), 2.0),  # not a bool mask: mul and mul
             (grad[:0], torch.zeros(0, 29, dtype=torch.bool), 2.0)]
    backward = torch.ops.aten.native_dropout_backward
    for grad_output, mask, scale in cases:
        expected = backward(grad_output, mask, scale)
        actual = on_path(path, "native_dropout_backward",
                         lambda g=grad_output, m=mask, s=scale: backward(g.npu(), m.npu(), s))
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0)
