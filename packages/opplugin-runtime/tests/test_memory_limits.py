"""The caching allocator's limits and raw blocks: the per-process memory fraction and
torch.npu.OutOfMemoryError, caching_allocator_alloc/delete, private pools (MemPool)."""

from __future__ import annotations

import ctypes
import gc
from pathlib import Path

import pytest
import torch

MiB = 1 << 20


@pytest.fixture
def acl():
    import ascendc_kernels

    lib = ctypes.CDLL(str(Path(ascendc_kernels.get_library_dir()) / "libascendcl.so"))
    lib.aclrtMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    lib.aclrtPointerGetDevice.argtypes = [ctypes.c_void_p]
    lib.aclrtPointerGetDevice.restype = ctypes.c_int32
    return lib


@pytest.fixture
def fraction_on_npu1():
    """Sets npu:1's memory fraction for a test and restores 1.0 after it."""
    torch.npu.synchronize(1)
    torch.npu.empty_cache()
    yield lambda fraction: torch.npu.set_per_process_memory_fraction(fraction, "npu:1")
    torch.npu.set_per_process_memory_fraction(1.0, 1)


def test_out_of_memory_error_is_torchs():
    assert torch.npu.OutOfMemoryError is torch.cuda.OutOfMemoryError
    if hasattr(torch, "OutOfMemoryError"):
        assert torch.npu.OutOfMemoryError is torch.OutOfMemoryError
    assert issubclass(torch.npu.OutOfMemoryError, RuntimeError)
    with pytest.raises(torch.npu.OutOfMemoryError, match="NPU out of memory"):
        torch.empty(1 << 40, dtype=torch.uint8, device="npu")


def test_memory_fraction_caps_what_the_allocator_reserves(fraction_on_npu1):
    total = torch.npu.get_device_properties(1).total_memory
    base = torch.npu.memory_reserved(1)
    fraction_on_npu1((base + 150 * MiB) / total)
    assert torch.npu.get_per_process_memory_fraction(1) == pytest.approx((base + 150 * MiB) / total)
    first = torch.empty(100 * MiB, dtype=torch.uint8, device="npu:1")
    ooms = torch.npu.memory_stats(1)["num_ooms"]
    with pytest.raises(torch.npu.OutOfMemoryError, match="memory fraction of npu:1"):
        torch.empty(100 * MiB, dtype=torch.uint8, device="npu:1")
    assert torch.npu.memory_stats(1)["num_ooms"] == ooms + 1
    assert torch.npu.memory_reserved(1) <= base + 150 * MiB
    small = torch.ones(10, device="npu:1")  # what fits still works
    assert small.sum().item() == 10
    del first
    second = torch.empty(100 * MiB, dtype=torch.uint8, device="npu:1")  # the cache goes back first
    assert second.numel() == 100 * MiB
    assert torch.npu.get_per_process_memory_fraction(0) == 1.0


def test_without_a_fraction_the_same_requests_fit(fraction_on_npu1):
    fraction_on_npu1(1.0)
    tensors = [torch.empty(100 * MiB, dtype=torch.uint8, device="npu:1") for _ in range(2)]
    assert torch.npu.memory_allocated(1) >= 200 * MiB
    del tensors


def test_memory_fraction_zero_refuses_every_new_segment(fraction_on_npu1):
    fraction_on_npu1(0.0)
    with pytest.raises(torch.npu.OutOfMemoryError):
        torch.empty(4 * MiB, dtype=torch.uint8, device="npu:1")


def test_memory_fraction_arguments():
    with pytest.raises(TypeError, match="must be a float"):
        torch.npu.set_per_process_memory_fraction(1)
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        torch.npu.set_per_process_memory_fraction(1.5)
    with pytest.raises(RuntimeError, match="set_per_process_memory_fraction"):
        torch.npu.set_per_process_memory_fraction(0.5, 9)


def test_caching_allocator_alloc_returns_device_memory_of_the_cache(acl):
    torch.npu.synchronize()
    before = torch.npu.memory_allocated()
    ptr = torch.npu.caching_allocator_alloc(MiB)
    assert ptr != 0 and ptr % 512 == 0
    assert acl.aclrtPointerGetDevice(ptr) == 0  # a real device allocation
    assert torch.npu.memory_allocated() - before == MiB
    blocks = [b for s in torch.npu.memory_snapshot() for b in s["blocks"] if b["address"] == ptr]
    assert [b["state"] for b in blocks] == ["active_allocated"]
    data = (ctypes.c_uint8 * 16)(*range(16))
    back = (ctypes.c_uint8 * 16)()
    assert acl.aclrtMemcpy(ptr, 16, data, 16, 1) == 0  # host to device
    assert acl.aclrtMemcpy(back, 16, ptr, 16, 2) == 0  # device to host
    assert list(back) == list(range(16))
    torch.npu.caching_allocator_delete(ptr)
    assert torch.npu.memory_allocated() == before
    with pytest.raises(RuntimeError, match=r"caching_allocator_delete: .* not allocated by caching_allocator_alloc"):
        torch.npu.caching_allocator_delete(ptr)


