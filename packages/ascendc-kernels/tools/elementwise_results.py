"""Records the exact results of the elementwise kernels, to compare two builds bit for bit.

    python tools/elementwise_results.py record before.npz      # with one build installed
    python tools/elementwise_results.py record after.npz       # with the other
    python tools/elementwise_results.py compare before.npz after.npz

`record` runs every aclnn api of the elementwise families (its parameters built from the
declarations in abi/aclnn/*.decl: tensors of each kernel dtype with special values, a few
scalars and attributes) and the acl_op types Add, Mul, Axpy, Abs and Muls, and stores each
case's output bytes, or its status when the api refuses it. `compare` exits 1, naming every
case whose bytes or status differ (or that only one file has). Uses the ascendc_kernels that
Python finds (put a source tree's src/ on PYTHONPATH to record its build).
"""

from __future__ import annotations

import argparse
import ctypes
import itertools
import sys
import zlib
from pathlib import Path

import numpy as np

PACKAGE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PACKAGE / "tests"))
sys.path.insert(0, str(PACKAGE / "abi"))

import aclnn_abi  # noqa: E402
import ascendc_kernels_testing as sim  # noqa: E402

FAMILIES = ("abs", "add", "mul", "clamp_min", "unary_math", "binary_math", "activation_backward", "compare",
            "select", "isneginf", "masked_scale", "fill_scalar")
DTYPES = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16,
          "float64": sim.ACL_DOUBLE, "int8": sim.ACL_INT8, "uint8": sim.ACL_UINT8, "int16": sim.ACL_INT16,
          "int32": sim.ACL_INT32, "int64": sim.ACL_INT64, "bool": sim.ACL_BOOL}
FLOATING = {sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_BF16, sim.ACL_DOUBLE}
N = 1003  # a ragged tail: the last tile is not whole 32-byte blocks for any element size
SCALARS = {"2.5": (2.5, None), "-3": (-3, None), "nan": (float("nan"), None), "0.25f": (0.25, sim.ACL_FLOAT)}
MASK_NAMES = {"mask", "condition"}
SPECIALS = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1e-30, -1e-30, 1e30, 65504.0, 70000.0, 1.0,
            -1.0, 0.5, -0.5, 2.44e-4, 3.0e38]


def values(acl_type: int, rng: np.random.Generator, salt: int) -> np.ndarray:
    """N values of `acl_type` (float32 for bfloat16, as the bindings upload it) with special values first."""
    if acl_type == sim.ACL_BOOL:
        return rng.integers(0, 2, N).astype(bool)
    if acl_type in FLOATING:
        out = (rng.standard_normal(N) * (4.0 if salt % 2 else 40.0)).astype(np.float64)
        specials = np.array(SPECIALS, dtype=np.float64)
        out[: len(specials)] = np.roll(specials, salt)
        np_type = np.float32 if acl_type == sim.ACL_BF16 else sim.numpy_dtype(acl_type)
        with np.errstate(over="ignore", invalid="ignore"):
            return out.astype(np_type)
    info = np.iinfo(sim.numpy_dtype(acl_type))
    out = rng.integers(max(info.min, -(2**40)), min(info.max, 2**40), N, endpoint=True)
    out[:4] = [info.min, info.max, 0, -1 if info.min < 0 else 1]
    return out.astype(sim.numpy_dtype(acl_type))


def upload(array: np.ndarray, acl_type: int) -> sim.DeviceArray:
    if acl_type == sim.ACL_BF16:
        return sim.DeviceArray.from_numpy(sim.float_to_bf16_bits(array), sim.ACL_BF16)
    return sim.DeviceArray.from_numpy(array, acl_type)


def result_bytes(arrays: list[sim.DeviceArray]) -> np.ndarray:
    return np.concatenate([np.frombuffer(a.to_numpy().tobytes(), np.uint8) for a in arrays])


def run_aclnn(api: str, args: list) -> int:
    """Both phases of `api`; the first failing status (GetWorkspaceSize's or the launch's)."""
    rc, size, executor = sim.aclnn_workspace(api, *args)
    if rc != 0:
        return rc
    libs = sim.load()
    workspace = ctypes.c_void_p()
    if size:
        sim.check(libs.aclrtMalloc(ctypes.byref(workspace), size, 0))
    rc = getattr(libs.opapi, api)(workspace.value, size, executor, None)
    if size:
        libs.aclrtFree(workspace.value)
    return rc


