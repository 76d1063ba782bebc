"""One rank of a torch.distributed job on npu with the hccl backend, run by test_distributed_hccl.py
as its own process (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT in the environment, as torchrun sets
them). `python hccl_worker.py <scenario>`; a failed check raises (exit status 1, the traceback on
stderr); the scenarios print what the test reads."""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist

import opplugin_runtime  # noqa: F401  (registers torch.npu and the hccl backend)

RANK = int(os.environ["RANK"])
WORLD = int(os.environ["WORLD_SIZE"])
# float16/bfloat16 go through gloo as float32 (the reference computes in float32 and rounds once,
# as HCCL does).
DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64, torch.int8)
OPS = {"sum": dist.ReduceOp.SUM, "product": dist.ReduceOp.PRODUCT, "min": dist.ReduceOp.MIN,
       "max": dist.ReduceOp.MAX, "avg": dist.ReduceOp.AVG}


def rank_tensor(rank: int, dtype: torch.dtype, n: int = 37) -> torch.Tensor:
    """The values rank `rank` contributes: small integers (products of WORLD of them stay exact)."""
    g = torch.Generator().manual_seed(1000 + rank)
    return torch.randint(-3, 4, (n,), generator=g).to(dtype)


def reference(gloo: dist.ProcessGroup, x: torch.Tensor, op: str) -> torch.Tensor:
    """The reduction of every rank's `x` computed on the CPU from gloo's all_gather of them."""
    wide = x.double()
    parts = [torch.empty_like(wide) for _ in range(WORLD)]
    dist.all_gather(parts, wide, group=gloo)
    stacked = torch.stack(parts)
    out = {"sum": stacked.sum(0), "product": stacked.prod(0), "min": stacked.amin(0), "max": stacked.amax(0),
           "avg": stacked.mean(0)}[op]
    if x.dtype in (torch.float16, torch.bfloat16):
        return out.float().to(x.dtype)
    return out.to(x.dtype)


def check(name: str, got: torch.Tensor, want: torch.Tensor) -> None:
    torch.testing.assert_close(got.cpu(), want, rtol=0, atol=0, equal_nan=True, msg=lambda m: f"{name}: {m}")


