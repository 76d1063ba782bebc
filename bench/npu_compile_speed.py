"""A training step of the transformer and the CNN of examples/npu_models.py, torch.compile
(Inductor) against eager, on npu and on the CPU.

A step is zero_grad, the compiled forward and loss (``torch.compile(..., fullgraph=True)``; its
backward is compiled with it), backward, an Adam step (eager, or compiled with
``torch.compile(opt.step)`` in the "+ optimizer" variants) and a host read of the loss
(``loss.item()``, which also waits for the npu stream). Each row is the median of --rounds
rounds of --steps steps after a warm-up, milliseconds per step. The variants:

  eager npu          the npu aten ops, one call per op
  compiled npu       Inductor's C++ kernels queued on the npu stream, one simulated core each
  compiled npu omp2  the same kernels generated for 2 OpenMP threads inside their one block
                     (torch._inductor.config.cpp.threads=2)
  compiled npu +opt  compiled npu, and the optimizer step compiled too
  eager cpu          the CPU aten ops with one thread (torch.set_num_threads(1))
  compiled cpu       Inductor on the CPU with one thread, the reference for the compiled npu
                     kernels' own speed
  compiled cpu +opt  compiled cpu, and the optimizer step compiled too

Ratios: eager npu / compiled npu (target >= 1.3x) and compiled npu / compiled CPU (target
<= 1.2x), each also with the optimizer step compiled; and eager cpu / compiled cpu: what
Inductor itself gains for the model on the CPU, the measure of how much of a step compiling
can remove (a step dominated by convolutions, extern kernels in both modes, gains little).
"first call s" is the wall time of the first step of each compiled variant, compile included,
with Inductor's caches fresh (a new cache directory per variant). Dropout modules are in eval
mode (as in the compared runs of the tests). Nothing is asserted; numbers are printed.

    build/venvs/v2.13/bin/python bench/npu_compile_speed.py [--steps 20] [--rounds 5] [--models transformer cnn]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import opplugin_runtime  # noqa: F401  (registers torch.npu)
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import npu_models  # noqa: E402


def make_step(name: str, device: str, compiled: bool,
              compiled_optimizer: bool = False) -> tuple[Callable[[torch.Tensor, torch.Tensor], float], list]:
    task = npu_models.TASKS[name]
    model = task.model(0).to(device)
    model.train()
    for module in model.modules():
        if isinstance(module, torch.nn.Dropout):
            module.eval()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def loss_of(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return task.loss(model(x), y)

    forward = torch.compile(loss_of, fullgraph=True) if compiled else loss_of
    # The optimizer's step breaks the graph on purpose (torch.optim sets grad mode around it).
    optimizer_step = torch.compile(opt.step) if compiled_optimizer else opt.step

    def step(x: torch.Tensor, y: torch.Tensor) -> float:
        opt.zero_grad()
        loss = forward(x, y)
        loss.backward()
        optimizer_step()
        return loss.item()

    batches = [(x.to(device), y.to(device)) for x, y in task.data(24)]
    return step, batches


def measure(name: str, device: str, compiled: bool, steps: int, rounds: int,
            threads: int | None = None, compiled_optimizer: bool = False) -> tuple[float, float | None]:
    """(ms per step, seconds of the first call or None for eager)."""
    from torch._inductor import config
    from torch._inductor.utils import fresh_cache

    torch._dynamo.reset()
    patch = config.patch({"cpp.threads": threads}) if threads is not None else config.patch({})
    with patch, fresh_cache():
        step, batches = make_step(name, device, compiled, compiled_optimizer)
        start = time.perf_counter()
        step(*batches[0])
        first = time.perf_counter() - start
        for x, y in batches[1:3]:
            step(x, y)
        samples = []
        for _ in range(rounds):
            start = time.perf_counter()
            for i in range(steps):
                step(*batches[i % len(batches)])
            samples.append((time.perf_counter() - start) / steps * 1e3)
    return statistics.median(samples), (first if compiled else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--models", nargs="+", default=["transformer", "cnn"], choices=sorted(npu_models.TASKS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    variants = (  # label, device, compiled, OpenMP threads, optimizer compiled
        ("eager npu", "npu", False, None, False),
        ("compiled npu", "npu", True, None, False),
        ("compiled npu omp2", "npu", True, 2, False),
        ("compiled npu +opt", "npu", True, None, True),
        ("eager cpu", "cpu", False, None, False),
        ("compiled cpu", "cpu", True, None, False),
        ("compiled cpu +opt", "cpu", True, None, True),
    )
    print(f"{'model':<12} {'variant':<18} {'ms/step':>9} {'first call s':>13}")
    for name in args.models:
        r = {}
        for label, device, compiled, threads, compiled_optimizer in variants:
            ms, first = measure(name, device, compiled, args.steps, args.rounds, threads, compiled_optimizer)
            r[label] = ms
            print(f"{name:<12} {label:<18} {ms:9.3f} {'' if first is None else f'{first:13.1f}'}")
        rows = (
            ("eager npu / compiled npu", r["eager npu"] / r["compiled npu"], "(target >= 1.3x)"),
            ("eager npu / compiled npu +opt", r["eager npu"] / r["compiled npu +opt"], "(target >= 1.3x)"),
            ("compiled npu / compiled cpu", r["compiled npu"] / r["compiled cpu"], "(target <= 1.2x)"),
            ("compiled npu +opt / cpu +opt", r["compiled npu +opt"] / r["compiled cpu +opt"], "(target <= 1.2x)"),
            ("eager cpu / compiled cpu", r["eager cpu"] / r["compiled cpu"], "(Inductor's own gain on the CPU)"),
            ("eager cpu / compiled cpu +opt", r["eager cpu"] / r["compiled cpu +opt"], ""),
            ("compiled npu omp2 / one thread", r["compiled npu omp2"] / r["compiled npu"], ""),
        )
        for text, ratio, note in rows:
            print(f"{name:<12} {text:<31}{ratio:6.2f}x {note}".rstrip())


if __name__ == "__main__":
    main()
