"""Device selection: OptionalNPUGuard restores the previous device, the device count
is configurable (ASCEND_SIM_DEVICE_COUNT), device names and properties, and
torch.device("npu") wherever a device is accepted."""

from __future__ import annotations

import pytest
import torch

import opplugin_runtime

probe = opplugin_runtime._C._optional_guard_probe  # (device or -1, set_index or -1) -> (inside, after)


def test_optional_npu_guard_restores_the_previous_device():
    assert torch.npu.current_device() == 0
    assert probe(1, -1) == (1, 0)  # OptionalNPUGuard(1)
    assert probe(-1, -1) == (0, 0)  # an empty guard changes nothing
    assert probe(-1, 1) == (1, 0)  # an empty guard given a device later restores too
    with torch.npu.device(1):
        assert probe(0, -1) == (0, 1)
        assert probe(0, 1) == (1, 1)


def test_device_name_and_properties():
    props = torch.npu.get_device_properties("npu:1")
    assert props.name == torch.npu.get_device_name(1) == "Ascend910B1"
    assert props.total_memory == torch.npu.mem_get_info(1)[1] > 0
    assert props.multi_processor_count >= 1
    assert "Ascend910B1" in repr(props)


def test_torch_device_npu_everywhere(assert_same):
    dev = torch.device("npu")
    x = torch.ones(4, device=dev)
    assert x.device == torch.device("npu:0") and x.is_npu
    y = torch.arange(4.0).to(dev)
    assert_same(x + y, torch.ones(4) + torch.arange(4.0))
    assert torch.empty(2, device="npu:1").to(torch.device("npu", 0)).device == torch.device("npu:0")
    assert torch.zeros(3).npu(1).device == torch.device("npu:1")
    with torch.npu.device(torch.device("npu:1")):
        assert torch.npu.current_device() == 1
        assert torch.ones(1, device="npu").device == torch.device("npu:1")
    assert torch.npu.current_stream(torch.device("npu:1")).device == torch.device("npu:1")


@pytest.mark.parametrize("count", [1, 3])
def test_device_count_is_configurable(run_python, count):
    result = run_python(
        f"""
        import torch, opplugin_runtime
        assert torch.npu.device_count() == {count}, torch.npu.device_count()
        last = torch.ones(4, device="npu:{count - 1}") * 2
        assert last.device == torch.device("npu:{count - 1}") and last.cpu().eq(2).all()
        try:
            torch.empty(1, device="npu:{count}")
        except RuntimeError as error:
            assert "invalid npu device index" in str(error), error
        else:
            raise AssertionError("npu:{count} should not exist")
        print("ok")
        """,
        env={"ASCEND_SIM_DEVICE_COUNT": str(count)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
