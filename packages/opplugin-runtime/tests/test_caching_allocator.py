"""The caching allocator: block splitting and merging, torch.cuda-style statistics,
out-of-memory handling (retry after freeing the cache, then torch.OutOfMemoryError)."""

from __future__ import annotations

import pytest
import torch

MiB = 1 << 20


def _floats(nbytes: int) -> int:
    return nbytes // 4


@pytest.fixture(autouse=True)
def _clean_cache():
    torch.npu.synchronize()
    torch.npu.empty_cache()
    yield
    torch.npu.synchronize()
    torch.npu.empty_cache()


def test_large_blocks_are_split_and_merged_again():
    stats = torch.npu.memory_stats
    a = torch.empty(_floats(8 * MiB), device="npu")
    base = a.data_ptr()
    mallocs = stats()["num_device_alloc"]
    reserved = torch.npu.memory_reserved()
    del a
    b = torch.empty(_floats(6 * MiB), device="npu")  # the front of the cached 8 MiB block
    c = torch.empty(_floats(2 * MiB), device="npu")  # the remainder
    assert b.data_ptr() == base
    assert c.data_ptr() == base + 6 * MiB
    assert stats()["num_device_alloc"] == mallocs and torch.npu.memory_reserved() == reserved
    b.fill_(1.0)
    c.fill_(2.0)
    torch.testing.assert_close(b[:4].cpu(), torch.ones(4))
    torch.testing.assert_close(c[-4:].cpu(), torch.full((4,), 2.0))
    del b, c  # the three pieces merge back into one 8 MiB block
    d = torch.empty(_floats(8 * MiB), device="npu")
    assert d.data_ptr() == base
    assert stats()["num_device_alloc"] == mallocs
    del d
    torch.npu.empty_cache()  # a whole free segment again: returned to the device
    assert torch.npu.memory_reserved() == reserved - 8 * MiB


def test_small_requests_share_one_segment():
    before = torch.npu.memory_stats()
    tensors = [torch.full((1000,), float(i), device="npu") for i in range(16)]
    after = torch.npu.memory_stats()
    assert after["segment.small_pool.current"] - before["segment.small_pool.current"] == 1
    assert after["reserved_bytes.small_pool.current"] - before["reserved_bytes.small_pool.current"] == MiB
    ptrs = sorted(t.data_ptr() for t in tensors)
    assert ptrs[-1] - ptrs[0] < MiB
    for i, t in enumerate(tensors):
        torch.testing.assert_close(t.cpu(), torch.full((1000,), float(i)))


def test_a_miss_returns_idle_free_segments_of_both_pools():
    """Freed segments whose last use has completed go back to the device before a new
    segment is allocated, so the pools do not each keep their own peak."""
    small = [torch.full((_floats(256 << 10),), 1.0, device="npu") for _ in range(8)]  # two 1 MiB segments
    large = torch.full((_floats(3 * MiB),), 2.0, device="npu")
    assert torch.npu.memory_reserved() == 5 * MiB
    del small, large
    torch.npu.synchronize()  # their last uses have completed
    frees = torch.npu.memory_stats()["num_device_free"]
    big = torch.full((_floats(8 * MiB),), 3.0, device="npu")  # fits in no cached block
    assert torch.npu.memory_reserved() == 8 * MiB
    assert torch.npu.memory_stats()["num_device_free"] == frees + 3
    torch.testing.assert_close(big[-4:].cpu(), torch.full((4,), 3.0))


def test_a_whole_free_segment_is_not_carved_for_a_much_smaller_request():
    a = torch.empty(_floats(8 * MiB), device="npu")
    del a
    torch.npu.synchronize()
    b = torch.ones(_floats(2 * MiB), device="npu")  # 6 MiB would be left: its own segment instead
    assert torch.npu.memory_reserved() == 2 * MiB  # the idle 8 MiB segment was returned
    assert torch.npu.memory_stats()["segment.large_pool.current"] == 1
    torch.testing.assert_close(b[:4].cpu(), torch.ones(4))


