"""Mixed precision on npu: one training step of the MLP and the transformer of examples/npu_models.py in
float32 and under autocast (float16, bfloat16) with a GradScaler, on npu and on CPU.

A step is zero_grad, forward and loss (under autocast for the amp rows), backward of the scaled loss,
scaler.step (the non-finite check and unscale of every gradient, the host read of found_inf, the SGD step),
scaler.update (the scale update on the device) and a host read of the loss. Each cell is the median of
--rounds rounds of --steps steps after a warm-up, milliseconds per step. The ratios are measured in one run:
amp/fp32 on the same device, and npu/CPU for the same precision ("-" where this torch's CPU autocast does not
take the dtype). The last column is the time of the scaler's own work per npu step (unscale_ and update on
already computed gradients). Torch uses one CPU thread, as the simulator's kernels do.

Nothing is asserted; numbers are printed.

    build/venvs/v2.13/bin/python bench/npu_amp_step.py [--steps 10] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import opplugin_runtime  # noqa: F401  (registers torch.npu)
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import npu_models  # noqa: E402

PRECISIONS = {"fp32": None, "fp16": torch.float16, "bf16": torch.bfloat16}


def cpu_autocast_takes(dtype: torch.dtype) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch 2.1 warns, then raises
        try:
            with torch.autocast("cpu", dtype=dtype):
                pass
        except RuntimeError:
            return False
    return True


def ms_per_step(task: npu_models.Task, device: str, amp: torch.dtype | None, steps: int, rounds: int) -> float:
    model = task.model(0).to(device)
    model.train()
    for module in model.modules():
        if isinstance(module, torch.nn.Dropout):
            module.eval()
    opt = npu_models.OPTIMIZERS["sgd"](list(model.parameters()))
    scaler = npu_models.make_grad_scaler(device) if amp is not None else None
    batches = [(x.to(device), y.to(device)) for x, y in task.data(steps)]

    def step(x: torch.Tensor, y: torch.Tensor) -> None:
        opt.zero_grad()
        with torch.autocast(device, dtype=amp, enabled=amp is not None):
            loss = task.loss(model(x), y)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
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


def scaler_ms(task: npu_models.Task, rounds: int) -> float:
    """unscale_ + update of the model's gradients on npu (the gradients computed once, outside the timing)."""
    model = task.model(0).to("npu")
    opt = npu_models.OPTIMIZERS["sgd"](list(model.parameters()))
    scaler = npu_models.make_grad_scaler("npu")
    (x, y), = task.data(1)
    scaler.scale(task.loss(model(x.to("npu")), y.to("npu"))).backward()
    samples = []
    for _ in range(rounds * 10):
        torch.npu.synchronize()
        start = time.perf_counter()
        scaler.unscale_(opt)
        scaler.update()
        torch.npu.synchronize()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, {args.rounds} rounds of {args.steps} steps, ms per step (median)")
    header = f"{'model':<12}{'precision':<10}{'npu':>9}{'cpu':>9}{'npu/cpu':>9}{'amp/fp32 npu':>14}" \
             f"{'amp/fp32 cpu':>14}{'scaler ms':>11}"
    print(header)
    for name in ("mlp", "transformer"):
        task = npu_models.TASKS[name]
        base = {}
        for label, dtype in PRECISIONS.items():
            npu = ms_per_step(task, "npu", dtype, args.steps, args.rounds)
            cpu = ms_per_step(task, "cpu", dtype, args.steps, args.rounds) if dtype is None or \
                cpu_autocast_takes(dtype) else None
            if dtype is None:
                base = {"npu": npu, "cpu": cpu}
            cells = [f"{npu:9.2f}", f"{cpu:9.2f}" if cpu is not None else f"{'-':>9}",
                     f"{npu / cpu:9.2f}" if cpu is not None else f"{'-':>9}",
                     f"{npu / base['npu']:14.2f}",
                     f"{cpu / base['cpu']:14.2f}" if cpu is not None else f"{'-':>14}",
                     f"{scaler_ms(task, args.rounds):11.3f}" if dtype is not None else f"{'-':>11}"]
            print(f"{name:<12}{label:<10}" + "".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
