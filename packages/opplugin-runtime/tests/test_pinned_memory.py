"""Pinned host memory (the caching host allocator behind tensor.pin_memory()) and non_blocking
copies between pinned memory and the npu, which are queued on the stream instead of waited for.

torch.npu._sleep keeps the current stream busy, so a copy queued behind it has provably not run
when copy_ returns; an event recorded after the copy shows the same."""

from __future__ import annotations

import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset

# A stream held busy this long (ns) outlasts anything the host does meanwhile in these tests.
BUSY = 400_000_000
# torch >= 2.5 asks the accelerator hooks when pin_memory()/is_pinned() name no device; on torch
# 2.1, which defaults them to CUDA, the runtime makes the omitted device the npu (no CUDA here).
PIN_DEFAULTS_THROUGH_HOOKS = tuple(int(v) for v in torch.__version__.split(".")[:2]) >= (2, 5)


def pin(t: torch.Tensor) -> torch.Tensor:
    return t.pin_memory()


def pinned(t: torch.Tensor) -> bool:
    return t.is_pinned()


def test_pin_memory_copies_into_pinned_memory():
    t = torch.randn(64, 3)
    assert not pinned(t)
    p = pin(t)
    assert pinned(p) and pinned(p[5:]) and pinned(p.t())
    assert p.data_ptr() != t.data_ptr()
    torch.testing.assert_close(p, t, rtol=0, atol=0)
    assert pin(p).data_ptr() == p.data_ptr()  # already pinned: the same tensor
    assert not pinned(torch.empty(0))


@pytest.mark.skipif(not PIN_DEFAULTS_THROUGH_HOOKS,
                    reason="torch 2.1 takes the allocator of pin_memory=True factories from its CUDA hooks")
def test_empty_with_pin_memory_true_is_pinned():
    t = torch.empty(10, 10, pin_memory=True)
    assert t.is_pinned()
    t.fill_(3.0)
    torch.testing.assert_close(t.npu().cpu(), torch.full((10, 10), 3.0))


def test_non_blocking_host_to_device_from_pinned_memory_is_queued():
    src = pin(torch.ones(1 << 16))
    dst = torch.zeros(1 << 16, device="npu")
    torch.npu._sleep(BUSY)
    dst.copy_(src, non_blocking=True)
    after_copy = torch.npu.Event()
    after_copy.record()
    assert not after_copy.query()  # the host returned before the copy ran
    # The queued copy reads the source when the stream reaches it.
    src.fill_(2.0)
    after_copy.synchronize()
    torch.testing.assert_close(dst.cpu(), torch.full((1 << 16,), 2.0), rtol=0, atol=0)


def test_non_blocking_host_to_device_from_pageable_memory_waits():
    src = torch.ones(1 << 16)
    dst = torch.zeros(1 << 16, device="npu")
    torch.npu._sleep(BUSY)
    dst.copy_(src, non_blocking=True)
    src.fill_(2.0)  # pageable memory: already copied (after the queued work) when copy_ returned
    torch.testing.assert_close(dst.cpu(), torch.ones(1 << 16), rtol=0, atol=0)


def test_non_blocking_to_npu_with_conversion_and_strides():
    src = pin(torch.arange(48, dtype=torch.int32).reshape(6, 8))
    dst = torch.zeros(8, 6, device="npu").t()  # non-contiguous target, float
    torch.npu._sleep(BUSY)
    dst.copy_(src, non_blocking=True)
    moved = src.t().to("npu", non_blocking=True)
    torch.npu.synchronize()
    torch.testing.assert_close(dst.cpu(), src.float())
    torch.testing.assert_close(moved.cpu(), src.t())


