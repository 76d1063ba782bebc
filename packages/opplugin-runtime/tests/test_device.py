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


# Device-generic APIs that later torch releases added (feature-detected, not by version):
# torch.accelerator, torch.Event and torch.Stream(device=...) with query/synchronize/==
# are all absent on torch 2.1; torch.npu.Stream works everywhere.
HAS_ACCELERATOR = hasattr(torch, "accelerator")
HAS_GENERIC_EVENT = hasattr(torch, "Event")
HAS_GENERIC_STREAM = hasattr(torch.Stream, "synchronize")


def test_synchronize():
    x = torch.ones(1024, device="npu") + 1
    torch.npu.synchronize()
    assert x.sum().item() == 2048


@pytest.mark.skipif(not HAS_ACCELERATOR, reason="torch.accelerator is absent on this torch (2.1)")
def test_accelerator():
    x = torch.ones(1024, device="npu") + 1
    torch.accelerator.synchronize()
    assert torch.accelerator.current_accelerator() == torch.device("npu")
    assert x.sum().item() == 2048


def _streams_to_test():
    yield pytest.param(torch.npu.Stream, id="torch.npu.Stream")
    generic = pytest.mark.skipif(not HAS_GENERIC_STREAM, reason="torch.Stream has no device API on this torch (2.1)")
    yield pytest.param(lambda: torch.Stream(device="npu"), id="torch.Stream", marks=generic)


@pytest.mark.parametrize("new_stream", _streams_to_test())
def test_streams(new_stream):
    default = torch.npu.current_stream()
    assert default.device == torch.device("npu:0")
    assert default == torch.npu.default_stream()
    side = new_stream()
    assert side != default and side.device == torch.device("npu:0")
    torch.npu.set_stream(side)
    try:
        assert torch.npu.current_stream() == side
        y = torch.full((16,), 3.0, device="npu") * 2
        side.synchronize()
        assert side.query()
    finally:
        torch.npu.set_stream(default)
    torch.testing.assert_close(y.cpu(), torch.full((16,), 6.0))


def test_a_new_stream_on_another_device():
    side = torch.npu.Stream("npu:1")
    assert side.device == torch.device("npu:1") and side != torch.npu.current_stream(1)
    with torch.npu.device(1):
        torch.npu.set_stream(side)
        try:
            y = torch.ones(8, device="npu") + 1
            assert torch.npu.current_stream() == side
        finally:
            torch.npu.set_stream(torch.npu.default_stream(1))
    side.synchronize()
    assert side.query() and y.device == torch.device("npu:1")


@pytest.mark.skipif(not HAS_GENERIC_EVENT, reason="torch.Event is absent on this torch (2.1)")
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
    side = torch.npu.Stream()
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


def test_ops_with_only_an_npu_kernel_have_an_autograd_fallback():
    """torch 2.1 registers no AutogradPrivateUse1 fallback (later releases do); the runtime
    adds torch's own where it is missing, so PrivateUse1-only ops (custom npu:: ops, user
    extensions) can be called on npu tensors in every label."""
    assert torch._C._dispatch_has_backend_fallback(torch._C.DispatchKey.AutogradPrivateUse1)
    x = torch.ones(3, device="npu", requires_grad=True)
    assert torch.ops.npu.get_npu_format(x) == 2  # a runtime-owned npu:: op, no backward