def record_aclnn(results: dict[str, np.ndarray]) -> None:
    families = {f.name: f for f in aclnn_abi.load()}
    for family in FAMILIES:
        for api in families[family].apis:
            kinds = {p.type for p in api.params}
            scalar_variants = list(SCALARS) if "const aclScalar*" in kinds else ["-"]
            int_variants = [0, 1] if "int64_t" in kinds else [0]
            out_variants = ["same", "bool"] if any(p.direction == "out" for p in api.params) else ["same"]
            for (dtype_name, acl_type), scalar, integer, out_kind in itertools.product(
                    DTYPES.items(), scalar_variants, int_variants, out_variants):
                key = f"aclnn {api.name} {dtype_name} scalar={scalar} int={integer} out={out_kind}"
                rng = np.random.default_rng(zlib.crc32(api.name.encode()))
                args, outputs, keep = [], [], []
                for i, param in enumerate(api.params):
                    if param.type in ("const aclTensor*", "aclTensor*"):
                        if param.direction == "out":
                            t = sim.ACL_BOOL if out_kind == "bool" else acl_type
                            array = sim.DeviceArray.empty((N,), t)
                            outputs.append(array)
                        else:
                            t = sim.ACL_BOOL if param.name in MASK_NAMES else acl_type
                            array = upload(values(t, rng, i), t)
                            if param.direction == "inout":
                                outputs.append(array)
                        keep.append(array)
                        args.append(array.tensor())
                    elif param.type == "const aclScalar*":
                        value, scalar_type = SCALARS[scalar]
                        handle = sim.Scalar(value, scalar_type)
                        keep.append(handle)
                        args.append(handle)
                    elif param.type == "int64_t":
                        args.append(ctypes.c_int64(integer))
                    elif param.type in ("float", "double"):
                        args.append(0.25)
                    elif param.type == "bool":
                        args.append(False)
                    else:
                        raise SystemExit(f"{api.where}: {api.name}: no value for a parameter of type {param.type}")
                rc = run_aclnn(api.name, args)
                sync = sim.load().aclrtSynchronizeDevice()
                if rc == 0 and sync == 0:
                    results[key] = result_bytes(outputs)
                else:
                    results[key] = np.array([rc, sync], np.int64)
                del keep


def record_aclop(results: dict[str, np.ndarray]) -> None:
    cases = [("Add", 2, {}), ("Mul", 2, {}), ("Axpy", 2, {"alpha": 2.5}), ("Axpy", 2, {"alpha": -3.0}),
             ("Abs", 1, {}), ("Muls", 1, {"value": 2.5}), ("Muls", 1, {"value": -3.0})]
    for (op, arity, attrs), (dtype_name, acl_type) in itertools.product(cases, DTYPES.items()):
        key = f"aclop {op} {dtype_name} {attrs}"
        rng = np.random.default_rng(7)
        inputs = [upload(values(acl_type, rng, i), acl_type) for i in range(arity)]
        y = sim.DeviceArray.empty((N,), acl_type)
        rc = sim.run_aclop(op, [(x, (N,), acl_type) for x in inputs], [(y, (N,), acl_type)], attrs)
        sync = sim.load().aclrtSynchronizeDevice()
        results[key] = result_bytes([y]) if rc == 0 and sync == 0 else np.array([rc, sync], np.int64)


def record(path: Path) -> int:
    libs = sim.load()
    sim.check(libs.aclInit(None))
    sim.check(libs.aclrtSetDevice(0))
    results: dict[str, np.ndarray] = {}
    record_aclnn(results)
    record_aclop(results)
    np.savez_compressed(path, **results)
    ran = sum(1 for v in results.values() if v.dtype == np.uint8)
    print(f"{path}: {len(results)} cases, {ran} ran, {len(results) - ran} refused")
    return 0


def compare(before: Path, after: Path) -> int:
    a, b = np.load(before), np.load(after)
    differ = []
    for key in sorted(set(a.files) | set(b.files)):
        if key not in a.files or key not in b.files:
            differ.append(f"{key}: only in {after if key in b.files else before}")
        elif a[key].dtype != b[key].dtype or not np.array_equal(a[key], b[key]):
            differ.append(f"{key}: differs ({a[key][:8]} vs {b[key][:8]})")
    for line in differ:
        print(line)
    print(f"{len(set(a.files) | set(b.files))} cases, {len(differ)} differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run every case and store the results")
    rec.add_argument("out", type=Path)
    cmp = sub.add_parser("compare", help="exit 1 when two recordings differ")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    return record(args.out) if args.command == "record" else compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
