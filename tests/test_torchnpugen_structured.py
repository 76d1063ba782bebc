"""The structured group declared in yaml/ (clamp_min.out structured, clamp_min through
structured_delegate, clamp_min_ with its own in-place kernel) behaves like PyTorch's
CPU kernels: PyTorch's meta function decides shapes, dtypes and errors."""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True)
def _silent_fallback():
    mode = torch.npu.get_fallback_mode()
    torch.npu.set_fallback_mode("silent")
    yield
    torch.npu.set_fallback_mode(mode)


def _has_npu_kernel(op: str) -> bool:
    return torch._C._dispatch_has_kernel_for_dispatch_key(op, "PrivateUse1")


def test_the_group_is_registered_on_npu() -> None:
    for op in ("aten::clamp_min", "aten::clamp_min.out", "aten::clamp_min_"):
        assert _has_npu_kernel(op), op
    # a member of a declared structured group (eq.Tensor_out) that the YAML does not declare
    assert not _has_npu_kernel("aten::eq_.Tensor")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int32, torch.int64])
def test_functional_matches_cpu(dtype) -> None:
    x = (torch.randn(4, 5) * 10).to(dtype)
    torch.testing.assert_close(torch.clamp_min(x.npu(), 1).cpu(), torch.clamp_min(x, 1))


def test_nan_propagates_and_integral_input_promotes() -> None:
    x = torch.tensor([float("nan"), -1.0, 2.0])
    assert torch.clamp_min(x.npu(), 0).cpu().isnan()[0]
    ints = torch.tensor([-2, 0, 3])
    result = torch.clamp_min(ints.npu(), 0.5)  # meta: result_type(int, float) is float
    assert result.dtype == torch.float32
    torch.testing.assert_close(result.cpu(), torch.clamp_min(ints, 0.5))


def test_out_variant_resizes_and_checks_like_cpu() -> None:
    x = torch.randn(3, 4)
    out = torch.empty(0, device="npu")
    assert torch.clamp_min(x.npu(), 0.2, out=out) is out
    torch.testing.assert_close(out.cpu(), torch.clamp_min(x, 0.2))
    strided = torch.empty(4, 3, device="npu").t()  # not the meta function's strides: a proxy, copied back
    torch.clamp_min(x.npu(), 0.2, out=strided)
    torch.testing.assert_close(strided.cpu(), torch.clamp_min(x, 0.2))
    with pytest.raises(RuntimeError, match="Found dtype Long but expected Float"):  # CPU's message
        torch.clamp_min(x.npu(), 0.2, out=torch.empty(3, 4, dtype=torch.int64, device="npu"))


def test_inplace_uses_its_own_kernel_after_the_meta_function() -> None:
    torch.npu.reset_path_ledger()
    x = torch.randn(6)
    y = x.npu()
    assert y.clamp_min_(0.1) is y
    torch.testing.assert_close(y.cpu(), x.clamp_min(0.1))
    ledger = torch.npu.path_ledger()
    assert ledger["clamp_min_"]["op_api"] == 1 and "clamp_min.out" not in ledger
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.tensor([1, 2]).npu().clamp_min_(0.5)  # the meta function's check


def test_outputs_land_on_the_inputs_device() -> None:
    if torch.npu.device_count() < 2:
        pytest.skip("needs two simulated devices")
    x = torch.randn(3, device="npu:1")
    assert torch.clamp_min(x, 0).device == x.device
    assert torch.npu.current_device() == 0  # the structured class's guard restored the device


def test_a_structured_op_with_symint_array_arguments_forwards_them_to_its_kernel() -> None:
    # upsample_nearest2d.out takes SymInt[2] output_size: impl() sees at::ArrayRef<int64_t>,
    # the op-plugin kernel at::IntArrayRef.
    assert _has_npu_kernel("aten::upsample_nearest2d.out")
    x = torch.arange(6.0).reshape(1, 1, 2, 3)
    torch.npu.set_fallback_mode("error")
    got = torch.nn.functional.interpolate(x.npu(), size=(3, 5), mode="nearest")
    torch.testing.assert_close(got.cpu(), torch.nn.functional.interpolate(x, size=(3, 5), mode="nearest"))
