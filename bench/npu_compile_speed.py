"""A training step of the transformer and the CNN of examples/npu_models.py, torch.compile
(Inductor) against eager, on npu and on the CPU.

A step is zero_grad, the compiled forward and loss (``torch.compile(..., fullgraph=True)``; its
backward is compiled with it), backward, an Adam step (eager) and a host read of the loss
(``loss.item()``, which also waits for the npu stream). Each row is the median of --rounds
rounds of --steps steps after a warm-up, milliseconds per step. The variants:

  eager npu          the npu aten ops, one call per op
  compiled npu       Inductor's C++ kernels queued on the npu stream, one simulated core each
  compiled npu omp2  the same kernels generated for 2 OpenMP threads inside their one block
                     (torch._inductor.config.cpp.threads=2)
  compiled cpu       Inductor on the CPU with one thread (torch.set_num_threads(1)), the
                     reference for the compiled npu kernels' own speed

Ratios: eager npu / compiled npu (target >= 1.3x) and compiled npu / compiled CPU (target
<= 1.2x). "first call s" is the wall time of the first step of each compiled variant, compile
included, with Inductor's caches fresh (a new cache directory per variant). Dropout modules
are in eval mode (as in the compared runs of the tests). Nothing is asserted; numbers are printed.

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


def make_step(name: str, device: str, compiled: bool) -> tuple[Callable[[torch.Tensor, torch.Tensor], float], list]:
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

    def step(x: torch.Tensor, y: torch.Tensor) -> float:
        opt.zero_grad()
        loss = forward(x, y)
        loss.backward()
        opt.step()
        return loss.item()

    batches = [(x.to(device), y.to(device)) for x, y in task.data(24)]
    return step, batches


def measure(name: str, device: str, compiled: bool, steps: int, rounds: int,
            threads: int | None = None) -> tuple[float, float | None]:
    """(ms per step, seconds of the first call or None for eager)."""
    from torch._inductor import config
    from torch._inductor.utils import fresh_cache

    torch._dynamo.reset()
    patch = config.patch({"cpp.threads": threads}) if threads is not None else config.patch({})
    with patch, fresh_cache():
        step, batches = make_step(name, device, compiled)
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
    variants = (
        ("eager npu", "npu", False, None),
        ("compiled npu", "npu", True, None),
        ("compiled npu omp2", "npu", True, 2),
        ("compiled cpu", "cpu", True, None),
    )
    print(f"{'model':<12} {'variant':<18} {'ms/step':>9} {'first call s':>13}")
    for name in args.models:
        results = {}
        for label, device, compiled, threads in variants:
            ms, first = measure(name, device, compiled, args.steps, args.rounds, threads)
            results[label] = ms
            print(f"{name:<12} {label:<18} {ms:9.3f} {'' if first is None else f'{first:13.1f}'}")
        print(f"{name:<12} eager npu / compiled npu       {results['eager npu'] / results['compiled npu']:6.2f}x "
              "(target >= 1.3x)")
        print(f"{name:<12} compiled npu / compiled cpu    {results['compiled npu'] / results['compiled cpu']:6.2f}x "
              "(target <= 1.2x)")
        omp2 = results["compiled npu omp2"] / results["compiled npu"]
        print(f"{name:<12} compiled npu omp2 / one thread {omp2:6.2f}x")


if __name__ == "__main__":
    main()