def test_non_blocking_device_to_pinned_host_is_queued():
    x = torch.arange(4096, dtype=torch.float32, device="npu")
    out = pin(torch.zeros(4096))
    torch.npu._sleep(BUSY)
    out.copy_(x, non_blocking=True)
    after_copy = torch.npu.Event()
    after_copy.record()
    assert not after_copy.query()
    assert float(out.sum()) == 0.0  # not written yet
    after_copy.synchronize()
    torch.testing.assert_close(out, torch.arange(4096, dtype=torch.float32), rtol=0, atol=0)
    # Into pageable memory the copy is complete when copy_ returns.
    pageable = torch.zeros(4096)
    torch.npu._sleep(BUSY // 4)
    pageable.copy_(x, non_blocking=True)
    torch.testing.assert_close(pageable, torch.arange(4096, dtype=torch.float32), rtol=0, atol=0)


def test_freed_pinned_block_is_not_reused_before_its_copy_ran():
    n = 1 << 14
    src = pin(torch.ones(n))
    first_ptr = src.data_ptr()
    dst = torch.zeros(n, device="npu")
    torch.npu._sleep(BUSY)
    dst.copy_(src, non_blocking=True)
    del src  # the copy is still queued
    other = pin(torch.full((n,), 5.0))
    assert other.data_ptr() != first_ptr
    torch.npu.synchronize()
    torch.testing.assert_close(dst.cpu(), torch.ones(n), rtol=0, atol=0)
    # Once the copy has run, the block is cached for reuse.
    again = pin(torch.zeros(n))
    assert again.data_ptr() == first_ptr


def test_host_memory_stats_count_blocks_and_bytes():
    torch.npu.synchronize()
    torch.npu._host_empty_cache()
    torch.npu.reset_peak_host_memory_stats()
    before = torch.npu.host_memory_stats()
    p = pin(torch.zeros(300))  # 1200 bytes, rounded up to 2048
    held = torch.npu.host_memory_stats()
    assert held["active_requests.current"] == before["active_requests.current"] + 1
    assert held["active_bytes.current"] == before["active_bytes.current"] + 2048
    assert held["allocated_bytes.current"] == before["allocated_bytes.current"] + 2048
    assert held["num_host_alloc"] == before["num_host_alloc"] + 1
    assert held["host_alloc_time.count"] == held["num_host_alloc"]
    del p
    cached = torch.npu.host_memory_stats()
    assert cached["active_bytes.current"] == before["active_bytes.current"]
    assert cached["allocated_bytes.current"] == held["allocated_bytes.current"]  # kept in the cache
    assert cached["active_bytes.peak"] >= before["active_bytes.current"] + 2048
    q = pin(torch.zeros(400))  # the same rounded size: served from the cache
    assert torch.npu.host_memory_stats()["num_host_alloc"] == held["num_host_alloc"]
    del q
    torch.npu._host_empty_cache()
    emptied = torch.npu.host_memory_stats()
    assert emptied["allocated_bytes.current"] == before["allocated_bytes.current"]
    assert emptied["num_host_free"] >= before["num_host_free"] + 1
    nested = torch.npu.host_memory_stats_as_nested_dict()
    assert nested["allocations"]["current"] == emptied["allocations.current"]
    torch.npu.reset_accumulated_host_memory_stats()
    assert torch.npu.host_memory_stats()["num_host_alloc"] == 0


@pytest.mark.parametrize("num_workers", [0, 1])
def test_dataloader_with_pinned_memory_feeds_the_npu(num_workers: int):
    data = torch.randn(40, 5)
    labels = torch.arange(40)
    loader = DataLoader(TensorDataset(data, labels), batch_size=8, pin_memory=True, num_workers=num_workers)
    seen = []
    weight = torch.randn(5, 3)
    for x, y in loader:
        assert pinned(x) and pinned(y)
        out = x.to("npu", non_blocking=True) @ weight.npu()
        seen.append((out.cpu(), y.to("npu", non_blocking=True).cpu()))
    assert len(seen) == 5
    torch.testing.assert_close(torch.cat([o for o, _ in seen]), data @ weight)
    torch.testing.assert_close(torch.cat([y for _, y in seen]), labels)


def test_sleep_rejects_negative_cycles():
    with pytest.raises(RuntimeError, match=r"torch.npu._sleep: cycles must be non-negative"):
        torch.npu._sleep(-1)


@pytest.mark.skipif(PIN_DEFAULTS_THROUGH_HOOKS, reason="torch >= 2.5 deprecates the device argument of pin_memory")
def test_naming_the_device_pins_the_same_way():
    from opplugin_runtime.npu import pin_memory_default

    assert pin_memory_default.routed_by_device_argument()
    p = torch.arange(6.0).pin_memory("npu")
    assert p.is_pinned("npu") and p.is_pinned()
    torch.testing.assert_close(p, torch.arange(6.0), rtol=0, atol=0)


def test_pin_memory_of_an_npu_tensor_is_refused():
    with pytest.raises(RuntimeError, match="pin"):
        torch.ones(3, device="npu").pin_memory()
