"""Custom npu:: operators declared in yaml/ run end to end: schema in the dispatcher,
Python entry points (torch.ops.npu and the runtime package), the npu kernels, meta
kernels, autograd from derivatives.yaml, and functionalization under torch.compile."""

from __future__ import annotations

import inspect

import opplugin_runtime
import pytest
import torch


@pytest.fixture(autouse=True)
def _silent_fallback():
    mode = torch.npu.get_fallback_mode()
    torch.npu.set_fallback_mode("silent")  # the tests' own CPU comparisons use ops without npu kernels
    yield
    torch.npu.set_fallback_mode(mode)


def _reference(x: torch.Tensor, y: torch.Tensor, alpha=1) -> torch.Tensor:
    return torch.relu(x.cpu() + alpha * y.cpu())


def test_schemas_are_registered_with_alias_annotations_and_tags() -> None:
    dump = torch._C._dispatch_dump("npu::npu_add_relu_")
    assert "schema: npu::npu_add_relu_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)" in dump
    assert "PrivateUse1" in dump and "Meta" in dump and "Functionalize" in dump
    assert torch.ops.npu.npu_add_relu.out._schema.arguments[-1].alias_info.is_write
    if hasattr(torch.Tag, "pt2_compliant_tag"):  # absent on torch 2.1: registered without it there
        assert torch.Tag.pt2_compliant_tag in torch.ops.npu.npu_add_relu.default.tags
    assert "AutogradPrivateUse1" in torch._C._dispatch_dump("npu::npu_add_relu")
    assert torch.ops.npu.get_npu_format.default._schema.returns[0].type == torch.IntType.get()


def test_functional_inplace_and_out_match_cpu() -> None:
    x = torch.randn(3, 4).npu()
    y = torch.randn(4).npu()
    torch.testing.assert_close(torch.ops.npu.npu_add_relu(x, y, alpha=2).cpu(), _reference(x, y, 2))
    z = x.clone()
    assert torch.ops.npu.npu_add_relu_(z, y) is z
    torch.testing.assert_close(z.cpu(), _reference(x, y))
    out = torch.empty(0, device="npu")
    torch.ops.npu.npu_add_relu(x, y, out=out)
    torch.testing.assert_close(out.cpu(), _reference(x, y))
    ints = torch.tensor([-3, 1, 4]).npu()
    assert torch.ops.npu.npu_add_relu(ints, ints).cpu().tolist() == [0, 2, 8]


def test_errors_are_the_kernels_own() -> None:
    x = torch.randn(4).npu()
    with pytest.raises(RuntimeError, match="output with shape \\[4\\] doesn't match the broadcast shape \\[3, 4\\]"):
        torch.ops.npu.npu_add_relu_(x, torch.randn(3, 4).npu())
    with pytest.raises(RuntimeError, match="boolean inputs are not supported"):
        torch.ops.npu.npu_add_relu(x.bool(), x.bool())


def test_python_entry_points_in_the_runtime_package() -> None:
    from opplugin_runtime import custom_ops, npu_add_relu, npu_add_relu_

    assert set(custom_ops.__all__) <= set(opplugin_runtime.__all__)
    assert list(inspect.signature(npu_add_relu).parameters) == ["self", "other", "alpha", "out"]
    assert "npu::npu_add_relu(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor" in npu_add_relu.__doc__
    x, y = torch.randn(5).npu(), torch.randn(5).npu()
    torch.testing.assert_close(npu_add_relu(x, y).cpu(), _reference(x, y))
    out = torch.empty(5, device="npu")
    assert npu_add_relu(x, y, alpha=3, out=out) is out
    torch.testing.assert_close(out.cpu(), _reference(x, y, 3))
    torch.testing.assert_close(npu_add_relu_(x.clone(), y).cpu(), _reference(x, y))
    assert opplugin_runtime.get_npu_format(x) == 2  # ACL_FORMAT_ND


def test_meta_kernels_give_shape_and_dtype() -> None:
    x = torch.empty(2, 1, 3, device="meta", dtype=torch.float16)
    y = torch.empty(4, 1, device="meta", dtype=torch.float32)
    r = torch.ops.npu.npu_add_relu(x, y)
    assert r.shape == (2, 4, 3) and r.dtype == torch.float32 and r.device.type == "meta"


def test_gradcheck_in_double_precision() -> None:
    torch.manual_seed(0)
    # keep x + alpha * y away from 0, where relu has its kink
    x = torch.randn(3, 4, dtype=torch.float64)
    y = torch.randn(4, dtype=torch.float64)
    x = x + torch.where(x + 1.5 * y >= 0, 0.5, -0.5).to(x.dtype)
    a, b = x.npu().requires_grad_(), y.npu().requires_grad_()
    assert torch.autograd.gradcheck(lambda p, q: torch.ops.npu.npu_add_relu(p, q, alpha=1.5), (a, b))
    out = torch.ops.npu.npu_add_relu(a, b, alpha=1.5)
    assert "NpuAddReluBackward0" in out.grad_fn.name()


def test_backward_matches_cpu_relu() -> None:
    x = torch.randn(2, 3, requires_grad=True)
    y = torch.randn(3, requires_grad=True)
    xn = x.detach().npu().requires_grad_()
    yn = y.detach().npu().requires_grad_()
    torch.ops.npu.npu_add_relu(xn, yn, alpha=2).sum().backward()
    torch.relu(x + 2 * y).sum().backward()
    torch.testing.assert_close(xn.grad.cpu(), x.grad)
    torch.testing.assert_close(yn.grad.cpu(), y.grad)  # reduced over the broadcast dimension


def test_compile_traces_the_inplace_op_without_a_graph_break() -> None:
    def step(x, y):
        z = x * 2
        torch.ops.npu.npu_add_relu_(z, y, alpha=0.5)
        return z + 1

    x, y = torch.randn(3, 4).npu(), torch.randn(4).npu()
    graphs = []

    def backend(gm, example_inputs):
        from torch._dynamo.backends.common import aot_autograd

        def inspect_fw(fw, inputs):
            graphs.append(fw)
            return fw

        return aot_autograd(fw_compiler=inspect_fw)(gm, example_inputs)

    torch.testing.assert_close(torch.compile(step, backend="aot_eager", fullgraph=True)(x, y).cpu(), step(x, y).cpu())
    torch._dynamo.reset()
    torch.compile(step, backend=backend, fullgraph=True)(x, y)
    code = graphs[0].code
    assert "npu.npu_add_relu.default" in code and "npu_add_relu_" not in code  # functionalized


def test_compile_traces_the_out_variant() -> None:
    def step(x, y):
        out = torch.empty_like(x)
        torch.ops.npu.npu_add_relu.out(x, y, out=out)
        return out * 3

    x, y = torch.randn(2, 5).npu(), torch.randn(2, 5).npu()
    compiled = torch.compile(step, backend="aot_eager", fullgraph=True)
    torch.testing.assert_close(compiled(x, y).cpu(), step(x, y).cpu())
