"""One training step of the MLP and the CNN of examples/npu_models.py on npu vs CPU.

A step is zero_grad, forward, loss, backward and an optimizer step (SGD with momentum), ending
with a host read of the loss (``loss.item()``, which also synchronises the npu stream). Each row
is the median of --rounds rounds of --steps steps after a warm-up, milliseconds per step; the
ratio is npu/CPU (target <= 1.5x). The last column is the number of op calls one npu step sent
through the CPU fallback (from the path ledger): ops without an npu kernel cost a copy to the
host and back on every call. Torch uses one CPU thread here, as the simulator's kernels do.

Nothing is asserted; numbers are printed.

    build/venvs/v2.13/bin/python bench/npu_train_step.py [--steps 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import opplugin_runtime  # noqa: F401  (registers torch.npu)
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import npu_models  # noqa: E402


def ms_per_step(model: torch.nn.Module, task: npu_models.Task, device: str, steps: int, rounds: int) -> float:
    model = model.to(device)
    model.train()
    opt = npu_models.OPTIMIZERS["sgd"](list(model.parameters()))
    batches = [(x.to(device), y.to(device)) for x, y in task.data(steps)]

    def step(x: torch.Tensor, y: torch.Tensor) -> None:
        opt.zero_grad()
        loss = task.loss(model(x), y)
        loss.backward()
        opt.step()
        loss.item()

    for x, y in batches[:3]:
        step(x, y)
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for x, y in batches:
            step(x, y)
        samples.append((time.perf_counter() - start) / len(batches) * 1e3)
    return statistics.median(samples)


def fallback_calls_per_step(model: torch.nn.Module, task: npu_models.Task) -> int:
    model = model.to("npu")
    opt = npu_models.OPTIMIZERS["sgd"](list(model.parameters()))
    (x, y), = task.data(1)
    torch.npu.reset_path_ledger()
    opt.zero_grad()
    loss = task.loss(model(x.to("npu")), y.to("npu"))
    loss.backward()
    opt.step()
    loss.item()
    return sum(c["cpu_fallback"] for c in torch.npu.path_ledger().values())


def has_conv() -> bool:
    return any(torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{op}", "PrivateUse1")
               for op in ("convolution_overrideable", "convolution", "_convolution"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.npu.set_fallback_mode("silent")
    print(f"{'model':<8} {'cpu ms/step':>12} {'npu ms/step':>12} {'npu/cpu':>8} {'fallback calls/step':>20}")
    for name in ("mlp", "cnn"):
        task = npu_models.TASKS[name]
        if name == "cnn" and not has_conv():
            print(f"{name:<8} not run: no npu kernel for aten::convolution_overrideable/convolution in this build")
            continue
        cpu_model, npu_model = npu_models.same_start(task)
        fallbacks = fallback_calls_per_step(npu_models.same_start(task)[1], task)
        cpu = ms_per_step(cpu_model, task, "cpu", args.steps, args.rounds)
        npu = ms_per_step(npu_model, task, "npu", args.steps, args.rounds)
        print(f"{name:<8} {cpu:12.3f} {npu:12.3f} {npu / cpu:7.2f}x {fallbacks:20d}")


if __name__ == "__main__":
    main()
