"""The caching allocator: stats, reuse, empty_cache."""

import torch


def test_allocated_reserved_and_peak():
    torch.npu.synchronize()
    torch.npu.empty_cache()
    base = torch.npu.memory_allocated()
    x = torch.empty(1 << 20, device="npu")  # 4 MiB
    assert torch.npu.memory_allocated() - base >= 4 << 20
    assert torch.npu.memory_reserved() >= torch.npu.memory_allocated()
    peak = torch.npu.max_memory_allocated()
    del x
    assert torch.npu.memory_allocated() == base
    assert torch.npu.max_memory_allocated() == peak
    torch.npu.reset_peak_memory_stats()
    assert torch.npu.max_memory_allocated() == base


def test_blocks_are_reused_and_released():
    torch.npu.empty_cache()
    stats = torch.npu.memory_stats()
    baseline = torch.npu.memory_reserved()  # segments holding blocks other tests keep alive stay
    for _ in range(5):
        y = torch.ones(1000, device="npu") + 1
        del y
    after = torch.npu.memory_stats()
    assert after["num_cache_hits"] > stats["num_cache_hits"]
    assert after["reserved_bytes"] > after["allocated_bytes"]
    torch.npu.empty_cache()
    assert torch.npu.memory_reserved() == baseline


def test_per_device_stats():
    before = torch.npu.memory_allocated(1)
    z = torch.empty(1024, device="npu:1")
    assert torch.npu.memory_allocated("npu:1") >= before + 4096
    del z


def test_freed_blocks_return_to_their_stream_only():
    """Stream-ordered reuse: a block freed after use on a stream is handed out
    again only on that stream (whose queue orders the new user after the old).

    `keep` holds the start of x's segment, so the segment never becomes wholly
    free: a whole idle segment may move to another stream once its last use has
    completed, which would make the outcome depend on timing."""
    default = torch.npu.current_stream()
    side = torch.npu.Stream()
    torch.npu.set_stream(side)
    try:
        keep = torch.empty(4096, device="npu")
        x = torch.empty(4096, device="npu").fill_(1.0)
        ptr = x.data_ptr()
        del x
    finally:
        torch.npu.set_stream(default)
    y = torch.empty(4096, device="npu")
    assert y.data_ptr() != ptr
    torch.npu.set_stream(side)
    try:
        z = torch.empty(4096, device="npu")
        assert z.data_ptr() == ptr
    finally:
        torch.npu.set_stream(default)
    del y, z, keep
