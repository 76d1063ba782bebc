"""All-reduce across 2 processes on this host: the simulated HCCL on npu tensors next to gloo on
CPU tensors, and a DDP training step on 2 ranks next to 1, measured in one run.

Rows: all_reduce (sum) of 1, 16 and 256 MiB of float32, median of --repeat synchronized calls after
warm-up calls (64 MiB's worth, at least 3), as bus bandwidth (size x 2(n-1)/n / time, the figure
collective libraries report) and the ratio hccl / gloo (target >= 1.5x); then one DDP step (forward,
backward with the gradient all-reduce, SGD) of examples/npu_models.py's transformer on 2 ranks against
the same model alone on 1 rank.
Nothing is asserted.

    build/venvs/v2.13/bin/python bench/hccl_allreduce_speed.py [--repeat 15]
    (or: nox -s bench -- v2.13 hccl_allreduce_speed)

The script starts its own ranks (one process each, RANK/WORLD_SIZE/MASTER_* as torchrun sets them).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

SIZES_MIB = (1, 16, 256)
TARGET = 1.5
HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_main(repeat: int) -> None:
    """One rank: times every row and, on rank 0, prints them."""
    import opplugin_runtime  # noqa: F401
    import torch
    import torch.distributed as dist

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    device = torch.device("npu", rank % torch.npu.device_count())
    torch.npu.set_device(device)
    dist.init_process_group("hccl")
    gloo = dist.new_group(backend="gloo")

    def timed(fn, sync, together: bool = True, warm_up: int = 3) -> float:
        """Median seconds of fn() + sync(); `together`: every rank starts each call at once.

        `warm_up` calls first: a library's first calls at a new size (gloo's especially) set up
        buffers and connections, which is not its bandwidth."""
        for _ in range(warm_up):
            fn()
            sync()
        samples = []
        for _ in range(repeat):
            if together:
                dist.barrier(group=gloo)
            start = time.perf_counter()
            fn()
            sync()
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)

    if rank == 0:
        print(f"all_reduce sum of float32 across {world} processes (bus bandwidth, GB/s; median of {repeat})")
        print(f"{'size':>9}{'hccl ms':>10}{'hccl GB/s':>11}{'gloo ms':>10}{'gloo GB/s':>11}{'hccl/gloo':>11}")
    for mib in SIZES_MIB:
        n = mib * (1 << 20) // 4
        on_npu = torch.ones(n, device=device)
        on_cpu = torch.ones(n)
        warm_up = max(3, 64 // mib)  # the same number on every rank
        t_hccl = timed(lambda t=on_npu: dist.all_reduce(t), torch.npu.synchronize, warm_up=warm_up)
        t_gloo = timed(lambda t=on_cpu: dist.all_reduce(t, group=gloo), lambda: None, warm_up=warm_up)
        bus = mib * (1 << 20) * 2 * (world - 1) / world
        if rank == 0:
            ratio = t_gloo / t_hccl
            goal = "ok" if ratio >= TARGET else "below target"
            print(f"{mib:>5} MiB{t_hccl * 1e3:>10.2f}{bus / t_hccl / 1e9:>11.2f}{t_gloo * 1e3:>10.2f}"
                  f"{bus / t_gloo / 1e9:>11.2f}{ratio:>10.2f}x  ({goal}, target {TARGET}x)")

    sys.path.insert(0, str(HERE.parent / "examples"))
    from npu_models import TASKS, same_start
    from torch.nn.parallel import DistributedDataParallel

    task = TASKS["transformer"]
    x, y = task.data(1)[0]
    part = x.shape[0] // world

    def step_of(model, xs, ys, opt):
        def step() -> None:
            opt.zero_grad()
            task.loss(model(xs), ys).backward()
            opt.step()
        return step

    _, model = same_start(task)
    ddp = DistributedDataParallel(model.to(device), device_ids=[device.index])
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    xs, ys = x[rank * part:(rank + 1) * part].to(device), y[rank * part:(rank + 1) * part].to(device)
    t_ddp = timed(step_of(ddp, xs, ys, opt), torch.npu.synchronize)
    _, alone = same_start(task)
    alone = alone.to(device)
    opt1 = torch.optim.SGD(alone.parameters(), lr=0.01)
    t_one = timed(step_of(alone, x.to(device), y.to(device), opt1), torch.npu.synchronize, together=False) \
        if rank == 0 else 0.0
    dist.barrier(group=gloo)
    if rank == 0:
        print(f"DDP step of the transformer, batch {x.shape[0]}: {world} ranks {t_ddp * 1e3:.2f} ms "
              f"(each {part} samples), 1 rank {t_one * 1e3:.2f} ms (all {x.shape[0]}): "
              f"{t_one / t_ddp:.2f}x the throughput of one rank")
    dist.destroy_process_group()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--rank-main", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.rank_main:
        rank_main(opts.repeat)
        return 0
    world, port = 2, free_port()
    procs = [subprocess.Popen([sys.executable, __file__, "--rank-main", "--repeat", str(opts.repeat)],
                              env={**os.environ, "RANK": str(r), "WORLD_SIZE": str(world), "LOCAL_RANK": str(r),
                                   "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port),
                                   "ASCEND_SIM_DEVICE_COUNT": str(world)})
             for r in range(world)]
    status = 0
    try:
        for p in procs:
            status |= p.wait(timeout=1800)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    return status


if __name__ == "__main__":
    sys.exit(main())
