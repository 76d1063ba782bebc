"""Devices, streams and events: what a user of torch.npu / torch.accelerator can do."""

import pytest
import torch


def test_device_module_registered():
    assert torch._C._get_privateuse1_backend_name() == "npu"
    assert torch.npu.is_available()
    assert torch.npu.device_count() >= 2
    assert torch.Tensor.is_npu is not None and torch.ones(1, device="npu").is_npu


def test_set_device_and_context_manager():
    assert torch.npu.current_device() == 0
    with torch.npu.device(1):
        assert torch.npu.current_device() == 1
        assert torch.empty(2, device="npu").device == torch.device("npu:1")
    assert torch.npu.current_device() == 0
    torch.npu.set_device("npu:1")
    try:
        assert torch.npu.current_device() == 1
    finally:
        torch.npu.set_device(0)


def test_invalid_device_index_is_rejected():
    with pytest.raises(RuntimeError, match="invalid npu device index"):
        torch.empty(1, device=f"npu:{torch.npu.device_count()}")


def test_synchronize_and_accelerator():
    x = torch.ones(1024, device="npu") + 1
    torch.npu.synchronize()
    torch.accelerator.synchronize()
    assert torch.accelerator.current_accelerator() == torch.device("npu")
    assert x.sum().item() == 2048


def test_streams():
    default = torch.npu.current_stream()
    assert default.device == torch.device("npu:0")
    assert default == torch.npu.default_stream()
    side = torch.Stream(device="npu")
    assert side != default
    torch.npu.set_stream(side)
    try:
        assert torch.npu.current_stream() == side
        y = torch.full((16,), 3.0, device="npu") * 2
        side.synchronize()
        assert side.query()
    finally:
        torch.npu.set_stream(default)
    torch.testing.assert_close(y.cpu(), torch.full((16,), 6.0))


def test_events_order_streams_and_time():
    start = torch.Event(device="npu", enable_timing=True)
    end = torch.Event(device="npu", enable_timing=True)
    start.record()
    x = torch.ones(1 << 16, device="npu")
    for _ in range(3):
        x = x + 1
    end.record()
    end.synchronize()
    assert end.query()
    assert start.elapsed_time(end) >= 0.0
    side = torch.Stream(device="npu")
    side.wait_event(end)
    side.synchronize()
    assert x[0].item() == 4.0


def test_build_info_matches_the_running_torch():
    import os

    import opplugin_runtime
    from opplugin_runtime import _build_info

    assert tuple(_build_info.TORCH_MAJOR_MINOR) == tuple(int(x) for x in torch.__version__.split(".")[:2])
    label = os.environ.get("NPU_TEST_LABEL")
    if label:
        assert label == _build_info.LABEL
    assert opplugin_runtime._C.torch_version_minor == _build_info.TORCH_MAJOR_MINOR[1]
