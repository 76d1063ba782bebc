"""torch.profiler shows the npu op ranges (NPURecordFunctionGuard) and, with
ProfilerActivity.PrivateUse1, the simulator's kernel executions as device activity."""

import json

import pytest
import torch
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile

import opplugin_runtime

requires_device_activity = pytest.mark.skipif(
    not opplugin_runtime._C.device_activity_available(),
    reason="device activity needs torch's PrivateUse1ProfilerRegistry (REGISTER_PRIVATEUSE1_PROFILER) and "
    "kineto headers, which this torch release does not ship (see NPU_HAS_PRIVATEUSE1_PROFILER in TorchCompat.h)",
)


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


def _run_ops():
    a, b = torch.randn(64), torch.randn(64)
    na, nb = a.npu(), b.npu()
    results = (torch.add(na, nb), torch.abs(na), torch.mul(na, nb))
    torch.testing.assert_close(results[0].cpu(), a + b)
    torch.testing.assert_close(results[1].cpu(), a.abs())
    torch.testing.assert_close(results[2].cpu(), a * b)


def _kernels(prof):
    return [e for e in prof.events() if e.device_type == DeviceType.PrivateUse1]


@requires_device_activity
def test_device_activity_shows_kernels_with_durations(tmp_path):
    _run_ops()  # warm-up outside the profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.PrivateUse1]) as prof:
        _run_ops()
    names = {e.name for e in prof.events()}
    assert {"npu::add.Tensor", "npu::abs", "npu::mul.Tensor"} <= names
    kernels = _kernels(prof)
    kernel_names = {e.name for e in kernels}
    assert {"add_custom", "abs_custom", "mul_custom"} <= kernel_names, kernel_names
    assert all(e.time_range.end > e.time_range.start for e in kernels)
    assert all(e.device_index == 0 for e in kernels)
    # each kernel is linked to the npu op that launched it
    ops_with_kernels = {e.name for e in prof.events() if e.device_type == DeviceType.CPU and e.kernels}
    assert {"npu::add.Tensor", "npu::abs", "npu::mul.Tensor"} <= ops_with_kernels, ops_with_kernels

    trace = tmp_path / "trace.json"
    prof.export_chrome_trace(str(trace))
    events = json.loads(trace.read_text())["traceEvents"]
    device_events = [e for e in events if e.get("cat") == "kernel"]
    assert {"add_custom", "abs_custom", "mul_custom"} <= {e["name"] for e in device_events}
    assert all(e["dur"] > 0 for e in device_events)
    add = next(e for e in device_events if e["name"] == "add_custom")
    assert add["args"]["origin"] == "aclnnAdd" and add["args"]["device"] == 0


@requires_device_activity
def test_device_activity_covers_acl_op_path(tmp_path):
    torch.npu.set_compile_mode(jit_compile=True)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.PrivateUse1]) as prof:
        _run_ops()
    trace = tmp_path / "trace.json"
    prof.export_chrome_trace(str(trace))
    kernels = [e for e in json.loads(trace.read_text())["traceEvents"] if e.get("cat") == "kernel"]
    origins = {e["args"]["origin"] for e in kernels}
    assert {"aclopCompileAndExecute(Add)", "aclopCompileAndExecute(Mul)"} <= origins, origins


@requires_device_activity
def test_no_device_activity_without_privateuse1():
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        _run_ops()
    assert "npu::add.Tensor" in {e.name for e in prof.events()}
    assert _kernels(prof) == []



def test_legacy_profiler_with_use_device_npu():
    # torch_npu's tests profile with torch.autograd.profiler.profile(use_device="npu"): that needs
    # the PrivateUse1 profiler stubs; without them every op's range raises in a callback.
    import subprocess
    import sys

    code = """
import torch, opplugin_runtime
a = torch.randn(16).npu()
with torch.autograd.profiler.profile(use_device="npu") as prof:
    b = torch.add(a, a)
print(sorted(e.key for e in prof.key_averages()))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Exception in RecordFunction callback" not in result.stderr, result.stderr
    assert "'npu::add.Tensor'" in result.stdout and "'aten::add'" in result.stdout
