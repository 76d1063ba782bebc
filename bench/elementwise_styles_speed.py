"""Speed of the two ways of writing an elementwise kernel on the simulator, measured in one run
on the same ops, sizes and dtypes: per-op functor kernels (the operator a compile-time functor
on the storage-type tiles) against one op-code kernel (the operator chosen per tile by a switch,
run on compute-type tiles: float16 cast to float32 and back). Prints each time and the ratio
opcode / functor (> 1: the functor kernel is faster), and each style's geometric mean per dtype.

    build/venvs/v2.13/bin/python bench/elementwise_styles_speed.py [--repeat N]

Both styles come from bench/elementwise_styles_kernels.cpp, built here against the headers and
libascendcl.so of the installed ascendc_kernels with the package's compiler flags, so they run
on the same simulator with the same tiling and launch path. The package's own elementwise
kernels are written in the style these numbers chose (see packages/ascendc-kernels/README.md);
`--check-package` also times the package's aclnnAdd/aclnnAbs on the same inputs, and `--floor`
times, at the shape of bench/npu_families_speed.py, a kernel that only moves a binary kernel's
data through the unified buffer (copy-through: no vector instruction) next to the package's
aclnnAdd and torch's binary ops on the CPU: no binary elementwise kernel of this model can be
faster than the copy-through kernel, so CPU / copy-through ("bound") is the highest ratio the
families bench can show for that op.
Each time is the fastest of --repeat runs of launch + stream synchronisation (the least
disturbed by other work on a shared machine), the styles alternating so that both see the
same load.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "packages" / "ascendc-kernels" / "tests"))

import ascendc_kernels  # noqa: E402
import ascendc_kernels_testing as sim  # noqa: E402
import numpy as np  # noqa: E402

OPS = {"add": 0, "muls": 1, "abs": 2}  # the op codes of elementwise_styles_kernels.cpp
MULS_VALUE = np.float32(2.5)
DTYPES = {"float32": (sim.ACL_FLOAT, np.float32), "float16": (sim.ACL_FLOAT16, np.float16)}
SIZES = (4 * 1024, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024)
# The package's compiler flags (packages/ascendc-kernels/CMakeLists.txt).
CXX_FLAGS = ["-std=c++17", "-O3", "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off", "-Wall", "-Wextra"]


def build_kernels(out_dir: Path) -> ctypes.CDLL:
    compiler = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        raise SystemExit("a C++ compiler (g++) is needed to build bench/elementwise_styles_kernels.cpp")
    lib_dir = ascendc_kernels.get_library_dir()
    out = out_dir / "libelementwise_styles.so"
    subprocess.run([compiler, *CXX_FLAGS, "-shared", "-fPIC", "-I", ascendc_kernels.get_include(),
                    str(HERE / "elementwise_styles_kernels.cpp"), "-L", lib_dir, "-lascendcl",
                    f"-Wl,-rpath,{lib_dir}", "-o", str(out)], check=True)
    lib = ctypes.CDLL(str(out))
    for name in ("bench_functor_launch", "bench_opcode_launch"):
        fn = getattr(lib, name)
        fn.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                       ctypes.c_uint64, ctypes.c_void_p]
        fn.restype = ctypes.c_int
    lib.bench_copy_through_launch.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                                              ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p]
    lib.bench_copy_through_launch.restype = ctypes.c_int
    return lib


def alternate(fns: list[Callable[[], None]], repeat: int) -> list[float]:
    """The fastest seconds of each of `fns`, timed in turn so that all see the same machine load."""
    for _ in range(3):
        for fn in fns:
            fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, spent in zip(fns, times):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
    return [min(t) for t in times]


def launch_and_sync(libs: sim.Libraries, launch: Callable, code: int, acl_type: int, inputs: tuple,
                    y: sim.DeviceArray, n: int, stream: int) -> None:
    """One launch of a style's kernel on `stream`, then the wait for it."""
    sim.check(launch(code, acl_type, inputs[0].ptr, inputs[1].ptr, y.ptr, n, stream))
    sim.check(libs.aclrtSynchronizeStream(stream))


def run_aclnn_and_sync(libs: sim.Libraries, api: str, args: tuple, stream: int) -> None:
    """Both phases of a workspace-free aclnn api on `stream`, then the wait for it."""
    rc, size, executor = sim.aclnn_workspace(api, *args)
    sim.check(rc, api)
    assert size == 0, size
    sim.check(getattr(libs.opapi, api)(None, 0, executor, stream), api)
    sim.check(libs.aclrtSynchronizeStream(stream))