def test_caching_allocator_alloc_on_a_device_and_stream(acl):
    stream = torch.npu.Stream(device="npu:1")
    before = torch.npu.memory_allocated(1)
    ptr = torch.npu.caching_allocator_alloc(3 * MiB, device="npu:1", stream=stream)
    assert acl.aclrtPointerGetDevice(ptr) == 1
    assert torch.npu.memory_allocated(1) - before == 3 * MiB
    segment = next(s for s in torch.npu.memory_snapshot() if s["address"] <= ptr < s["address"] + s["total_size"])
    assert (segment["device"], segment["stream"]) == (1, stream.npu_stream)
    torch.npu.caching_allocator_delete(ptr)
    assert torch.npu.memory_allocated(1) == before
    assert torch.npu.caching_allocator_alloc(0) == 0
    torch.npu.caching_allocator_delete(0)
    with pytest.raises(RuntimeError, match=r"caching_allocator_alloc: stream is on npu:1"):
        torch.npu.caching_allocator_alloc(512, device=0, stream=stream)
    with pytest.raises(TypeError, match=r"torch\.npu\.Stream"):
        torch.npu.caching_allocator_alloc(512, stream=object())


def _release_garbage():
    """Frees what earlier tests left to the collector, so that a collection inside a test
    cannot return a segment reserved before it."""
    gc.collect()
    torch.npu.synchronize()
    torch.npu.empty_cache()


def _pool_segments(pool):
    return [s for s in torch.npu.memory_snapshot() if s["segment_pool_id"] == pool.id]


def test_mem_pool_routes_allocations_to_its_own_segments():
    pool = torch.npu.MemPool()
    assert pool.use_count() == 1
    with torch.npu.use_mem_pool(pool):
        assert pool.use_count() == 2
        inside = torch.empty(2 * MiB, dtype=torch.uint8, device="npu")
    outside = torch.empty(2 * MiB, dtype=torch.uint8, device="npu")
    assert pool.use_count() == 1
    addresses = [b["address"] for s in pool.snapshot() for b in s["blocks"] if b["state"] == "active_allocated"]
    assert addresses == [inside.data_ptr()]
    assert all(s["segment_pool_id"] == (0, 0) for s in torch.npu.memory_snapshot()
               if s["address"] <= outside.data_ptr() < s["address"] + s["total_size"])
    del inside, outside


def test_mem_pool_keeps_its_memory_until_it_is_deleted():
    _release_garbage()
    base = torch.npu.memory_reserved()
    pool = torch.npu.MemPool()
    with torch.npu.use_mem_pool(pool):
        x = torch.empty(8 * MiB, dtype=torch.uint8, device="npu")
    del x
    torch.npu.empty_cache()  # the pool's cached segment stays (a private pool keeps its memory)
    assert torch.npu.memory_reserved() - base == 8 * MiB
    assert [b["state"] for s in _pool_segments(pool) for b in s["blocks"]] == ["inactive"]
    y = torch.empty(8 * MiB, dtype=torch.uint8, device="npu")  # the default pool does not take it
    assert not any(s["address"] <= y.data_ptr() < s["address"] + s["total_size"] for s in _pool_segments(pool))
    del y
    del pool
    gc.collect()
    torch.npu.empty_cache()
    assert torch.npu.memory_reserved() == base


def test_mem_pool_segment_returns_when_its_last_block_is_freed_after_the_pool():
    _release_garbage()
    base = torch.npu.memory_reserved()
    pool = torch.npu.MemPool()
    with torch.npu.use_mem_pool(pool, device="npu:0"):
        x = torch.ones(4 * MiB, dtype=torch.uint8, device="npu")
    pool_id = pool.id
    del pool
    gc.collect()
    assert x.sum().item() == 4 * MiB  # still usable
    held = torch.npu.memory_reserved()
    assert held - base >= 4 * MiB
    del x
    assert held - torch.npu.memory_reserved() == 4 * MiB
    assert not [s for s in torch.npu.memory_snapshot() if s["segment_pool_id"] == pool_id]


def test_mem_pool_arguments():
    with pytest.raises(ValueError, match="allocator must be None"):
        torch.npu.MemPool(allocator=object())
    with pytest.raises(TypeError, match=r"torch\.npu\.MemPool"), torch.npu.use_mem_pool(object()):
        pass
