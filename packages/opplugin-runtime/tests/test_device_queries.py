"""What torch.npu answers about its devices, as torch.cuda does: capability, bfloat16 and
TF32 support, peer access, utilization, memory in use, default generators, and the
memory API's nested and deprecated forms."""

from __future__ import annotations

import gc
import time
import warnings

import pytest
import torch

MiB = 1 << 20


def test_device_capability_is_none_unless_configured(monkeypatch):
    monkeypatch.delenv("TORCH_NPU_DEVICE_CAPABILITY", raising=False)
    assert torch.npu.get_device_capability() is None
    monkeypatch.setenv("TORCH_NPU_DEVICE_CAPABILITY", "8.0")
    assert torch.npu.get_device_capability("npu:1") == (8, 0)
    monkeypatch.setenv("TORCH_NPU_DEVICE_CAPABILITY", "eight")
    with pytest.warns(UserWarning, match="not 'major.minor'"):
        assert torch.npu.get_device_capability() is None
    with pytest.raises(ValueError, match="npu:7 does not exist"):
        torch.npu.get_device_capability(7)


def test_bf16_is_supported_and_computes():
    assert torch.npu.is_bf16_supported()
    a = torch.randn(64, dtype=torch.bfloat16)
    b = torch.randn(64, dtype=torch.bfloat16)
    torch.testing.assert_close((a.npu() + b.npu()).cpu(), a + b)
    assert not torch.npu.is_tf32_supported()
    assert torch.npu.has_half
    h = torch.ones(4, dtype=torch.half, device="npu")
    assert (h * 2).cpu().tolist() == [2.0] * 4


def test_peer_access_between_devices():
    assert torch.npu.can_device_access_peer(0, 1)
    assert torch.npu.can_device_access_peer("npu:1", torch.device("npu", 0))
    assert not torch.npu.can_device_access_peer(1, 1)  # as CUDA: a device is not its own peer
    with pytest.raises(ValueError, match="peer_device npu:5 does not exist"):
        torch.npu.can_device_access_peer(0, 5)
    x = torch.arange(8.0, device="npu:0")
    assert x.to("npu:1").cpu().tolist() == list(range(8))


def test_utilization_reflects_kernels_of_the_last_second():
    time.sleep(1.05)
    assert torch.npu.utilization(1) == 0
    a = torch.randn(256, 256, device="npu:1")
    start = time.monotonic()
    while time.monotonic() - start < 1.2:
        for _ in range(8):
            b = a @ a
        torch.npu.synchronize(1)
    busy = torch.npu.utilization("npu:1")
    assert 20 <= busy <= 100
    del b
    time.sleep(1.05)
    assert torch.npu.utilization(1) == 0


def test_device_memory_used_counts_the_devices_memory():
    free, total = torch.npu.mem_get_info(1)
    assert torch.npu.device_memory_used(1) == total - free
    torch.npu.synchronize(1)
    torch.npu.empty_cache()
    before, reserved = torch.npu.device_memory_used(1), torch.npu.memory_reserved(1)
    x = torch.empty(64 * MiB, dtype=torch.uint8, device="npu:1")
    # This process is the device's only user: what it uses more is what its allocator reserved more.
    assert torch.npu.device_memory_used(1) - before == torch.npu.memory_reserved(1) - reserved >= 64 * MiB
    del x


def test_no_stream_is_capturing():
    assert torch.npu.is_current_stream_capturing() is False


def test_default_generators_are_the_devices_generators():
    gens = torch.npu.default_generators
    assert len(gens) == torch.npu.device_count() and "default_generators" in dir(torch.npu)
    assert all(g is torch.npu.default_generator(i) or g.device == torch.device("npu", i) for i, g in enumerate(gens))
    gens[1].manual_seed(1234)
    first = torch.rand(8, device="npu:1").cpu()
    torch.npu.default_generators[1].manual_seed(1234)
    assert torch.equal(torch.rand(8, device="npu:1").cpu(), first)


def test_nested_stats_match_the_flat_ones():
    # Earlier tests' tensors that are still being collected or freed would change the counts
    # between the two readings: collect them and wait for the device first.
    gc.collect()
    torch.npu.synchronize()
    x = torch.empty(MiB, dtype=torch.uint8, device="npu")
    nested = torch.npu.memory_stats_as_nested_dict()
    assert nested["allocated_bytes"]["all"]["current"] == torch.npu.memory_allocated()
    assert nested["reserved_bytes"]["large_pool"]["peak"] == torch.npu.memory_stats()["reserved_bytes.large_pool.peak"]
    assert nested["num_ooms"] == torch.npu.memory_stats()["num_ooms"]
    del x


def test_deprecated_names_warn_and_answer():
    x = torch.empty(4 * MiB, dtype=torch.uint8, device="npu")
    with pytest.warns(FutureWarning):
        assert torch.npu.memory_cached() == torch.npu.memory_reserved()
    with pytest.warns(FutureWarning):
        assert torch.npu.max_memory_cached() == torch.npu.max_memory_reserved()
    del x
    assert torch.npu.max_memory_allocated() > torch.npu.memory_allocated()
    with pytest.warns(FutureWarning):
        torch.npu.reset_max_memory_allocated()
    assert torch.npu.max_memory_allocated() == torch.npu.memory_allocated()
    torch.npu.empty_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        torch.npu.reset_max_memory_cached()
    assert torch.npu.max_memory_reserved() == torch.npu.memory_reserved()
    assert torch.npu.get_allocator_backend() == "native"
