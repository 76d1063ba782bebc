"""torch.profiler shows the npu op ranges (NPURecordFunctionGuard)."""

import json

import torch
from torch.profiler import ProfilerActivity, profile


def test_profiler_records_npu_ops(tmp_path):
    a, b = torch.randn(8).npu(), torch.randn(8).npu()
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        _ = torch.add(a, b)
        _ = torch.abs(a)
    names = {event.name for event in prof.events()}
    assert {"npu::add.Tensor", "npu::abs", "aten::add"} <= names  # aten::add: the dispatcher's own range
    trace = tmp_path / "trace.json"
    prof.export_chrome_trace(str(trace))
    trace_names = {event.get("name") for event in json.loads(trace.read_text())["traceEvents"]}
    assert "npu::add.Tensor" in trace_names
