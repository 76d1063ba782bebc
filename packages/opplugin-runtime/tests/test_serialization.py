"""torch.save / torch.load / copy.deepcopy of npu tensors, compared with the same on CPU."""

from __future__ import annotations

import copy
import io

import pytest
import torch

NZ = 29  # aclFormat FRACTAL_NZ
HD5 = 3  # aclFormat NC1HWC0


def roundtrip(obj: object, **load_kwargs: object) -> object:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer, **load_kwargs)


@pytest.mark.parametrize("device", ["npu:0", "npu:1"])
def test_npu_tensor_loads_back_on_its_device(device: str) -> None:
    cpu = torch.randn(5, 7)
    loaded = roundtrip(cpu.to(device))
    assert loaded.device == torch.device(device)
    assert torch.equal(loaded.cpu(), cpu)


@pytest.mark.parametrize(
    ("map_location", "expected"),
    [("cpu", "cpu"), ("npu:1", "npu:1"), ({"npu:0": "npu:1"}, "npu:1"), (torch.device("npu", 1), "npu:1")],
)
def test_map_location(map_location: object, expected: str) -> None:
    cpu = torch.arange(12.0).reshape(3, 4)
    loaded = roundtrip(cpu.to("npu:0"), map_location=map_location)
    assert loaded.device == torch.device(expected)
    assert torch.equal(loaded.cpu(), cpu)


def test_cpu_checkpoint_loads_onto_npu() -> None:
    cpu = torch.randn(4, 4)
    loaded = roundtrip(cpu, map_location="npu")
    assert loaded.device.type == "npu"
    assert torch.equal(loaded.cpu(), cpu)


def test_views_keep_sharing_their_storage() -> None:
    base = torch.arange(10.0).npu()
    a, b = roundtrip([base, base[2:6]])
    assert b.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()
    a.add_(1)
    assert torch.equal(b.cpu(), torch.arange(10.0)[2:6] + 1)


def test_module_state_dict_roundtrip() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(6, 3)
    reference = model(torch.ones(2, 6))
    state = roundtrip(model.npu().state_dict())
    assert all(t.device.type == "npu" for t in state.values())
    restored = torch.nn.Linear(6, 3)
    restored.load_state_dict({k: v.cpu() for k, v in state.items()})
    assert torch.equal(restored(torch.ones(2, 6)), reference)


@pytest.mark.parametrize(("fmt", "shape"), [(NZ, (20, 37)), (NZ, (3, 17, 33)), (HD5, (2, 19, 5, 3))])
def test_internal_format_tensor_saves_its_values(fmt: int, shape: tuple[int, ...]) -> None:
    cpu = torch.randn(shape)
    tensor = torch.npu.npu_format_cast(cpu.npu(), fmt)
    assert torch.npu.get_npu_format(tensor) == fmt
    on_cpu = roundtrip(tensor, map_location="cpu")
    assert on_cpu.device.type == "cpu" and torch.equal(on_cpu, cpu)
    on_npu = roundtrip(tensor)
    assert torch.npu.get_npu_format(on_npu) == fmt  # the format comes back too
    assert torch.equal(on_npu.cpu(), cpu)
    assert torch.npu.get_npu_format(tensor) == fmt  # saving left the original alone


@pytest.mark.skipif(
    not hasattr(torch.serialization, "add_safe_globals"), reason="torch < 2.4: no weights_only allow-list"
)
def test_internal_format_tensor_loads_with_weights_only() -> None:
    cpu = torch.randn(17, 20)
    loaded = roundtrip(torch.npu.npu_format_cast(cpu.npu(), NZ), weights_only=True)
    assert torch.npu.get_npu_format(loaded) == NZ and torch.equal(loaded.cpu(), cpu)


def test_internal_format_parameter_in_a_state_dict() -> None:
    model = torch.nn.Linear(40, 24).npu()
    expected = model.weight.detach().cpu().clone()
    model.weight.data = torch.npu.npu_format_cast(model.weight.data, NZ)
    state = roundtrip(model.state_dict(), map_location="cpu")
    assert torch.equal(state["weight"], expected)


def test_deepcopy_of_internal_format_tensor() -> None:
    cpu = torch.randn(18, 33)
    tensor = torch.npu.npu_format_cast(cpu.npu(), NZ).requires_grad_()
    copied = copy.deepcopy(tensor)
    assert copied is not tensor and copied.requires_grad
    assert torch.npu.get_npu_format(copied) == NZ
    assert torch.equal(copied.detach().cpu(), cpu)
    assert copied.untyped_storage().data_ptr() != tensor.untyped_storage().data_ptr()


def test_deepcopy_of_module_with_internal_format_weight() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(33, 18).npu()
    expected = model.weight.detach().cpu().clone()
    model.weight.data = torch.npu.npu_format_cast(model.weight.data, NZ)
    clone = copy.deepcopy(model)
    assert torch.equal(clone.weight.detach().cpu(), expected)
