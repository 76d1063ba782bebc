"""Reliability: a multi-threaded stress run over two streams on each of two devices
(results equal to CPU, no deadlock), and no allocator leak after 10,000 ops."""

from __future__ import annotations

import ast
import gc

import torch

STRESS = r"""
import faulthandler, sys, threading, time
import torch, opplugin_runtime

faulthandler.dump_traceback_later({watchdog}, exit=True)  # a deadlock fails with every thread's stack
THREADS, SECONDS = {threads}, {seconds}
errors, iterations = [], [0] * THREADS

def worker(tid):
    gen = torch.Generator().manual_seed(tid)
    streams = {{d: [torch.npu.Stream(d), torch.npu.Stream(d)] for d in (0, 1)}}
    deadline = time.monotonic() + SECONDS
    i = 0
    try:
        while time.monotonic() < deadline:
            dev, other = i % 2, 1 - i % 2
            first, second = streams[dev][i % 2], streams[dev][1 - i % 2]
            n = 1 + (i * 37 + tid * 101) % 5000
            a_cpu = torch.randn(n, generator=gen)
            b_cpu = torch.randn(n, generator=gen)
            with torch.npu.device(dev), torch.npu.stream(first):
                a = a_cpu.to(f"npu:{{dev}}")
                b = b_cpu.to(f"npu:{{dev}}")
                c = (a + b) * 2
                c.abs_()
                done = first.record_event()
            second.wait_event(done)
            with torch.npu.device(dev), torch.npu.stream(second):
                d = c * 3 - a
                c.record_stream(second)
            torch.npu.current_stream(dev).wait_stream(second)  # the copy below runs on the default stream
            moved = d.to(f"npu:{{other}}")          # cross-device copy
            with torch.npu.device(other):
                e = moved.abs() + 1
            c_ref = ((a_cpu + b_cpu) * 2).abs()
            torch.testing.assert_close(d.cpu(), c_ref * 3 - a_cpu)
            torch.testing.assert_close(e.cpu(), (c_ref * 3 - a_cpu).abs() + 1)
            i += 1
    except Exception as error:  # reported by the main thread
        errors.append(f"thread {{tid}} iteration {{i}}: {{error!r}}")
    iterations[tid] = i

threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
faulthandler.cancel_dump_traceback_later()
torch.npu.synchronize(0)
torch.npu.synchronize(1)
print("errors:", errors)
print("iterations:", iterations)
"""


def test_threads_streams_devices_stress(run_python):
    result = run_python(STRESS.format(threads=4, seconds=5, watchdog=90), timeout=150)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "errors: []", result.stdout
    counts = ast.literal_eval(lines[1].split(":", 1)[1].strip())
    assert len(counts) == 4 and all(count > 0 for count in counts), counts


def test_allocator_returns_to_baseline_after_10000_ops():
    gc.collect()  # npu tensors of earlier tests in this process must not die inside the measurement
    for device in (0, 1):
        torch.npu.synchronize(device)
    torch.npu.empty_cache()
    keys = ("allocated_bytes.all.current", "active_bytes.all.current", "allocation.all.current",
            "active.all.current", "requested_bytes.all.current", "reserved_bytes.all.current")
    before = {d: {k: torch.npu.memory_stats(d)[k] for k in keys} for d in (0, 1)}
    free_before = {d: torch.npu.mem_get_info(d)[0] for d in (0, 1)}
    side = torch.npu.Stream()
    x = torch.randn(3000)
    y = x.npu()
    ops = 0
    while ops < 10_000:
        z = (y + 1) * 0.5          # 2 ops, default stream
        side.wait_stream(torch.npu.current_stream())  # z is read on the side stream next
        with torch.npu.stream(side):
            w = z.abs()            # 1 op on another stream
            z.record_stream(side)
        torch.npu.current_stream().wait_stream(side)  # w is read by the default stream next
        v = w.to("npu:1")          # cross-device copy
        u = torch.empty(ops % 4096 + 1, device="npu:1")  # varied sizes
        ops += 4
        if ops % 2000 == 0:
            torch.testing.assert_close(v.cpu(), ((x + 1) * 0.5).abs())
    del x, y, z, w, v, u
    gc.collect()
    for device in (0, 1):
        torch.npu.synchronize(device)
    torch.npu.empty_cache()
    after = {d: {k: torch.npu.memory_stats(d)[k] for k in keys} for d in (0, 1)}
    assert after == before
    assert {d: torch.npu.mem_get_info(d)[0] for d in (0, 1)} == free_before
