"""Indexing, convolution and pooling on the simulated npu next to torch on the CPU.

Rows, each the median of --rounds rounds, milliseconds per call (npu: queued work
included, a ``torch.npu.synchronize()`` closes each round), and the CPU / npu ratio
(above 1: the npu is faster):

* conv2d fwd+bwd:  nn.Conv2d(16, 32, 3, padding=1) on [8, 16, 32, 32], backward with a given grad
* conv3d fwd+bwd f32/f16: nn.Conv3d(16, 32, 3, padding=1) on [2, 16, 16, 32, 32] (a video or
  volume block), input, weight and bias gradients
* convT2d fwd+bwd f32/f16: nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1) on [8, 64, 16, 16]
  (a decoder's 2x upsampling to [8, 32, 32, 32]), input, weight and bias gradients
* max_pool2d fwd+bwd: F.max_pool2d(k=2) on [8, 32, 32, 32]
* embedding fwd+bwd: F.embedding of [32, 128] indices into a [10000, 256] weight
* index_select:    1024 rows of [10000, 256]
* cat:             four [256, 512] tensors along dim 0

Nothing is asserted; numbers are printed.

    build/venvs/v2.13/bin/python bench/npu_conv_pool_speed.py [--rounds 5] [--iters 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable

# torch's OpenMP threads otherwise busy-wait after each op and take the cores from the
# simulator's AI-core threads timed next (both share the same CPUs).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import opplugin_runtime  # noqa: E402, F401  (registers torch.npu)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def per_call_ms(fn: Callable[[], object], iters: int, rounds: int, sync: Callable[[], object]) -> float:
    fn()
    sync()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iters):
            fn()
        sync()
        samples.append((time.perf_counter() - start) * 1e3 / iters)
    return statistics.median(samples)


def module_case(module: torch.nn.Module, x_shape: tuple[int, ...], dtype: torch.dtype, device: str,
                g: torch.Generator) -> Callable[[], object]:
    """Forward and backward (input, weight and bias gradients) of `module` on a random input."""
    module = module.to(device=device, dtype=dtype)
    x = torch.randn(x_shape, generator=g).to(device=device, dtype=dtype).requires_grad_()
    gy = torch.randn(module(x).shape, generator=g).to(device=device, dtype=dtype)
    return lambda: module(x).backward(gy)


def cases(device: str) -> dict[str, Callable[[], object]]:
    g = torch.Generator().manual_seed(0)
    conv = torch.nn.Conv2d(16, 32, 3, padding=1).to(device)
    x = torch.randn(8, 16, 32, 32, generator=g).to(device).requires_grad_()
    gy = torch.randn(8, 32, 32, 32, generator=g).to(device)
    nd = {}
    for dtype, tag in ((torch.float32, "f32"), (torch.float16, "f16")):
        torch.manual_seed(0)
        nd[f"conv3d fwd+bwd {tag}"] = module_case(torch.nn.Conv3d(16, 32, 3, padding=1), (2, 16, 16, 32, 32),
                                                  dtype, device, g)
        torch.manual_seed(0)
        nd[f"convT2d fwd+bwd {tag}"] = module_case(torch.nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1),
                                                   (8, 64, 16, 16), dtype, device, g)
    p = torch.randn(8, 32, 32, 32, generator=g).to(device).requires_grad_()
    gp = torch.randn(8, 32, 16, 16, generator=g).to(device)
    w = torch.randn(10000, 256, generator=g).to(device).requires_grad_()
    idx = torch.randint(0, 10000, (32, 128), generator=g).to(device)
    ge = torch.randn(32, 128, 256, generator=g).to(device)
    rows = torch.randint(0, 10000, (1024,), generator=g).to(device)
    parts = [torch.randn(256, 512, generator=g).to(device) for _ in range(4)]
    return {
        "conv2d fwd+bwd": lambda: conv(x).backward(gy),
        **nd,
        "max_pool2d fwd+bwd": lambda: F.max_pool2d(p, 2).backward(gp),
        "embedding fwd+bwd": lambda: F.embedding(idx, w).backward(ge),
        "index_select": lambda: w.detach().index_select(0, rows),
        "cat": lambda: torch.cat(parts),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iters", type=int, default=10)
    args = parser.parse_args()
    cpu, npu = cases("cpu"), cases("npu")
    print(f"{'case':<22} {'npu ms':>9} {'cpu ms':>9} {'cpu/npu':>8}")
    for name in cpu:
        n = per_call_ms(npu[name], args.iters, args.rounds, torch.npu.synchronize)
        c = per_call_ms(cpu[name], args.iters, args.rounds, lambda: None)
        print(f"{name:<22} {n:9.3f} {c:9.3f} {c / n:8.2f}")


if __name__ == "__main__":
    main()
