"""Memory history and snapshots (torch.npu.memory._record_memory_history, _snapshot,
_dump_snapshot, torch.npu.memory_snapshot), in torch.cuda's layout."""

from __future__ import annotations

import pickle

import pytest
import torch

MiB = 1 << 20


@pytest.fixture
def history():
    """Records for one test, from an empty trace; stops recording after it."""
    def start(**kwargs):
        torch.npu.memory._record_memory_history(clear_history=True, **kwargs)

    yield start
    torch.npu.memory._record_memory_history(None, clear_history=True)


def _trace(device: int = 0) -> list[dict]:
    return torch.npu.memory._snapshot()["device_traces"][device]


def _names(frames: list[dict]) -> list[str]:
    return [f["name"] for f in frames]


def test_trace_records_allocations_and_frees_with_python_frames(history):
    history(max_entries=1000)
    x = torch.empty(3 * MiB, dtype=torch.uint8, device="npu")
    ptr = x.data_ptr()
    del x
    events = [e for e in _trace() if e["addr"] == ptr]
    actions = [e["action"] for e in events]
    assert "alloc" in actions and actions.index("alloc") < actions.index("free_requested") < actions.index(
        "free_completed")
    alloc = events[actions.index("alloc")]
    assert alloc["size"] == 3 * MiB
    assert alloc["stream"] == torch.npu.current_stream().npu_stream
    assert alloc["time_us"] > 0
    frame = alloc["frames"][0]  # innermost first
    assert frame["name"] == "test_trace_records_allocations_and_frees_with_python_frames"
    assert frame["filename"] == __file__ and frame["line"] > 0
    assert "test_trace_records_allocations_and_frees_with_python_frames" in _names(
        events[actions.index("free_requested")]["frames"])


def test_segments_and_blocks_add_up_to_the_allocator_stats(history):
    history()
    torch.npu.synchronize()
    keep = torch.empty(5 * MiB + 100, dtype=torch.uint8, device="npu")
    segments = [s for s in torch.npu.memory_snapshot() if s["device"] == 0]
    assert sum(s["allocated_size"] for s in segments) == torch.npu.memory_allocated(0)
    assert sum(s["total_size"] for s in segments) == torch.npu.memory_reserved(0)
    for s in segments:
        assert s["total_size"] == sum(b["size"] for b in s["blocks"])
        assert s["segment_type"] in ("small", "large")
        assert {b["state"] for b in s["blocks"]} <= {"active_allocated", "active_pending_free", "inactive"}
    block = next(b for s in segments for b in s["blocks"] if b["address"] == keep.data_ptr())
    assert (block["state"], block["requested_size"]) == ("active_allocated", 5 * MiB + 100)
    assert block["size"] == (5 * MiB + 100 + 511) // 512 * 512
    assert block["frames"][0]["name"] == "test_segments_and_blocks_add_up_to_the_allocator_stats"
    del keep


def test_max_entries_keeps_the_newest_events(history):
    history(max_entries=4)
    tensors = [torch.empty(1000 + i, device="npu") for i in range(6)]
    trace = _trace()
    assert len(trace) == 4
    assert trace[-1]["addr"] == tensors[-1].data_ptr()
    assert [e["time_us"] for e in trace] == sorted(e["time_us"] for e in trace)


def test_state_mode_and_no_context(history):
    history(enabled="state")
    x = torch.empty(MiB, dtype=torch.uint8, device="npu")
    assert _trace() == []
    block = next(b for s in torch.npu.memory_snapshot() for b in s["blocks"] if b["address"] == x.data_ptr())
    assert block["frames"][0]["name"] == "test_state_mode_and_no_context"
    history(context=None)
    y = torch.empty(MiB, dtype=torch.uint8, device="npu")
    events = [e for e in _trace() if e["addr"] == y.data_ptr()]
    assert events and all(e["frames"] == [] for e in events)
    del x, y


def test_stopped_history_records_nothing_more(history):
    history()
    torch.npu.memory._record_memory_history(None)
    x = torch.empty(MiB, dtype=torch.uint8, device="npu")
    assert not [e for e in _trace() if e["addr"] == x.data_ptr()]
    block = next(b for s in torch.npu.memory_snapshot() for b in s["blocks"] if b["address"] == x.data_ptr())
    assert block["frames"] == []


def test_legacy_bool_form_and_bad_arguments(history):
    torch.npu.memory._record_memory_history(True)
    x = torch.empty(MiB, dtype=torch.uint8, device="npu")
    assert [e["action"] for e in _trace() if e["addr"] == x.data_ptr()][:1] == ["alloc"]
    with pytest.raises(RuntimeError, match="_record_memory_history: enabled must be"):
        torch.npu.memory._record_memory_history("sometimes")
    with pytest.raises(RuntimeError, match="_record_memory_history: stacks must be"):
        torch.npu.memory._record_memory_history(stacks="cpp")


def test_out_of_memory_is_in_the_trace(history):
    history()
    with pytest.raises(torch.npu.OutOfMemoryError):
        torch.empty(1 << 40, dtype=torch.uint8, device="npu")
    assert [e["size"] for e in _trace() if e["action"] == "oom"] == [1 << 40]


def test_dump_snapshot_pickles_the_snapshot(history, tmp_path):
    history()
    x = torch.empty(MiB, dtype=torch.uint8, device="npu:1")
    path = tmp_path / "snapshot.pickle"
    torch.npu.memory._dump_snapshot(str(path))
    with open(path, "rb") as f:
        loaded = pickle.load(f)
    assert set(loaded) == {"segments", "device_traces"}
    assert len(loaded["device_traces"]) == torch.npu.device_count()
    assert any(e["addr"] == x.data_ptr() and e["action"] == "alloc" for e in loaded["device_traces"][1])
    assert any(b["address"] == x.data_ptr() for s in loaded["segments"] if s["device"] == 1 for b in s["blocks"])