def collectives() -> None:
    gloo = dist.new_group(backend="gloo")
    dev = torch.device("npu", RANK % torch.npu.device_count())
    for dtype in DTYPES:
        for op_name, op in OPS.items():
            if op_name == "avg" and not dtype.is_floating_point:
                continue
            x = rank_tensor(RANK, dtype)
            t = x.to(dev)
            dist.all_reduce(t, op=op)
            check(f"all_reduce {op_name} {dtype}", t, reference(gloo, x, op_name))
        x = rank_tensor(RANK, dtype)
        t = x.to(dev)
        dist.broadcast(t, src=WORLD - 1)
        check(f"broadcast {dtype}", t, rank_tensor(WORLD - 1, dtype))
        t = x.to(dev)
        dist.reduce(t, dst=0, op=dist.ReduceOp.SUM)
        if RANK == 0:
            check(f"reduce {dtype}", t, reference(gloo, x, "sum"))
        else:
            reference(gloo, x, "sum")  # gloo's all_gather is collective: every rank joins it
        gathered = [torch.empty_like(x, device=dev) for _ in range(WORLD)]
        dist.all_gather(gathered, x.to(dev))
        for r in range(WORLD):
            check(f"all_gather {dtype} part {r}", gathered[r], rank_tensor(r, dtype))
        flat = torch.empty(WORLD * x.numel(), dtype=dtype, device=dev)
        dist.all_gather_into_tensor(flat, x.to(dev))
        check(f"all_gather_into_tensor {dtype}", flat, torch.cat([rank_tensor(r, dtype) for r in range(WORLD)]))
        big = rank_tensor(RANK, dtype, 8 * WORLD)
        out = torch.empty(8, dtype=dtype, device=dev)
        dist.reduce_scatter_tensor(out, big.to(dev))
        want = reference(gloo, big, "sum").view(WORLD, 8)[RANK]
        check(f"reduce_scatter_tensor {dtype}", out, want)
        inputs = [c.to(dev) for c in big.view(WORLD, 8).unbind(0)]
        out = torch.empty(8, dtype=dtype, device=dev)
        dist.reduce_scatter(out, inputs)
        check(f"reduce_scatter {dtype}", out, want)
    # all_to_all_single, equal and uneven splits: rank r sends (r + 1) * (d + 1) rows of 3 to rank d.
    x = torch.arange(WORLD * 4 * 3, dtype=torch.float32).view(WORLD * 4, 3) + 1000 * RANK
    out = torch.empty_like(x, device=dev)
    dist.all_to_all_single(out, x.to(dev))
    sent = [torch.arange(WORLD * 4 * 3, dtype=torch.float32).view(WORLD * 4, 3) + 1000 * r for r in range(WORLD)]
    want = torch.cat([x[4 * RANK:4 * RANK + 4] for x in sent])
    check("all_to_all_single equal", out, want)
    send = [(RANK + 1) * (d + 1) for d in range(WORLD)]
    recv = [(r + 1) * (RANK + 1) for r in range(WORLD)]
    x = torch.arange(sum(send) * 3, dtype=torch.float32).view(-1, 3) + 1000 * RANK
    out = torch.empty(sum(recv), 3, device=dev)
    dist.all_to_all_single(out, x.to(dev), output_split_sizes=recv, input_split_sizes=send)
    pieces = []
    for r in range(WORLD):
        sent = [(r + 1) * (d + 1) for d in range(WORLD)]
        rows = torch.arange(sum(sent) * 3, dtype=torch.float32).view(-1, 3) + 1000 * r
        start = sum(sent[:RANK])
        pieces.append(rows[start:start + sent[RANK]])
    check("all_to_all_single uneven", out, torch.cat(pieces))
    ins = [torch.full((d + 2,), float(RANK * 10 + d), device=dev) for d in range(WORLD)]
    outs = [torch.empty(RANK + 2, device=dev) for _ in range(WORLD)]
    dist.all_to_all(outs, ins)
    for r in range(WORLD):
        check(f"all_to_all from {r}", outs[r], torch.full((RANK + 2,), float(r * 10 + RANK)))
    # send/recv around a ring.
    t = torch.full((5,), float(RANK), device=dev)
    got = torch.empty(5, device=dev)
    if RANK % 2 == 0:
        dist.send(t, (RANK + 1) % WORLD)
        dist.recv(got, (RANK - 1) % WORLD)
    else:
        dist.recv(got, (RANK - 1) % WORLD)
        dist.send(t, (RANK + 1) % WORLD)
    check("send/recv", got, torch.full((5,), float((RANK - 1) % WORLD)))
    dist.barrier()
    print("collectives ok")


def stream_order() -> None:
    """A collective sees what the current stream computed before it, and returns before it ran."""
    dev = torch.device("npu", RANK % torch.npu.device_count())
    a = torch.full((1 << 20,), 1.0, device=dev)
    b = a * (RANK + 1)  # queued on the current stream, not yet run when all_reduce is called
    work = dist.all_reduce(b, async_op=True)
    work.wait()  # the current stream waits; what follows on it sees the sum
    total = (b + 0).cpu()
    check("all_reduce after a queued kernel", total, torch.full((1 << 20,), float(sum(range(1, WORLD + 1)))))
    work = dist.all_reduce(torch.ones(4, device=dev), async_op=True)
    work.synchronize()
    assert work.is_completed()
    print("stream order ok")


def peer_dies() -> None:
    """Rank 1 leaves without a word after the group formed; rank 0's all_reduce must fail within
    HCCL's execution timeout (the test sets it short), never hang."""
    dev = torch.device("npu", RANK % torch.npu.device_count())
    t = torch.ones(16, device=dev)
    dist.all_reduce(t)  # both ranks connected
    torch.npu.synchronize()
    if RANK == 1:
        os._exit(0)
    start = time.monotonic()
    try:
        dist.all_reduce(t)
        torch.npu.synchronize()
    except RuntimeError as e:
        print(f"failed after {time.monotonic() - start:.1f} s: {e}")
        os._exit(3)
    print("all_reduce without its peer did not fail")
    os._exit(4)


def mismatch() -> None:
    """The ranks all-reduce different element counts: every rank is told, with both counts."""
    dev = torch.device("npu", RANK % torch.npu.device_count())
    t = torch.ones(8 * (RANK + 1), device=dev)
    try:
        dist.all_reduce(t)
        torch.npu.synchronize()
    except RuntimeError as e:
        print(f"failed: {e}")
        os._exit(3)
    print("mismatched all_reduce did not fail")
    os._exit(4)