def expected(op: str, x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
    wide0, wide1 = x0.astype(np.float32), x1.astype(np.float32)
    result = {"add": lambda: wide0 + wide1, "muls": lambda: wide0 * MULS_VALUE, "abs": lambda: np.abs(wide0)}[op]()
    return result.astype(x0.dtype)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=31, help="timed runs per case (default: %(default)s)")
    parser.add_argument("--check-package", action="store_true",
                        help="also time the package's aclnnAdd and aclnnAbs on the same inputs")
    parser.add_argument("--floor", action="store_true",
                        help="only the copy-through floor against aclnnAdd and torch's CPU add")
    opts = parser.parse_args()

    libs = sim.load()
    sim.check(libs.aclInit(None))
    sim.check(libs.aclrtSetDevice(0))
    stream_handle = ctypes.c_void_p()
    sim.check(libs.aclrtCreateStream(ctypes.byref(stream_handle)))
    stream = stream_handle.value
    with tempfile.TemporaryDirectory() as tmp:
        kernels = build_kernels(Path(tmp))
    if opts.floor:
        copy_through_floor(libs, kernels, stream, opts.repeat)
        libs.aclrtDestroyStream(stream)
        return 0
    print(f"ascendc_kernels {ascendc_kernels.__version__} from {Path(ascendc_kernels.__file__).parent}; "
          f"{libs.aclsimGetCoreNumAiv()} simulated cores; best of {opts.repeat} runs")
    print(f"{'op':<6}{'dtype':<9}{'elements':>10}{'functor us':>13}{'opcode us':>12}{'opcode/functor':>16}")

    rng = np.random.default_rng(0)
    ratios: dict[str, list[float]] = {name: [] for name in DTYPES}
    for dtype_name, (acl_type, np_type) in DTYPES.items():
        for op, code in OPS.items():
            for n in SIZES:
                x0 = rng.standard_normal(n).astype(np_type)
                x1 = rng.standard_normal(n).astype(np_type)
                d0, d1 = sim.DeviceArray.from_numpy(x0), sim.DeviceArray.from_numpy(x1)
                y_functor, y_opcode = sim.DeviceArray.empty((n,), acl_type), sim.DeviceArray.empty((n,), acl_type)

                run = functools.partial(launch_and_sync, libs, code=code, acl_type=acl_type, inputs=(d0, d1), n=n,
                                        stream=stream)
                t_functor, t_opcode = alternate([functools.partial(run, kernels.bench_functor_launch, y=y_functor),
                                                 functools.partial(run, kernels.bench_opcode_launch, y=y_opcode)],
                                                opts.repeat)
                want = expected(op, x0, x1)
                for y in (y_functor, y_opcode):
                    np.testing.assert_array_equal(y.to_numpy(), want)
                ratio = t_opcode / t_functor
                ratios[dtype_name].append(ratio)
                print(f"{op:<6}{dtype_name:<9}{n:>10}{t_functor * 1e6:>13.1f}{t_opcode * 1e6:>12.1f}{ratio:>16.2f}")
                for array in (d0, d1, y_functor, y_opcode):
                    array.free()
    for dtype_name, values in ratios.items():
        mean = math.exp(statistics.fmean(math.log(r) for r in values))
        print(f"geometric mean opcode/functor, {dtype_name}: {mean:.2f}")

    if opts.check_package:
        check_package(libs, kernels, stream, opts.repeat)
    libs.aclrtDestroyStream(stream)
    return 0


def check_package(libs: sim.Libraries, kernels: ctypes.CDLL, stream: int, repeat: int) -> None:
    """The package's aclnnAdd / aclnnAbs (dense, same dtype: one elementwise kernel launch each) next to
    the two styles on the same inputs."""
    print(f"\n{'package':<14}{'dtype':<9}{'elements':>10}{'aclnn us':>11}{'functor us':>13}{'opcode us':>12}")
    rng = np.random.default_rng(1)
    for dtype_name, (acl_type, np_type) in DTYPES.items():
        for op, api in (("add", "aclnnAdd"), ("abs", "aclnnAbs")):
            for n in SIZES:
                x0, x1 = rng.standard_normal(n).astype(np_type), rng.standard_normal(n).astype(np_type)
                d0, d1, y = sim.DeviceArray.from_numpy(x0), sim.DeviceArray.from_numpy(x1), \
                    sim.DeviceArray.empty((n,), acl_type)
                t0, t1, ty = d0.tensor(), d1.tensor(), y.tensor()
                alpha = sim.Scalar(1.0)
                args = (t0, t1, alpha, ty) if op == "add" else (t0, ty)

                style = functools.partial(launch_and_sync, libs, code=OPS[op], acl_type=acl_type, inputs=(d0, d1),
                                          y=y, n=n, stream=stream)
                t_pkg, t_functor, t_opcode = alternate(
                    [functools.partial(run_aclnn_and_sync, libs, api, args, stream),
                     functools.partial(style, kernels.bench_functor_launch),
                     functools.partial(style, kernels.bench_opcode_launch)], repeat)
                print(f"{api:<14}{dtype_name:<9}{n:>10}{t_pkg * 1e6:>11.1f}{t_functor * 1e6:>13.1f}"
                      f"{t_opcode * 1e6:>12.1f}")
                for array in (d0, d1, y):
                    array.free()


