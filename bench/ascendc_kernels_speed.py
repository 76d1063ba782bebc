"""Speed of the simulator's Ascend C kernels (through aclnn, ctypes: no torch npu runtime)
against the same ops of torch on the CPU, measured in one run; prints ratios (>= 1: the
simulator is as fast as torch). Targets: add >= 0.8x (plus the fraction of the
measured copy bandwidth), mm >= 0.5x, softmax and layer norm >= 0.7x.

    build/venvs/v2.13/bin/python bench/ascendc_kernels_speed.py   (or: nox -s bench -- v2.13 ascendc_kernels_speed)

Uses the installed ascendc_kernels (the label's wheel, as `nox -s build` installs it) through
the ctypes bindings of packages/ascendc-kernels/tests/ascendc_kernels_testing.py.
Timings are medians over --repeat runs, npu and
torch calls alternating (both see the same load of a shared machine).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

# torch's OpenMP threads otherwise busy-wait after each op and take the cores
# from the simulator's AI-core threads timed next (both share the same 2 CPUs).
# numpy's OpenBLAS threads (numpy only checks results here) likewise.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# The ctypes bindings of the simulator's ABI are test support of ascendc-kernels (its tests/,
# not its wheel): the bench uses them from there.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "packages" / "ascendc-kernels" / "tests"))

import ascendc_kernels_testing as sim  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402


def median_seconds(fn: Callable[[], Any], repeat: int, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def compare(npu: Callable[[], Any], cpu: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median seconds of npu() and cpu(), timed alternately so that both see the same machine load."""
    for _ in range(2):
        npu()
        cpu()
    t_npu, t_cpu = [], []
    for _ in range(repeat):
        for fn, times in ((npu, t_npu), (cpu, t_cpu)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return statistics.median(t_npu), statistics.median(t_cpu)


class Aclnn:
    """Both phases of an aclnn api, then a device sync; the workspace is kept between calls."""

    def __init__(self) -> None:
        self.libs = sim.load()
        sim.check(self.libs.aclInit(None))
        sim.check(self.libs.aclrtSetDevice(0))
        self.workspace = ctypes.c_void_p()
        self.capacity = 0

    def __call__(self, api: str, *args: Any) -> None:
        rc, size, executor = sim.aclnn_workspace(api, *args)
        sim.check(rc, api)
        if size > self.capacity:
            if self.workspace.value:
                self.libs.aclrtFree(self.workspace.value)
            sim.check(self.libs.aclrtMalloc(ctypes.byref(self.workspace), size, 0))
            self.capacity = size
        sim.check(getattr(self.libs.opapi, api)(self.workspace.value if size else None, size, executor, None), api)
        sim.check(self.libs.aclrtSynchronizeDevice(), api)


def report(name: str, npu: float, cpu: float, target: float, extra: str = "") -> None:
    ratio = cpu / npu
    mark = "ok" if ratio >= target else "BELOW TARGET"
    print(f"{name:<28} npu {npu * 1e3:8.2f} ms   torch {cpu * 1e3:8.2f} ms   ratio {ratio:5.2f}x "
          f"(target {target}x: {mark}){extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    opts = parser.parse_args()
    run = Aclnn()
    rng = np.random.default_rng(0)
    cores = run.libs.aclsimGetCoreNumAiv()
    print(f"ascendc_kernels from {Path(sim.__file__).parent}; {cores} simulated cores; "
          f"torch {torch.__version__} with {torch.get_num_threads()} threads")

    # Copy bandwidth of this machine (read + write bytes per second), then add of 16M float32.
    n = 16 * 1024 * 1024
    src_host, dst_host = np.ones(n, np.float32), np.empty(n, np.float32)
    t_copy = median_seconds(lambda: np.copyto(dst_host, src_host), opts.repeat)
    copy_bw = 2 * src_host.nbytes / t_copy
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    dc = sim.DeviceArray.empty((n,), sim.ACL_FLOAT)
    alpha = sim.Scalar(1.0)
    ta, tb, tc = da.tensor(), db.tensor(), dc.tensor()
    xa, xb, xc = torch.from_numpy(a), torch.from_numpy(b), torch.empty(n)
    t_npu, t_cpu = compare(lambda: run("aclnnAdd", ta, tb, alpha, tc), lambda: torch.add(xa, xb, out=xc), opts.repeat)
    add_bw = 3 * a.nbytes / t_npu
    report("add 16M float32", t_npu, t_cpu, 0.8,
           f"   {add_bw / 1e9:.1f} GB/s = {add_bw / copy_bw:.2f} of copy bandwidth {copy_bw / 1e9:.1f} GB/s")
    np.testing.assert_allclose(dc.to_numpy(), a + b, rtol=1e-6)

    # mm 1024 x 1024 float32.
    m = 1024
    a, b = rng.standard_normal((m, m)).astype(np.float32), rng.standard_normal((m, m)).astype(np.float32)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    dc = sim.DeviceArray.empty((m, m), sim.ACL_FLOAT)
    ta, tb, tc = da.tensor(), db.tensor(), dc.tensor()
    xa, xb, xc = torch.from_numpy(a), torch.from_numpy(b), torch.empty(m, m)
    t_npu, t_cpu = compare(lambda: run("aclnnMm", ta, tb, tc, 0), lambda: torch.mm(xa, xb, out=xc), opts.repeat)
    report("mm 1024x1024 float32", t_npu, t_cpu, 0.5, f"   {2 * m ** 3 / t_npu / 1e9:.1f} GFLOP/s")
    np.testing.assert_allclose(dc.to_numpy(), xc.numpy(), rtol=1e-3, atol=1e-3)

    # softmax and layer norm over (4096, 1024) float32.
    shape = (4096, 1024)
    x = rng.standard_normal(shape).astype(np.float32)
    w, bias = rng.standard_normal(1024).astype(np.float32), rng.standard_normal(1024).astype(np.float32)
    dx, dy = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(shape, sim.ACL_FLOAT)
    tx, ty = dx.tensor(), dy.tensor()
    xt = torch.from_numpy(x)
    t_npu, t_cpu = compare(lambda: run("aclnnSoftmax", tx, -1, ty), lambda: torch.softmax(xt, -1), opts.repeat)
    report("softmax (4096, 1024)", t_npu, t_cpu, 0.7)
    np.testing.assert_allclose(dy.to_numpy(), torch.softmax(xt, -1).numpy(), rtol=1e-5, atol=1e-7)

    dw, db_ = sim.DeviceArray.from_numpy(w), sim.DeviceArray.from_numpy(bias)
    mean, rstd = sim.DeviceArray.empty((4096, 1), sim.ACL_FLOAT), sim.DeviceArray.empty((4096, 1), sim.ACL_FLOAT)
    tw, tbias, tmean, trstd = dw.tensor(), db_.tensor(), mean.tensor(), rstd.tensor()
    norm = sim.IntArray([1024])
    wt, bt = torch.from_numpy(w), torch.from_numpy(bias)
    t_npu, t_cpu = compare(lambda: run("aclnnLayerNorm", tx, norm, tw, tbias, 1e-5, ty, tmean, trstd),
                           lambda: torch.nn.functional.layer_norm(xt, (1024,), wt, bt, 1e-5), opts.repeat)
    report("layer_norm (4096, 1024)", t_npu, t_cpu, 0.7)
    want = torch.nn.functional.layer_norm(xt, (1024,), wt, bt, 1e-5).numpy()
    np.testing.assert_allclose(dy.to_numpy(), want, rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    main()