def default_backend() -> None:
    """init_process_group() without a backend: npu tensors go through hccl (torch picks the backend
    registered for the accelerator's device type)."""
    dev = torch.device("npu", RANK % torch.npu.device_count())
    t = torch.full((3,), float(RANK + 1), device=dev)
    dist.all_reduce(t)
    check("all_reduce on npu", t, torch.full((3,), float(sum(range(1, WORLD + 1)))))
    config = dist.get_backend_config() if hasattr(dist, "get_backend_config") else dist.get_backend()
    assert "hccl" in str(config), config
    print(f"default backend ok: {config}")


def subgroups() -> None:
    """Groups made with new_group: one of the even ranks, one of all ranks in reverse order; a rank
    outside a group takes no part in its collectives."""
    dev = torch.device("npu", RANK % torch.npu.device_count())
    evens = list(range(0, WORLD, 2))
    even_group = dist.new_group(evens, backend="hccl")
    everyone = dist.new_group(list(reversed(range(WORLD))), backend="hccl")
    t = torch.full((6,), float(RANK + 1), device=dev)
    if RANK in evens:
        dist.all_reduce(t, group=even_group)
        check("all_reduce in the even ranks' group", t, torch.full((6,), float(sum(r + 1 for r in evens))))
    u = torch.full((6,), float(RANK), device=dev)
    dist.broadcast(u, src=WORLD - 1, group=everyone)
    check("broadcast in a group of all ranks", u, torch.full((6,), float(WORLD - 1)))
    dist.barrier()
    print("subgroups ok")


def from_rank_table() -> None:
    """The default group's communicator from RANK_TABLE_FILE (when it serves): collectives of the
    default group and of a group made later (from a root info) both run."""
    dev = torch.device("npu", RANK % torch.npu.device_count())
    for n in (7, 1 << 18):
        t = torch.full((n,), float(RANK + 1), device=dev)
        dist.all_reduce(t)
        check(f"all_reduce of {n}", t, torch.full((n,), float(sum(range(1, WORLD + 1)))))
    pair = dist.new_group([0, 1], backend="hccl")
    if RANK < 2:
        u = torch.full((5,), float(RANK), device=dev)
        dist.broadcast(u, src=1, group=pair)
        check("broadcast in a later group", u, torch.full((5,), 1.0))
    dist.barrier()
    print("rank table ok")


def dies_mid_job() -> None:
    """Run under torchrun: the last rank fails after its first all_reduce; torchrun must end the job."""
    dev = torch.device("npu", RANK % torch.npu.device_count())
    t = torch.ones(1024, device=dev)
    dist.all_reduce(t)
    torch.npu.synchronize()
    if RANK == WORLD - 1:
        raise RuntimeError(f"rank {RANK} fails on purpose")
    for _ in range(1000):
        dist.all_reduce(t)
        torch.npu.synchronize()
    print("the job went on without its failed rank")


def ddp_timing() -> None:
    """DDP on npu measures its iterations (the Reducer's timer for npu): after a few sampled
    iterations the logging data holds device times of forward, backward compute and communication."""
    from torch.nn.parallel import DistributedDataParallel

    dev = torch.device("npu", RANK % torch.npu.device_count())
    torch.manual_seed(0)
    model = DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(),
                                                        torch.nn.Linear(256, 8)).to(dev), device_ids=[dev.index])
    x = torch.randn(32, 64, device=dev)
    for _ in range(4):
        model(x).square().sum().backward()
    torch.npu.synchronize()
    data = model._get_ddp_logging_data()
    times = {key: data.get(key, 0) for key in ("avg_forward_compute_time", "avg_backward_compute_time",
                                               "avg_backward_comm_time", "avg_backward_compute_comm_overlap_time")}
    print("ddp times", " ".join(f"{key}={value}" for key, value in times.items()))


def main() -> None:
    scenario = sys.argv[1]
    timeout = timedelta(seconds=float(os.environ.get("HCCL_TEST_TIMEOUT", "60")))
    torch.npu.set_device(RANK % torch.npu.device_count())
    backend = None if scenario == "default_backend" else "hccl"
    dist.init_process_group(backend, rank=RANK, world_size=WORLD, timeout=timeout)
    if backend is not None:
        assert dist.get_backend() == "hccl", dist.get_backend()
    {"collectives": collectives, "stream_order": stream_order, "peer_dies": peer_dies,
     "mismatch": mismatch, "default_backend": default_backend,
     "subgroups": subgroups, "dies_mid_job": dies_mid_job, "from_rank_table": from_rank_table,
     "ddp_timing": ddp_timing}[scenario]()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
