"""What a host synchronisation with the simulated device costs, next to queueing an op.

The simulator runs each stream's work on a worker thread. A synchronising call that had
to wake a sleeping thread through a condition variable would pay that hand-off (40-50 us
on these VMs; the "thread hand-off" row measures it here with two Python threads). The
stream instead lets the synchronising caller run still-queued work itself while the worker
is idle, and keeps the worker spinning briefly between back-to-back launches.

Rows, each the median of --rounds rounds, microseconds per iteration:

* queue add:            ``torch.add`` of 1-element npu tensors, no synchronisation
* add + synchronize:    one add, then ``torch.npu.synchronize()``
* synchronize (idle):   ``torch.npu.synchronize()`` with nothing queued
* add + event sync:     one add, ``Event.record()``, ``Event.synchronize()``
* add + .item():        one add, then a device-to-host read of the result
* thread hand-off:      a ``threading.Event`` ping-pong between two threads (half a round trip)
* cpu add:              ``torch.add`` of 1-element CPU tensors, for scale

Nothing is asserted; numbers are printed.

    build/venvs/v2.13/bin/python bench/npu_sync_cost.py [--iters 5000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from typing import Callable

import opplugin_runtime  # noqa: F401  (registers torch.npu)
import torch


def per_iter_us(fn: Callable[[], object], iters: int, rounds: int, after: Callable[[], object] = lambda: None) -> float:
    for _ in range(min(iters, 200)):
        fn()
    after()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iters):
            fn()
        after()
        samples.append((time.perf_counter() - start) / iters * 1e6)
    return statistics.median(samples)


def thread_handoff_us(iters: int, rounds: int) -> float:
    ping, pong = threading.Event(), threading.Event()
    stop = False

    def echo() -> None:
        while True:
            ping.wait()
            ping.clear()
            if stop:
                return
            pong.set()

    worker = threading.Thread(target=echo, daemon=True)
    worker.start()

    def round_trip() -> None:
        ping.set()
        pong.wait()
        pong.clear()

    try:
        return per_iter_us(round_trip, iters, rounds) / 2
    finally:
        stop = True
        ping.set()
        worker.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iters", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    n, r = args.iters, args.rounds

    a, b = torch.ones(1, device="npu"), torch.ones(1, device="npu")
    ca, cb = torch.ones(1), torch.ones(1)
    event = torch.npu.Event()
    sync = torch.npu.synchronize

    def add_event_sync() -> None:
        torch.add(a, b)
        event.record()
        event.synchronize()

    rows = [
        ("queue add", per_iter_us(lambda: torch.add(a, b), n, r, sync)),
        ("add + synchronize", per_iter_us(lambda: (torch.add(a, b), sync()), n, r)),
        ("synchronize (idle)", per_iter_us(sync, n, r)),
        ("add + event sync", per_iter_us(add_event_sync, n, r)),
        ("add + .item()", per_iter_us(lambda: torch.add(a, b).item(), n, r)),
        ("thread hand-off", thread_handoff_us(n, r)),
        ("cpu add", per_iter_us(lambda: torch.add(ca, cb), n, r)),
    ]
    print(f"{'':22}{'us/iter':>10}")
    for name, us in rows:
        print(f"{name:22}{us:10.2f}")
    queue, synced = rows[0][1], rows[1][1]
    print(f"synchronising after an op adds {synced - queue:.2f} us (thread hand-off: {rows[5][1]:.2f} us)")


if __name__ == "__main__":
    main()
