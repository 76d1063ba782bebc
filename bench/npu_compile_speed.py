"""A training step of the transformer and the CNN of examples/npu_models.py, torch.compile
(Inductor) against eager, on npu and on the CPU.

A step is zero_grad, the compiled forward and loss (``torch.compile(..., fullgraph=True)``; its
backward is compiled with it), backward, an Adam step (eager, or compiled with
``torch.compile(opt.step)`` in the "+ optimizer" variants) and a host read of the loss
(``loss.item()``, which also waits for the npu stream). Every variant is compiled and warmed
up first; then, round after round, each variant runs --steps steps in turn (the order rotated
each round), so a change of the machine's load moves all variants of a round alike. A row is
the median of the rounds (and their min and max), milliseconds per step; a ratio is the median
of the ratios of the same round (and their range). The variants:

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
with Inductor's caches fresh (a new cache directory per variant); the optimizer's foreach
kernel takes a few hundred pointer arguments, which the npu launch entry binds without a
std::tuple (a tuple that wide took g++ about two minutes). Dropout modules are in eval
mode (as in the compared runs of the tests). Nothing is asserted; numbers are printed.

The simulated device runs its kernels on the host's CPUs: its cores (ASCEND_SIM_AICORE_NUM,
by default one per host CPU) share them with the Python thread that dispatches the step, so
on a small machine a step costs the host's work and the device's together. Compiling removes
host work and fuses pointwise kernels; it leaves the convolutions (extern kernels in both
modes, most of the CNN's device time) as they are, which bounds what the CNN can gain, as the
CPU's own "eager cpu / compiled cpu" row shows for the same model. The first line printed
names the cores and CPUs of the run.

    build/venvs/v2.13/bin/python bench/npu_compile_speed.py [--steps 20] [--rounds 9] [--models transformer cnn]
"""

from __future__ import annotations

import argparse
import os
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

    # Dynamo keeps compiled graphs per code object and guards them on the tensors (not on the
    # model's identity): without a code object of its own, a variant would run the graph that an
    # earlier variant compiled (with that variant's OpenMP threads).
    loss_of.__code__ = loss_of.__code__.replace()
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


VARIANTS = (  # label, device, compiled, OpenMP threads, optimizer compiled
    ("eager npu", "npu", False, None, False),
    ("compiled npu", "npu", True, None, False),
    ("compiled npu omp2", "npu", True, 2, False),
    ("compiled npu +opt", "npu", True, None, True),
    ("eager cpu", "cpu", False, None, False),
    ("compiled cpu", "cpu", True, None, False),
    ("compiled cpu +opt", "cpu", True, None, True),
)

RATIOS = (  # text, numerator, denominator, note
    ("eager npu / compiled npu", "eager npu", "compiled npu", "(target >= 1.3x)"),
    ("eager npu / compiled npu +opt", "eager npu", "compiled npu +opt", "(target >= 1.3x)"),
    ("compiled npu / compiled cpu", "compiled npu", "compiled cpu", "(target <= 1.2x)"),
    ("compiled npu +opt / cpu +opt", "compiled npu +opt", "compiled cpu +opt", "(target <= 1.2x)"),
    ("eager cpu / compiled cpu", "eager cpu", "compiled cpu", "(Inductor's own gain on the CPU)"),
    ("eager cpu / compiled cpu +opt", "eager cpu", "compiled cpu +opt", ""),
    ("compiled npu omp2 / one thread", "compiled npu omp2", "compiled npu", ""),
)


def prepare(name: str, device: str, compiled: bool, threads: int | None,
            compiled_optimizer: bool) -> tuple[Callable[[torch.Tensor, torch.Tensor], float], list, float | None]:
    """A variant's step and batches, compiled and warmed up, and the seconds of its first call
    (None for eager). Inductor's caches are fresh for each variant; cpp.threads applies to the
    kernels generated here."""
    from torch._inductor import config
    from torch._inductor.utils import fresh_cache

    patch = config.patch({"cpp.threads": threads}) if threads is not None else config.patch({})
    with patch, fresh_cache():
        step, batches = make_step(name, device, compiled, compiled_optimizer)
        start = time.perf_counter()
        step(*batches[0])
        first = time.perf_counter() - start
        for x, y in batches[1:3]:
            step(x, y)
    return step, batches, (first if compiled else None)


def measure(name: str, steps: int, rounds: int) -> tuple[dict[str, list[float]], dict[str, float | None]]:
    """Milliseconds per step of every variant in each round, and first-call seconds. The variants
    take turns within a round (in a rotated order), so a change in the machine's load between
    rounds moves every variant of that round alike."""
    torch._dynamo.reset()
    prepared = {label: prepare(name, *spec) for label, *spec in VARIANTS}
    labels = list(prepared)
    samples: dict[str, list[float]] = {label: [] for label in labels}
    for r in range(rounds):
        for label in labels[r % len(labels):] + labels[:r % len(labels)]:
            step, batches, _ = prepared[label]
            start = time.perf_counter()
            for i in range(steps):
                step(*batches[i % len(batches)])
            samples[label].append((time.perf_counter() - start) / steps * 1e3)
    return samples, {label: first for label, (_, _, first) in prepared.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--models", nargs="+", default=["transformer", "cnn"], choices=sorted(npu_models.TASKS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    # Every compiled variant of a model shares the model's code objects: one Dynamo cache entry each.
    dynamo = torch._dynamo.config
    limit = "recompile_limit" if hasattr(dynamo, "recompile_limit") else "cache_size_limit"  # torch < 2.6
    setattr(dynamo, limit, max(getattr(dynamo, limit), 2 * len(VARIANTS)))
    cores = torch.npu.get_device_properties(0).vector_core_num
    print(f"npu: {cores} simulated core(s) on {len(os.sched_getaffinity(0))} host CPU(s), shared with the "
          f"Python thread; CPU variants: 1 thread")
    print(f"{'model':<12} {'variant':<18} {'ms/step':>9} {'min':>7} {'max':>7} {'first call s':>13}")
    for name in args.models:
        samples, firsts = measure(name, args.steps, args.rounds)
        for label, ms in samples.items():
            first = firsts[label]
            print(f"{name:<12} {label:<18} {statistics.median(ms):9.3f} {min(ms):7.3f} {max(ms):7.3f} "
                  f"{'' if first is None else f'{first:13.1f}'}".rstrip())
        for text, num, den, note in RATIOS:
            per_round = [a / b for a, b in zip(samples[num], samples[den])]
            print(f"{name:<12} {text:<31}{statistics.median(per_round):6.2f}x "
                  f"[{min(per_round):.2f}-{max(per_round):.2f}] {note}".rstrip())


if __name__ == "__main__":
    main()
