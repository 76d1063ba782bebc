"""Memory overhead of the npu caching allocator on training-loop-like allocation sequences.

Prints, for each workload, measured in one run:

* peak reserved (device memory the allocator took with aclrtMalloc) vs peak allocated
  (bytes of blocks held by tensors): overhead = reserved / allocated - 1 (target <= 5%);
* rounding overhead: bytes of blocks handed out vs bytes requested, summed over all
  allocations (512-byte rounding and unsplit remainders of large blocks);
* device mallocs and cache hits.

Workloads: an MLP trained with SGD (nn.Linear through the CPU fallback for the matmuls,
autograd, varying batch sizes), and an elementwise loop (add/mul/abs/copies/empty of
varied sizes on two streams). No assertions: numbers only.

    build/venvs/v2.13/bin/python bench/npu_allocator_overhead.py [--steps 40]
"""

from __future__ import annotations

import argparse
import random

import opplugin_runtime  # noqa: F401  (registers torch.npu)
import torch

MiB = 1 << 20


def mlp_training(steps: int, width: int = 1024) -> None:
    """A 4-layer MLP (`width` wide) with SGD; the batch size varies between steps."""
    rng = random.Random(0)
    torch.manual_seed(0)
    layers: list[torch.nn.Module] = []
    for _ in range(3):
        layers += [torch.nn.Linear(width, width), torch.nn.ReLU()]
    layers.append(torch.nn.Linear(width, 10))
    model = torch.nn.Sequential(*layers).npu()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, foreach=False)
    for _ in range(steps):
        batch = rng.choice([32, 64, 96, 128, 192, 256])
        x = torch.randn(batch, width).npu()
        target = torch.randn(batch, 10).npu()
        loss = ((model(x) - target) * (model[0].weight.abs().mean() + 1)).abs().mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    torch.npu.synchronize()


def elementwise_loop(steps: int) -> None:
    """Activations of varied sizes kept over a 'forward', freed in reverse, on two streams."""
    rng = random.Random(1)
    side = torch.npu.Stream()
    weights = [torch.randn(rng.randint(1 << 10, 1 << 20)).npu() for _ in range(8)]
    for step in range(steps):
        stream = side if step % 2 else torch.npu.current_stream()
        with torch.npu.stream(stream):
            saved = []
            for w in weights:
                a = (w * 0.5 + 1).abs()
                saved.append(a)
                saved.append(torch.empty(rng.randint(1, 1 << 18), device="npu"))
            grads = [s.mul(2.0) for s in reversed(saved) if s.numel() > 1]
            for w, g in zip(weights, grads[: len(weights)]):
                n = min(w.numel(), g.numel())
                w[:n].add_(g[:n], alpha=-1e-3)
            del saved, grads
    torch.npu.synchronize()


def measure(name: str, workload, steps: int) -> None:
    torch.npu.synchronize()
    torch.npu.empty_cache()
    torch.npu.reset_peak_memory_stats()
    torch.npu.reset_accumulated_memory_stats()
    workload(steps)
    s = torch.npu.memory_stats()
    peak_reserved = s["reserved_bytes.all.peak"]
    peak_allocated = s["allocated_bytes.all.peak"]
    handed_out = s["allocated_bytes.all.allocated"]
    requested = s["requested_bytes.all.allocated"]
    print(f"{name}:")
    print(f"  peak reserved   {peak_reserved / MiB:10.2f} MiB")
    print(f"  peak allocated  {peak_allocated / MiB:10.2f} MiB")
    print(f"  peak requested  {s['requested_bytes.all.peak'] / MiB:10.2f} MiB")
    print(f"  overhead (peak reserved / peak allocated - 1): {100 * (peak_reserved / peak_allocated - 1):6.2f} %"
          f"   (target <= 5 %)")
    print(f"  rounding overhead (block bytes / requested bytes - 1, all allocations): "
          f"{100 * (handed_out / requested - 1):6.2f} %")
    print(f"  allocations {s['allocation.all.allocated']}, device mallocs {s['num_device_alloc']}, "
          f"cache hits {s['num_cache_hits']}, retries {s['num_alloc_retries']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40, help="training steps per workload")
    args = parser.parse_args()
    torch.npu.set_fallback_mode("silent")  # the matmuls run on the CPU (no npu kernel yet)
    measure("MLP training, width 1024 (nn.Linear x4, SGD, varying batch)", mlp_training, args.steps)
    measure("MLP training, width 2048", lambda steps: mlp_training(steps, 2048), args.steps // 2)
    measure("elementwise loop (add/mul/abs/empty, two streams)", elementwise_loop, args.steps)


if __name__ == "__main__":
    main()