def test_stats_have_the_torch_cuda_keys():
    base = torch.npu.memory_stats()
    x = torch.empty(1000, device="npu")  # 4000 bytes requested, 4096 allocated (512-byte rounding)
    s = torch.npu.memory_stats()
    for key in ("allocated_bytes.all.current", "reserved_bytes.all.peak", "active_bytes.large_pool.current",
                "requested_bytes.small_pool.current", "segment.all.current", "allocation.all.allocated",
                "num_alloc_retries", "num_ooms"):
        assert key in s, key
    assert s["requested_bytes.all.current"] - base["requested_bytes.all.current"] == 4000
    assert s["allocated_bytes.all.current"] - base["allocated_bytes.all.current"] == 4096
    assert s["allocation.all.current"] - base["allocation.all.current"] == 1
    assert torch.npu.memory_allocated() == s["allocated_bytes.all.current"]
    assert torch.npu.max_memory_reserved() == s["reserved_bytes.all.peak"]
    del x
    assert torch.npu.memory_stats()["allocation.all.freed"] == s["allocation.all.freed"] + 1
    torch.npu.reset_accumulated_memory_stats()
    assert torch.npu.memory_stats()["allocation.all.allocated"] == 0


def test_peak_and_reset():
    torch.npu.reset_peak_memory_stats()
    base = torch.npu.memory_allocated()
    x = torch.empty(_floats(6 * MiB), device="npu")
    del x
    assert torch.npu.max_memory_allocated() == base + 6 * MiB
    torch.npu.reset_peak_memory_stats()
    assert torch.npu.max_memory_allocated() == base


def test_mem_get_info_and_summary():
    free, total = torch.npu.mem_get_info()
    assert total == torch.npu.get_device_properties(0).total_memory
    x = torch.empty(_floats(10 * MiB), device="npu")
    free_after, _ = torch.npu.mem_get_info()
    assert free - free_after == 10 * MiB
    assert free_after <= total - torch.npu.memory_reserved()
    summary = torch.npu.memory_summary()
    assert "Allocated memory" in summary and "Reserved memory" in summary
    del x


def test_out_of_memory_retries_then_raises(run_python):
    """On a 64 MiB device: a request that fits only after the cache (of the other
    pool) is returned succeeds (one retry); one that cannot fit raises torch.OutOfMemoryError naming
    the size, the device and the free memory."""
    result = run_python(
        """
        import ctypes, torch, opplugin_runtime, ascendc_kernels
        oom_error = getattr(torch, "OutOfMemoryError", None) or torch.cuda.OutOfMemoryError
        MiB = 1 << 20
        small = [torch.empty(MiB // 4, device="npu") for _ in range(24)]  # 24 segments of 1 MiB
        # Keep the stream busy for a while (a host callback sleeping 1.5 s), so that the
        # freed segments' last use is not complete at the next miss: only the retry,
        # which synchronizes the device, may return them.
        acl = ctypes.CDLL(ascendc_kernels.library_path("ascendcl"))
        callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
        acl.aclrtLaunchCallback.argtypes = [callback, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
        usleep = ctypes.cast(ctypes.CDLL(None).usleep, callback)
        stream = ctypes.c_void_p(torch.npu.current_stream().npu_stream)
        assert acl.aclrtLaunchCallback(usleep, ctypes.c_void_p(1500000), 0, stream) == 0
        del small                               # cached, not returned
        assert torch.npu.memory_reserved() == 24 * MiB
        b = torch.ones(48 * MiB // 4, device="npu")  # fits only once the small pool's cache is gone
        stats = torch.npu.memory_stats()
        assert stats["num_alloc_retries"] == 1, stats["num_alloc_retries"]
        assert stats["num_ooms"] == 0
        assert torch.npu.memory_reserved() == 48 * MiB
        try:
            torch.empty(100 * MiB // 4, device="npu")
        except oom_error as error:
            message = str(error)
        else:
            raise AssertionError("no out-of-memory error")
        assert torch.npu.memory_stats()["num_ooms"] == 1
        assert b.sum().item() == 48 * MiB // 4  # the device still works
        print(message)
        """,
        env={"ASCEND_SIM_MEMORY_MB": "64"},
    )
    assert result.returncode == 0, result.stderr
    message = result.stdout
    assert "Tried to allocate 100.00 MiB (104857600 bytes) on npu:0" in message
    assert "total capacity of 64.00 MiB" in message
    assert "16.00 MiB (16777216 bytes) is free" in message
    assert "48.00 MiB is allocated by tensors" in message
