"""Speed of matrix multiply through the whole npu runtime (dispatcher, op_plugin,
aclnn, simulated device, synchronized) against torch on the CPU, measured in one run;
prints ratios (>= 1: npu as fast as CPU). Targets: mm 1024x1024 float32 >= 0.5x of CPU, and
within 10% of its own aclnnMm kernel called directly through the CANN ABI on the same device
tensors (no dispatcher, no op_plugin; ratio direct / runtime >= 0.9).

    build/venvs/v2.13/bin/python bench/npu_ops_speed.py   (or: nox -s bench -- v2.13 npu_ops_speed)

Also printed (no target): float16 / bfloat16 mm (CPU reference: float32 mm of the same
size), F.linear with a transposed weight and a bias (addmm), bmm, and the acl_op path
(MatMulV2). Medians over --repeat runs, npu and CPU calls alternating.
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

# torch's OpenMP threads otherwise busy-wait after each op and take the cores from the
# simulator's AI-core threads timed next (both share the same CPUs).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import opplugin_runtime  # noqa: E402, F401  (registers torch.npu)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

# The ctypes bindings of the simulator's ABI are test support of ascendc-kernels (its tests/, not its
# wheel); they load the same libascendcl.so the runtime uses, so both drive one simulated device.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "packages" / "ascendc-kernels" / "tests"))
import ascendc_kernels_testing as sim  # noqa: E402


def compare(npu: Callable[[], Any], cpu: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median seconds of npu() (synchronized) and cpu(), timed alternately."""

    def npu_synced() -> None:
        npu()
        torch.npu.synchronize()

    for _ in range(2):
        npu_synced()
        cpu()
    t_npu, t_cpu = [], []
    for _ in range(repeat):
        for fn, times in ((npu_synced, t_npu), (cpu, t_cpu)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return statistics.median(t_npu), statistics.median(t_cpu)


def report(name: str, npu: float, cpu: float, flops: float, target: float | None = None) -> None:
    ratio = cpu / npu
    goal = "" if target is None else f" (target {target}x: {'ok' if ratio >= target else 'BELOW TARGET'})"
    print(f"{name:<40} npu {npu * 1e3:8.2f} ms   cpu {cpu * 1e3:8.2f} ms   ratio {ratio:5.2f}x{goal}"
          f"   npu {flops / npu / 1e9:6.1f} GFLOP/s")


def mm_against_direct_kernel(an: torch.Tensor, bn: torch.Tensor, repeat: int) -> None:
    """torch.mm through the runtime against aclnnMm called directly (both phases, then a device sync)
    on the same device tensors, timed alternately."""
    libs = sim.load()
    out = torch.empty(an.shape[0], bn.shape[1], device=an.device)

    def acl_tensor(t: torch.Tensor) -> int:
        return sim.make_tensor(t.data_ptr(), list(t.shape), list(t.stride()), 0, sim.ACL_FLOAT, list(t.shape))

    operands = [acl_tensor(t) for t in (an, bn, out)]
    workspace = ctypes.c_void_p()
    capacity = 0

    def direct() -> None:
        nonlocal capacity
        rc, size, executor = sim.aclnn_workspace("aclnnMm", *operands, 0)
        sim.check(rc, "aclnnMmGetWorkspaceSize")
        if size > capacity:
            sim.check(libs.aclrtMalloc(ctypes.byref(workspace), size, 0), "aclrtMalloc")
            capacity = size
        sim.check(libs.opapi.aclnnMm(workspace.value if size else None, size, executor, None), "aclnnMm")
        sim.check(libs.aclrtSynchronizeDevice(), "aclrtSynchronizeDevice")

    t_runtime, t_direct = compare(lambda: torch.mm(an, bn), direct, repeat)
    torch.testing.assert_close(out.cpu(), torch.mm(an, bn).cpu(), rtol=0, atol=0)
    ratio = t_direct / t_runtime
    print(f"{'torch.mm vs aclnnMm called directly':<40} npu {t_runtime * 1e3:8.2f} ms   direct {t_direct * 1e3:8.2f} ms"
          f"   ratio {ratio:5.2f}x (target 0.9x: {'ok' if ratio >= 0.9 else 'BELOW TARGET'})")
    for handle in operands:
        libs.aclDestroyTensor(handle)
    if workspace.value:
        libs.aclrtFree(workspace.value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    opts = parser.parse_args()
    torch.manual_seed(0)
    print(f"torch {torch.__version__} with {torch.get_num_threads()} threads")
    m = 1024
    a, b = torch.randn(m, m), torch.randn(m, m)
    an, bn = a.npu(), b.npu()
    out = torch.empty(m, m)
    flops = 2.0 * m ** 3
    t_npu, t_cpu = compare(lambda: torch.mm(an, bn), lambda: torch.mm(a, b, out=out), opts.repeat)
    report("torch.mm 1024x1024 float32", t_npu, t_cpu, flops, 0.5)
    torch.testing.assert_close(torch.mm(an, bn).cpu(), a @ b, rtol=1e-4, atol=1e-3)
    mm_against_direct_kernel(an, bn, opts.repeat)

    for dtype in (torch.float16, torch.bfloat16):
        ah, bh = an.to(dtype), bn.to(dtype)
        t_npu, t_cpu = compare(lambda ah=ah, bh=bh: torch.mm(ah, bh), lambda: torch.mm(a, b, out=out), opts.repeat)
        report(f"torch.mm 1024x1024 {str(dtype).split('.')[1]} (cpu: float32)", t_npu, t_cpu, flops)

    x, w, bias = torch.randn(m, m), torch.randn(m, m), torch.randn(m)
    xn, wn, biasn = x.npu(), w.npu(), bias.npu()
    t_npu, t_cpu = compare(lambda: F.linear(xn, wn, biasn), lambda: F.linear(x, w, bias), opts.repeat)
    report("F.linear 1024x1024 float32 (w.t(), bias)", t_npu, t_cpu, flops)

    a3, b3 = torch.randn(16, 256, 256), torch.randn(16, 256, 256)
    a3n, b3n = a3.npu(), b3.npu()
    t_npu, t_cpu = compare(lambda: torch.bmm(a3n, b3n), lambda: torch.bmm(a3, b3), opts.repeat)
    report("torch.bmm 16x256x256 float32", t_npu, t_cpu, 2.0 * 16 * 256 ** 3)

    torch.npu.set_compile_mode(jit_compile=True)
    t_npu, t_cpu = compare(lambda: torch.mm(an, bn), lambda: torch.mm(a, b, out=out), opts.repeat)
    report("torch.mm 1024x1024 float32 (acl_op MatMulV2)", t_npu, t_cpu, flops)
    torch.npu.set_compile_mode(jit_compile=False)

    # The vector rows, through the whole runtime (dispatcher, op_api kernel, aclnn, simulator).
    n = 16 * 1024 * 1024
    u, v = torch.randn(n), torch.randn(n)
    un, vn = u.npu(), v.npu()
    sum_out, sum_out_n = torch.empty(n), torch.empty(n, device="npu")
    t_npu, t_cpu = compare(lambda: torch.add(un, vn, out=sum_out_n), lambda: torch.add(u, v, out=sum_out), opts.repeat)
    report("torch.add 16M float32 (out=)", t_npu, t_cpu, float(n), 0.8)
    print(f"{'':<40} npu moves {3 * 4 * n / t_npu / 1e9:.1f} GB/s (3 x 64 MiB per add)")
    rows = torch.randn(4096, 1024)
    rows_n = rows.npu()
    t_npu, t_cpu = compare(lambda: torch.softmax(rows_n, -1), lambda: torch.softmax(rows, -1), opts.repeat)
    report("torch.softmax (4096, 1024) float32", t_npu, t_cpu, 5.0 * rows.numel(), 1.0)
    torch.testing.assert_close(torch.softmax(rows_n, -1).cpu(), torch.softmax(rows, -1))
    g, beta = torch.randn(1024), torch.randn(1024)
    gn, betan = g.npu(), beta.npu()
    t_npu, t_cpu = compare(lambda: F.layer_norm(rows_n, (1024,), gn, betan),
                           lambda: F.layer_norm(rows, (1024,), g, beta), opts.repeat)
    report("F.layer_norm (4096, 1024) float32", t_npu, t_cpu, 8.0 * rows.numel(), 1.0)
    torch.testing.assert_close(F.layer_norm(rows_n, (1024,), gn, betan).cpu(), F.layer_norm(rows, (1024,), g, beta),
                               rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    main()
