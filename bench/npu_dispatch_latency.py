"""Per-op latency of a 1-element ``torch.add`` and ``torch.abs`` on npu vs CPU eager.

Measured in one process, each figure the median of --rounds rounds of --iters calls
(after a warm-up), per call in microseconds. The npu time includes queueing the
kernel on the stream; every round ends with ``torch.npu.synchronize()`` so that
queued kernels are paid for inside the round (the device stays asynchronous: the
caller does not wait per op).

Configurations, npu and CPU alike:

* hooks off:   no op hook, no profiler (the target: npu / cpu <= 2.0x)
* op hook:     one ``torch.npu.register_op_hook(pre, post)`` with empty Python hooks
               (npu only: CPU ops have no op hooks, so its CPU column is the hooks-off one)
* profiler:    inside ``torch.profiler.profile(activities=[CPU])`` (npu also with
               PrivateUse1, which records the simulator's kernel executions)

Nothing is asserted; ratios are printed.

    build/venvs/v2.13/bin/python bench/npu_dispatch_latency.py [--iters 20000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from typing import Callable, Iterator

os.environ.setdefault("KINETO_LOG_LEVEL", "5")  # no kineto INFO lines between the rows

import opplugin_runtime  # noqa: F401  (registers torch.npu)
import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

TARGET = 2.0


def _time_per_call(fn: Callable[[], object], iters: int, rounds: int, sync: Callable[[], None]) -> float:
    for _ in range(max(iters // 10, 100)):
        fn()
    sync()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iters):
            fn()
        sync()
        samples.append((time.perf_counter() - start) / iters * 1e6)
    return statistics.median(samples)


@contextlib.contextmanager
def _op_hook() -> Iterator[None]:
    with torch.npu.register_op_hook(pre=lambda op, args: None, post=lambda op, result: None):
        yield


@contextlib.contextmanager
def _profiler(activities: list[ProfilerActivity]) -> Iterator[None]:
    with profile(activities=activities):
        yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=20000, help="calls per round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds (the median is reported)")
    args = parser.parse_args()

    npu = {"a": torch.ones(1, device="npu"), "b": torch.ones(1, device="npu")}
    cpu = {"a": torch.ones(1), "b": torch.ones(1)}
    ops: dict[str, Callable[[dict[str, torch.Tensor]], object]] = {
        "add": lambda t: torch.add(t["a"], t["b"]),
        "abs": lambda t: torch.abs(t["a"]),
    }
    profiler_iters = max(args.iters // 10, 200)  # the profiler keeps every event in memory

    def nop() -> None:
        return None

    def measure(tensors: dict[str, torch.Tensor], op: str, sync: Callable[[], None], iters: int) -> float:
        fn = ops[op]
        return _time_per_call(lambda: fn(tensors), iters, args.rounds, sync)

    npu_sync = torch.npu.synchronize
    print(f"torch {torch.__version__}; per call in us, median of {args.rounds} rounds")
    print(f"{'op':<5} {'configuration':<28} {'npu us':>8} {'cpu us':>8} {'npu/cpu':>8}")
    worst = 0.0
    for op in ops:
        rows = []
        base_npu = measure(npu, op, npu_sync, args.iters)
        base_cpu = measure(cpu, op, nop, args.iters)
        rows.append(("hooks off", base_npu, base_cpu))
        worst = max(worst, base_npu / base_cpu)
        with _op_hook():
            rows.append(("op hook installed", measure(npu, op, npu_sync, args.iters), base_cpu))
        with _profiler([ProfilerActivity.CPU]):
            prof_npu = measure(npu, op, npu_sync, profiler_iters)
        with _profiler([ProfilerActivity.CPU]):
            prof_cpu = measure(cpu, op, nop, profiler_iters)
        rows.append(("profiler (CPU)", prof_npu, prof_cpu))
        if ProfilerActivity.PrivateUse1 in torch.profiler.supported_activities():
            with _profiler([ProfilerActivity.CPU, ProfilerActivity.PrivateUse1]):
                dev_npu = measure(npu, op, npu_sync, profiler_iters)
            rows.append(("profiler (CPU+PrivateUse1)", dev_npu, prof_cpu))
        for name, n, c in rows:
            print(f"{op:<5} {name:<28} {n:8.3f} {c:8.3f} {n / c:7.2f}x")
    verdict = "meets" if worst <= TARGET else "misses"
    print(f"hooks off, worst npu/cpu ratio: {worst:.2f}x ({verdict} the target <= {TARGET:.1f}x)")


if __name__ == "__main__":
    main()
