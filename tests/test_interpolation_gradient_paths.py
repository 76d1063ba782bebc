"""The interpolation gradients on both paths: the gradient of each upsample operator for a random
grad_output, run once on op_api (jit_compile=False) and once on acl_op (jit_compile=True), equals CPU's, and
the backward operator took the path the run forced (the A/B test's OpInfo samples run forwards only). The
acl_op path's types that derive positions from the sizes refuse a scale factor that places them otherwise."""

from __future__ import annotations

from typing import Any

import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.nn.functional as F

# backward operator -> (input shape, interpolate's keyword arguments)
CASES: dict[str, tuple[tuple[int, ...], dict[str, Any]]] = {
    "upsample_nearest1d_backward.grad_input": ((2, 3, 5), {"size": 9}),
    "upsample_nearest2d_backward.grad_input": ((2, 3, 4, 5), {"size": (7, 3)}),
    "upsample_nearest3d_backward.grad_input": ((2, 3, 3, 4, 5), {"scale_factor": 2}),
    "upsample_linear1d_backward.grad_input": ((2, 3, 5), {"scale_factor": 1.7, "mode": "linear"}),
    "upsample_bilinear2d_backward.grad_input": ((2, 3, 4, 5), {"size": (7, 3), "mode": "bilinear"}),
    "upsample_bicubic2d_backward.grad_input": ((2, 3, 4, 5), {"scale_factor": 0.6, "mode": "bicubic",
                                                              "align_corners": True}),
    "upsample_trilinear3d_backward.grad_input": ((2, 3, 3, 4, 5), {"size": (5, 7, 3), "mode": "trilinear"}),
}


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("backward", sorted(CASES))
def test_interpolation_gradient_on_each_path_equals_cpus(backward: str, path: str) -> None:
    shape, kwargs = CASES[backward]
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(shape, generator=generator)
    leaf = x.clone().requires_grad_()
    out = F.interpolate(leaf, **kwargs)
    grad_output = torch.randn(out.shape, generator=generator)
    out.backward(grad_output)
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        npu_leaf = x.npu().requires_grad_()
        npu_out = F.interpolate(npu_leaf, **kwargs)
        npu_out.backward(grad_output.npu())
        counts = torch.npu.path_ledger().get(backward, {})
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
    assert counts.get(path, 0) >= 1, f"{backward}: expected the {path} path, ledger: {counts}"
    torch.testing.assert_close(npu_out.detach().cpu(), out.detach())
    torch.testing.assert_close(npu_leaf.grad.cpu(), leaf.grad)


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "trilinear"])
def test_size_derived_types_refuse_scales_that_place_positions_otherwise(mode: str) -> None:
    x = torch.randn((2, 3, 4, 4) if mode != "trilinear" else (2, 3, 4, 4, 4)).npu()
    torch.npu.set_compile_mode(jit_compile=True)
    try:
        with pytest.raises(RuntimeError, match="derives them from the sizes alone"):
            F.interpolate(x, scale_factor=1.7, mode=mode)
        F.interpolate(x, scale_factor=1.7, mode=mode, recompute_scale_factor=True)  # no scales: expressible
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