FAMILIES_SHAPE = (4096, 1024)  # bench/npu_families_speed.py's ROWS x COLS
# torch's CPU ops of bench/npu_families_speed.py that read one or two tensors of the shape (their
# arity) and write one: none of their npu kernels can take less time than the copy-through kernel
# of that arity (addcmul reads three: its bound from two is generous).
CPU_OPS: dict[str, tuple[int, Callable]] = {
    "exp": (1, lambda torch, x, y: torch.exp(x)),
    "sigmoid": (1, lambda torch, x, y: torch.sigmoid(x)),
    "clamp": (1, lambda torch, x, y: torch.clamp(x, -1.0, 1.0)),
    "round": (1, lambda torch, x, y: torch.round(x)),
    "add": (2, lambda torch, x, y: torch.add(x, y)),
    "mul": (2, lambda torch, x, y: torch.mul(x, y)),
    "div": (2, lambda torch, x, y: torch.div(x, y)),
    "lerp": (2, lambda torch, x, y: torch.lerp(x, y, 0.3)),
    "addcmul": (2, lambda torch, x, y: torch.addcmul(x, y, y, value=0.5)),
}
FAMILIES_TARGET = 0.8


def copy_through_floor(libs: sim.Libraries, kernels: ctypes.CDLL, stream: int, repeat: int) -> None:
    """The copy-through kernels (a unary and a binary kernel's data movement alone) and the package's
    aclnnAdd next to torch's CPU ops (a new result each call, as the families bench times them) on the
    same values, fastest of `repeat`, all timed in turn. cpu/copy-through ("bound") is the highest ratio
    any npu kernel of that op can show in the families bench."""
    import torch  # the label's environment has it; the other modes do not need it

    n = FAMILIES_SHAPE[0] * FAMILIES_SHAPE[1]
    print(f"{libs.aclsimGetCoreNumAiv()} simulated cores, torch {torch.__version__} on "
          f"{torch.get_num_threads()} CPU threads; {n} elements; fastest of {repeat} runs")
    print(f"{'dtype':<9}{'op':<9}{'cpu us':>9}{'copy-through us':>17}{'bound':>8}   (aclnnAdd us)")
    rng = np.random.default_rng(2)
    out_of_reach = []
    for dtype_name, (acl_type, np_type) in DTYPES.items():
        x0 = rng.standard_normal(n).astype(np_type)
        x1 = (rng.random(n) * 3.9 + 0.1).astype(np_type)  # a positive divisor, as the families bench's
        d0, d1 = sim.DeviceArray.from_numpy(x0), sim.DeviceArray.from_numpy(x1)
        y_add, y_copy = sim.DeviceArray.empty((n,), acl_type), sim.DeviceArray.empty((n,), acl_type)
        args = (d0.tensor(), d1.tensor(), sim.Scalar(1.0), y_add.tensor())
        c0, c1 = torch.from_numpy(x0).reshape(FAMILIES_SHAPE), torch.from_numpy(x1).reshape(FAMILIES_SHAPE)

        def copy_through(arity: int, acl_type=acl_type, d0=d0, d1=d1, y_copy=y_copy) -> None:
            sim.check(kernels.bench_copy_through_launch(arity, acl_type, d0.ptr, d1.ptr, y_copy.ptr, n, stream))
            sim.check(libs.aclrtSynchronizeStream(stream))

        cpu_ops = [functools.partial(fn, torch, c0, c1) for _, fn in CPU_OPS.values()]
        t_unary, t_binary, t_add, *t_cpu = alternate(
            [functools.partial(copy_through, 1), functools.partial(copy_through, 2),
             functools.partial(run_aclnn_and_sync, libs, "aclnnAdd", args, stream), *cpu_ops], repeat)
        np.testing.assert_array_equal(y_copy.to_numpy(), x0)
        np.testing.assert_array_equal(y_add.to_numpy(), torch.add(c0, c1).reshape(-1).numpy())
        for (op, (arity, _)), t in zip(CPU_OPS.items(), t_cpu):
            floor = t_unary if arity == 1 else t_binary
            bound = t / floor
            if bound < FAMILIES_TARGET:
                out_of_reach.append(f"{op} ({dtype_name}) {bound:.2f}x")
            extra = f"   ({t_add * 1e6:.1f})" if op == "add" else ""
            print(f"{dtype_name:<9}{op:<9}{t * 1e6:>9.1f}{floor * 1e6:>17.1f}{bound:>7.2f}x{extra}")
        for array in (d0, d1, y_add, y_copy):
            array.free()
    print(f"bound below the families target {FAMILIES_TARGET}x (out of reach for any kernel on this host): "
          + (", ".join(out_of_reach) or "none"))

if __name__ == "__main__":
    sys.exit(main())
