"""Per-op dispatch latency of 1-element ``add``/``abs``/``mm``: our runtime vs upstream's torch_npu, on the
same simulated device in the same run (target: ours <= 1.0x theirs).

Each runtime runs in a process of its own (both are imported as ``torch_npu``): ours in this
environment, upstream's in ``build/venvs/<label>-torch-npu`` (made by ``nox -s real-torch-npu``), in the
simulator's CANN-style install. Each figure is the median of --rounds rounds of --iters calls after a
warm-up, per call in microseconds; every round ends with ``torch.npu.synchronize()``, so queued
kernels are paid for inside the round. Both runtimes keep their default queueing. Nothing is asserted.

    build/venvs/v2.13/bin/python bench/torch_npu_dispatch_latency.py [--iters 5000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = 1.0

PROGRAM = """
import json, statistics, sys, time
import torch, torch_npu
iters, rounds = int(sys.argv[1]), int(sys.argv[2])
x, y, m = torch.ones(1).npu(), torch.ones(1).npu(), torch.ones(1, 1).npu()
ops = {"add": lambda: torch.add(x, y), "abs": lambda: torch.abs(x), "mm": lambda: torch.mm(m, m)}
out = {}
for name, fn in ops.items():
    for _ in range(max(iters // 10, 100)):
        fn()
    torch.npu.synchronize()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iters):
            fn()
        torch.npu.synchronize()
        samples.append((time.perf_counter() - start) / iters * 1e6)
    out[name] = statistics.median(samples)
print("LATENCY " + json.dumps(out))
"""


def measure(python: str, env: dict[str, str], iters: int, rounds: int) -> dict[str, float]:
    result = subprocess.run([python, "-c", PROGRAM, str(iters), str(rounds)], capture_output=True, text=True,
                            env=env, timeout=1800)
    lines = [line for line in result.stdout.splitlines() if line.startswith("LATENCY ")]
    if result.returncode != 0 or not lines:
        raise SystemExit(f"{python} failed (exit {result.returncode}):\n{result.stderr[-2000:]}")
    return json.loads(lines[-1].removeprefix("LATENCY "))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--label", default=os.environ.get("NPU_TEST_LABEL", "v2.13"))
    args = parser.parse_args()
    upstream_python = REPO / "build" / "venvs" / f"{args.label}-torch-npu" / "bin" / "python"
    if not upstream_python.exists():
        print(f"upstream's torch_npu is not set up for {args.label}: run `nox -s generate build real-torch-npu -- "
              f"{args.label}` first (nothing measured)")
        return 0
    toolkit = subprocess.run([str(upstream_python), "-c", "import json; from ascendc_kernels.toolkit import "
                              "environment; print(json.dumps(environment()))"], capture_output=True, text=True,
                             check=True)
    upstream_env = {**json.loads(toolkit.stdout), "TORCH_DEVICE_BACKEND_AUTOLOAD": "0"}
    ours_env = dict(os.environ)
    # Alternate the two, so that a change in the machine's load reaches both.
    ours = measure(sys.executable, ours_env, args.iters, args.rounds)
    theirs = measure(str(upstream_python), upstream_env, args.iters, args.rounds)
    ours_again = measure(sys.executable, ours_env, args.iters, args.rounds)
    print(f"per-op latency, 1-element tensors, median of {args.rounds} rounds of {args.iters} calls (us per call)")
    for name in ours:
        mine = min(ours[name], ours_again[name])
        ratio = mine / theirs[name]
        verdict = "ok" if ratio <= TARGET else "ABOVE TARGET"
        print(f"{name:4} ours {mine:7.2f} us   upstream torch_npu {theirs[name]:7.2f} us   "
              f"ratio {ratio:4.2f}x (target <= {TARGET}x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
