"""The Ascend C API subset (kernel_operator.h): vector instructions and the
float16/bfloat16 value types, exercised by a user kernel."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np


def test_vector_instructions_match_numpy(acl, stream, test_kernels):
    rng = np.random.default_rng(0)
    a = rng.uniform(-4, 4, 64).astype(np.float32)
    b = rng.uniform(0.5, 4, 64).astype(np.float32) * rng.choice([-1, 1], 64).astype(np.float32)
    x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.empty((16, 64), sim.ACL_FLOAT)
    sim.check(test_kernels.test_launch_vector_ops(x.ptr, y.ptr, out.ptr, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    r = out.peek()
    expected = [
        a + b, a - b, a * b, a / b, np.maximum(a, b), np.minimum(a, b), np.abs(a), np.exp(a),
        np.log(np.abs(a) + 1), np.sqrt(np.abs(a)), np.maximum(a, 0), a + 2, a * 3,
        a.astype(np.float16).astype(np.float32), np.full(64, 7.0, np.float32), a + np.float32(0.5) * b,
    ]
    names = ["Add", "Sub", "Mul", "Div", "Max", "Min", "Abs", "Exp", "Ln", "Sqrt", "Relu", "Adds", "Muls",
             "Cast", "Duplicate", "Axpy"]
    for k, (name, want) in enumerate(zip(names, expected)):
        np.testing.assert_allclose(r[k], want.astype(np.float32), rtol=1e-6, atol=1e-6, err_msg=name)


def test_float16_and_bfloat16_conversions_round_to_nearest_even(acl):
    # Through the device: float32 -> float16/bfloat16 -> float32 with aclnnInplaceCopy.
    values = np.array([0.0, -0.0, 1.0, 65504.0, 65520.0, 1e-8, 5.96e-8, 3.14159, -2.5e-5, np.inf, -np.inf,
                       1.0009765625, 1.00048828125, 3.0e38], dtype=np.float32)
    src = sim.DeviceArray.from_numpy(values)
    h = sim.DeviceArray.empty(values.shape, sim.ACL_FLOAT16)
    bf = sim.DeviceArray.empty(values.shape, sim.ACL_BF16)
    sim.check(sim.run_aclnn("aclnnInplaceCopy", h.tensor(), src.tensor()))
    sim.check(sim.run_aclnn("aclnnInplaceCopy", bf.tensor(), src.tensor()))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(h.to_numpy(), values.astype(np.float16))
    np.testing.assert_array_equal(bf.to_numpy(), sim.float_to_bf16_bits(values))
    nan = sim.DeviceArray.from_numpy(np.array([np.nan], dtype=np.float32))
    sim.check(sim.run_aclnn("aclnnInplaceCopy", h.tensor(shape=(1,)), nan.tensor()))
    assert np.isnan(h.to_numpy()[0])


def test_compare_select_reductions_and_rsqrt_match_numpy(acl, stream, test_kernels):
    rng = np.random.default_rng(1)
    for n in (9, 13, 200):  # partial mask bytes, a partial 16-lane step, several steps
        a = rng.uniform(-4, 4, n).astype(np.float32)
        b = rng.uniform(-4, 4, n).astype(np.float32)
        a[n // 2] = 9.5  # a unique maximum
        x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
        out = sim.DeviceArray.empty((5, n), sim.ACL_FLOAT)
        sim.check(test_kernels.test_launch_compare_reduce(x.ptr, y.ptr, out.ptr, n, stream))
        sim.check(acl.aclrtSynchronizeStream(stream))
        r = out.peek()
        np.testing.assert_array_equal(r[0], np.where(a < b, a, b), err_msg="Compare LT + Select")
        np.testing.assert_array_equal(r[1], np.where(a > 0, a, np.float32(-1)), err_msg="CompareScalar GT + Select")
        np.testing.assert_allclose(r[2], 1 / np.sqrt(np.abs(a) + 1), rtol=1e-6, err_msg="Rsqrt")
        bits = np.packbits(a > 0, bitorder="little")
        np.testing.assert_array_equal(r[3], bits[np.arange(n) // 8].astype(np.float32), err_msg="mask bytes")
        np.testing.assert_allclose(r[4][0], a.astype(np.float64).sum(), rtol=1e-5, atol=1e-5, err_msg="ReduceSum")
        assert r[4][1] == a.max() and r[4][2] == np.argmax(a), "ReduceMax with index"
        assert r[4][3] == a.min() and r[4][4] == np.argmin(a), "ReduceMin with index"


def test_exp_is_accurate_over_the_float_range(acl, stream, test_kernels):
    # Exp (vectorised polynomial) against numpy, including overflow, underflow to subnormals, inf and NaN.
    a = np.concatenate([np.linspace(-110, 90, 56, dtype=np.float32),
                        np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 88.7, -87.5, 1e-8], np.float32)])
    x = sim.DeviceArray.from_numpy(a)
    y = sim.DeviceArray.from_numpy(np.ones(64, np.float32))
    out = sim.DeviceArray.empty((16, 64), sim.ACL_FLOAT)
    sim.check(test_kernels.test_launch_vector_ops(x.ptr, y.ptr, out.ptr, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    with np.errstate(over="ignore", under="ignore"):
        want = np.exp(a.astype(np.float64)).astype(np.float32)
    got = out.peek()[7]
    normal = np.abs(want) >= np.finfo(np.float32).tiny
    np.testing.assert_allclose(got[normal], want[normal], rtol=3e-7)
    np.testing.assert_allclose(got[~normal], want[~normal], rtol=0, atol=2e-45)
    assert np.isnan(got[np.isnan(a)]).all()


def test_cube_path_mmad_matches_numpy(acl, stream, test_kernels):
    rng = np.random.default_rng(2)
    for m, n, k in [(1, 1, 2), (16, 16, 16), (7, 13, 29), (64, 64, 64), (33, 40, 17)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
        dc = sim.DeviceArray.empty((m, n), sim.ACL_FLOAT)
        sim.check(test_kernels.test_launch_mmad_tile(da.ptr, db.ptr, dc.ptr, m, n, k, stream))
        sim.check(acl.aclrtSynchronizeStream(stream))
        np.testing.assert_allclose(dc.peek(), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4,
                                   err_msg=f"{m}x{k} @ {k}x{n}")


def test_l0a_overflow_fails_the_launch_naming_the_memory(acl, stream, test_kernels):
    sim.check(test_kernels.test_launch_over_l0a(stream))
    assert acl.aclrtSynchronizeStream(stream) == sim.ACL_ERROR_RT_AICORE_EXCEPTION
    message = sim.recent_error()
    assert "kernel 'over_l0a_kernel' failed" in message
    assert "requested 66560 bytes (1 x 66560) of L0A buffer but only 65536 of 65536 bytes" in message


_SIMD_SCRIPT = """
import sys
import numpy as np
import ascendc_kernels_testing as sim
libs = sim.load()
sim.check(libs.aclInit(None))
sim.check(libs.aclrtSetDevice(0))
rng = np.random.default_rng(0)
x = rng.uniform(-30, 30, (37, 1001)).astype(np.float32)
dx, dy = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
sim.check(sim.run_aclnn("aclnnSoftmax", dx.tensor(), -1, dy.tensor()))
w = rng.standard_normal(1001).astype(np.float32)
dw, dn = sim.DeviceArray.from_numpy(w), sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
sim.check(sim.run_aclnn("aclnnLayerNorm", dx.tensor(), sim.IntArray([1001]), dw.tensor(), dw.tensor(), 1e-5,
                        dn.tensor(), None, None))
a, b = rng.standard_normal((70, 300)).astype(np.float32), rng.standard_normal((300, 90)).astype(np.float32)
da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
dc = sim.DeviceArray.empty((70, 90), sim.ACL_FLOAT)
sim.check(sim.run_aclnn("aclnnMm", da.tensor(), db.tensor(), dc.tensor(), 0))
np.savez(sys.argv[1], softmax=dy.to_numpy(), layer_norm=dn.to_numpy(), mm=dc.to_numpy())
"""


def _run_on_every_simd_level(script: str, tmp_path, *args: str) -> dict:
    """The arrays `script` saves to its first argument, run once per ASCEND_SIM_SIMD level."""
    import os
    import subprocess
    import sys

    results = {}
    for level in ("baseline", "avx2", "avx512"):
        out = tmp_path / f"{level}.npz"
        env = dict(os.environ, ASCEND_SIM_SIMD=level)
        subprocess.run([sys.executable, "-c", script, str(out), *args], check=True, env=env)
        results[level] = np.load(out)
    return results


def test_vector_unit_gives_the_same_bits_on_every_simd_level(tmp_path):
    # ASCEND_SIM_SIMD caps the host SIMD of the vector and cube units: the vector unit's float
    # ops (exp, sums, arithmetic) must not depend on it; the cube's sums may round differently.
    from pathlib import Path

    results = _run_on_every_simd_level(_SIMD_SCRIPT, tmp_path)
    for level in ("avx2", "avx512"):
        for name in ("softmax", "layer_norm"):
            np.testing.assert_array_equal(results[level][name], results["baseline"][name], err_msg=f"{name} {level}")
        np.testing.assert_allclose(results[level]["mm"], results["baseline"]["mm"], rtol=1e-5, atol=1e-4)
    cpuinfo = Path("/proc/cpuinfo")
    cpu_flags = cpuinfo.read_text().split() if cpuinfo.exists() else []
    if "avx512f" in cpu_flags:  # the cap took effect: the AVX-512 cube fuses its multiply-adds
        assert not np.array_equal(results["avx512"]["mm"], results["baseline"]["mm"])


_TRANSPOSE_SCRIPT = """
import ctypes
import sys
import numpy as np
import ascendc_kernels_testing as sim
f = sim.load().acl.aclsimCubeTranspose
f.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32] + [ctypes.c_uint32] * 3
rng = np.random.default_rng(0)
out = {}
for dtype in (np.uint32, np.uint16):
    for rows, cols, pad in ((1, 1, 0), (8, 8, 0), (13, 29, 3), (64, 128, 8), (128, 17, 5), (7, 200, 1)):
        src = rng.integers(0, np.iinfo(dtype).max, (rows, cols + pad), dtype=dtype)
        dst = np.zeros((cols, rows + pad), dtype=dtype)
        assert f(dst.ctypes.data, rows + pad, src.ctypes.data, cols + pad, rows, cols, src.itemsize) == 0
        assert (dst[:, :rows] == src[:, :cols].T).all(), (dtype, rows, cols)
        assert (dst[:, rows:] == 0).all()
        out[f"{np.dtype(dtype).name}_{rows}_{cols}"] = dst
np.savez(sys.argv[1], **out)
"""


def test_cube_transposing_load_moves_the_bits_on_every_simd_level(tmp_path):
    results = _run_on_every_simd_level(_TRANSPOSE_SCRIPT, tmp_path)
    for level in ("avx2", "avx512"):
        for name in results["baseline"].files:
            np.testing.assert_array_equal(results[level][name], results["baseline"][name], err_msg=f"{name} {level}")


_CAST_SCRIPT = """
import sys
import numpy as np
import ascendc_kernels_testing as sim
libs = sim.load()
sim.check(libs.aclInit(None))
sim.check(libs.aclrtSetDevice(0))
def convert(values, src_type, dst_type):
    src = sim.DeviceArray.from_numpy(values, src_type)
    dst = sim.DeviceArray.empty(values.shape, dst_type)
    sim.check(sim.run_aclnn("aclnnInplaceCopy", dst.tensor(), src.tensor()))
    return dst.to_numpy()
halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)[:-3]  # not a multiple of the SIMD width
floats = np.load(sys.argv[2])
np.savez(sys.argv[1], f16_f32=convert(halves.view(np.float16), sim.ACL_FLOAT16, sim.ACL_FLOAT),
         bf16_f32=convert(halves, sim.ACL_BF16, sim.ACL_FLOAT),
         f32_f16=convert(floats.view(np.float32), sim.ACL_FLOAT, sim.ACL_FLOAT16),
         f32_bf16=convert(floats.view(np.float32), sim.ACL_FLOAT, sim.ACL_BF16))
"""


def _float32_bit_patterns() -> np.ndarray:
    # every exponent with the mantissas around float16's and bfloat16's rounding points, and random bits
    exponents = np.arange(512, dtype=np.uint32) << 23
    mantissas = np.array([0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x3000, 0x7fff, 0x8000, 0x8001, 0x18000,
                          0x400000, 0x401000, 0x7fe000, 0x7fefff, 0x7ff000, 0x7fffff], dtype=np.uint32)
    near = (exponents[:, None] | mantissas[None, :]).ravel()
    random = np.random.default_rng(0).integers(0, 1 << 32, 200_001, dtype=np.uint64).astype(np.uint32)
    return np.concatenate([near, random])


def test_float16_and_bfloat16_casts_are_ieee_and_the_same_on_every_simd_level(tmp_path):
    # The vector unit converts with F16C where the host has it, else bit by bit: the same bits
    # either way, numpy's (IEEE, nearest even) for numbers, fixed NaN patterns.
    floats = _float32_bit_patterns()
    np.save(tmp_path / "floats.npy", floats)
    results = _run_on_every_simd_level(_CAST_SCRIPT, tmp_path, str(tmp_path / "floats.npy"))
    for level in ("avx2", "avx512"):
        for name in ("f16_f32", "bf16_f32", "f32_f16", "f32_bf16"):
            np.testing.assert_array_equal(results[level][name].view(np.uint8), results["baseline"][name].view(np.uint8),
                                          err_msg=f"{name} {level}")
    got = results["baseline"]
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)[:-3]
    f16 = halves.view(np.float16)
    numbers = ~np.isnan(f16)
    np.testing.assert_array_equal(got["f16_f32"][numbers], f16[numbers].astype(np.float32))
    nan_bits = got["f16_f32"][~numbers].view(np.uint32)  # quiet, payload and sign kept
    expected = ((halves[~numbers].astype(np.uint32) & 0x8000) << 16) | 0x7fc00000 | (
        (halves[~numbers].astype(np.uint32) & 0x3ff) << 13)
    np.testing.assert_array_equal(nan_bits, expected)
    np.testing.assert_array_equal(got["bf16_f32"].view(np.uint32), halves.astype(np.uint32) << 16)
    f32 = floats.view(np.float32)
    numbers = ~np.isnan(f32)
    with np.errstate(over="ignore"):
        expected = f32[numbers].astype(np.float16)
    np.testing.assert_array_equal(got["f32_f16"][numbers].view(np.uint16), expected.view(np.uint16))
    np.testing.assert_array_equal(got["f32_f16"][~numbers].view(np.uint16),
                                  ((floats[~numbers] >> 16) & 0x8000).astype(np.uint16) | 0x7e00)
    rounded = (floats.astype(np.uint64) + 0x7fff + ((floats >> 16) & 1)) >> 16
    np.testing.assert_array_equal(got["f32_bf16"][numbers], rounded[numbers].astype(np.uint16))
    np.testing.assert_array_equal(got["f32_bf16"][~numbers], ((floats[~numbers] >> 16) | 0x40).astype(np.uint16))


_COMPARE_SELECT_SCRIPT = """
import ctypes
import sys
import numpy as np
import ascendc_kernels_testing as sim
acl = sim.load().acl
p = ctypes.c_void_p
acl.aclsimVectorCompareF32.argtypes = [ctypes.c_int, p, p, p, ctypes.c_float, ctypes.c_uint32]
acl.aclsimVectorSelectB32.argtypes = [p, p, p, p, ctypes.c_uint32, ctypes.c_uint32]
acl.aclsimVectorMulAddDstF32.argtypes = [p, p, p, ctypes.c_uint32]
acl.aclsimVectorUnaryF32.argtypes = [ctypes.c_int, p, p, ctypes.c_float, ctypes.c_uint32]
acl.aclsimVectorFloorDivide.argtypes = [ctypes.c_int, p, p, p, ctypes.c_uint32]
specials = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3e38, 0.5], np.float32)
rng = np.random.default_rng(1)
a = np.concatenate([np.repeat(specials, specials.size), rng.choice(specials, 1000)]).astype(np.float32)
b = np.concatenate([np.tile(specials, specials.size), rng.choice(specials, 1000)]).astype(np.float32)
c = rng.standard_normal(a.size).astype(np.float32)
n = a.size - 5  # a partial last mask byte
out = {}
for mode in range(6):
    mask = np.full((n + 7) // 8, 0xff, np.uint8)
    acl.aclsimVectorCompareF32(mode, mask.ctypes.data, a.ctypes.data, b.ctypes.data, 0.0, n)
    out[f"compare{mode}"] = mask.copy()
    acl.aclsimVectorCompareF32(mode, mask.ctypes.data, a.ctypes.data, None, 0.5, n)
    out[f"scalar{mode}"] = mask.copy()
    selected = np.zeros(n, np.float32)
    acl.aclsimVectorSelectB32(selected.ctypes.data, out[f"compare{mode}"].ctypes.data, a.ctypes.data, b.ctypes.data,
                              0, n)
    out[f"select{mode}"] = selected.copy()
    acl.aclsimVectorSelectB32(selected.ctypes.data, out[f"compare{mode}"].ctypes.data, a.ctypes.data, None,
                              0x3f800000, n)
    out[f"select_scalar{mode}"] = selected.copy()
rounding = np.concatenate([a, (c * 4).astype(np.float32), np.float32([0.5, -0.5, 1.5, -2.5, 8388607.5, -8388607.5])])
for op in range(8):  # maxs, mins, reciprocal, ceil, floor, round, trunc, sigmoid (of -0.5 x)
    src = a[:n] if op < 3 else rounding
    result = np.zeros(src.size, np.float32)
    acl.aclsimVectorUnaryF32(op, result.ctypes.data, src.ctypes.data, 0.5, src.size)
    out[f"unary{op}"] = result
quotients = np.zeros(n, np.float32)
divisors = np.where(rng.random(a.size) < 0.5, b, c).astype(np.float32)
acl.aclsimVectorFloorDivide(sim.ACL_FLOAT, quotients.ctypes.data, a.ctypes.data, divisors.ctypes.data, n)
out["floor_divide"] = quotients
out["divisors"] = divisors[:n]
with np.errstate(over="ignore"):
    halves = [np.concatenate([v, (c * 300).astype(np.float32)]).astype(np.float16) for v in (a, divisors)]
for name, dtype, pair in (("f16", sim.ACL_FLOAT16, halves),
                          ("bf16", sim.ACL_BF16, [(np.concatenate([v, c * 300]).astype(np.float32).view(np.uint32)
                                                   >> 16).astype(np.uint16) for v in (a, divisors)])):
    result = np.zeros(pair[0].size, np.uint16)
    acl.aclsimVectorFloorDivide(dtype, result.ctypes.data, pair[0].ctypes.data, pair[1].ctypes.data, result.size)
    out[f"floor_divide_{name}"] = result
fused = c.copy()
acl.aclsimVectorMulAddDstF32(fused.ctypes.data, a.ctypes.data, b.ctypes.data, n)
np.savez(sys.argv[1], a=a[:n], b=b[:n], c=c[:n], rounding=rounding, fused=fused[:n], **out)
"""


def test_compares_selects_and_elementwise_float_ops_of_the_vector_unit(tmp_path):
    # Mask bits as C's comparisons give them (NaN unequal, the last byte's unused bits 0), selects of
    # the bits, Maxs/Mins/Reciprocal/Ceil/Floor/Round/Trunc, Python's floor division (float16 and
    # bfloat16 too), one rounding for the multiply-add: the same bits on every SIMD level.
    results = _run_on_every_simd_level(_COMPARE_SELECT_SCRIPT, tmp_path)
    for level in ("avx2", "avx512"):
        for name in results["baseline"].files:
            np.testing.assert_array_equal(results[level][name].view(np.uint8), results["baseline"][name].view(np.uint8),
                                          err_msg=f"{name} {level}")
    got = results["baseline"]
    a, b, c = got["a"], got["b"], got["c"]
    compares = (np.less, np.greater, np.equal, np.less_equal, np.greater_equal, np.not_equal)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        for mode, compare in enumerate(compares):
            expected = compare(a, b)
            np.testing.assert_array_equal(got[f"compare{mode}"], np.packbits(expected, bitorder="little"))
            np.testing.assert_array_equal(got[f"scalar{mode}"], np.packbits(compare(a, np.float32(0.5)),
                                                                            bitorder="little"))
            np.testing.assert_array_equal(got[f"select{mode}"].view(np.uint32),
                                          np.where(expected, a, b).view(np.uint32))
            np.testing.assert_array_equal(got[f"select_scalar{mode}"], np.where(expected, a, np.float32(1)))
        np.testing.assert_array_equal(got["unary0"], np.where(a < 0.5, np.float32(0.5), a))  # NaN kept
        np.testing.assert_array_equal(got["unary1"], np.where(a < 0.5, a, np.float32(0.5)))
        np.testing.assert_array_equal(got["unary2"], np.float32(1) / a)
        for op, rounded in zip(range(3, 7), (np.ceil, np.floor, np.rint, np.trunc)):
            np.testing.assert_array_equal(got[f"unary{op}"].view(np.uint32), rounded(got["rounding"]).view(np.uint32))
        expected = np.floor_divide(a, got["divisors"])
        numbers = ~np.isnan(expected)
        np.testing.assert_array_equal(got["floor_divide"][numbers].view(np.uint32), expected[numbers].view(np.uint32))
        assert np.isnan(got["floor_divide"][~numbers]).all()
        exact = a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)  # exact for these values
        finite = np.isfinite(exact)
        np.testing.assert_array_equal(got["fused"][finite], exact[finite].astype(np.float32))


_NORM_ROWS_SCRIPT = """
import ctypes
import sys
import numpy as np
import ascendc_kernels_testing as sim
acl = sim.load().acl
p, f = ctypes.c_void_p, ctypes.c_float
acl.aclsimVectorNormalizeF32.argtypes = [p, p, f, f, p, p, ctypes.c_uint32]
acl.aclsimVectorExpShiftSumF32.argtypes = [p, p, f, ctypes.c_uint32]
acl.aclsimVectorExpShiftSumF32.restype = f
acl.aclsimVectorScalarF32.argtypes = [ctypes.c_int, p, p, f, ctypes.c_uint32]
acl.aclsimVectorBinaryF32.argtypes = [ctypes.c_int, p, p, p, ctypes.c_uint32]
acl.aclsimVectorExpF32.argtypes = [p, p, ctypes.c_uint32]
acl.aclsimVectorReduceSumF32.argtypes = [p, ctypes.c_uint32]
acl.aclsimVectorReduceSumF32.restype = f
ADD, MUL = 0, 2
rng = np.random.default_rng(3)
n = 1037  # not a multiple of any SIMD width
x = np.concatenate([rng.uniform(-90, 90, n - 6), [np.inf, -np.inf, np.nan, 0.0, -0.0, 3e38]]).astype(np.float32)
g, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
out = {}
for name, gamma, beta in (("both", g, b), ("gamma", g, None), ("beta", None, b), ("none", None, None)):
    fused, steps = np.empty(n, np.float32), np.empty(n, np.float32)
    pointers = [None if v is None else v.ctypes.data for v in (gamma, beta)]
    acl.aclsimVectorNormalizeF32(fused.ctypes.data, x.ctypes.data, 1.25, 0.37, *pointers, n)
    acl.aclsimVectorScalarF32(ADD, steps.ctypes.data, x.ctypes.data, -1.25, n)
    acl.aclsimVectorScalarF32(MUL, steps.ctypes.data, steps.ctypes.data, 0.37, n)
    if gamma is not None:
        acl.aclsimVectorBinaryF32(MUL, steps.ctypes.data, steps.ctypes.data, gamma.ctypes.data, n)
    if beta is not None:
        acl.aclsimVectorBinaryF32(ADD, steps.ctypes.data, steps.ctypes.data, beta.ctypes.data, n)
    out["normalize_" + name], out["normalize_steps_" + name] = fused, steps
for shift in (0.0, 42.5, -np.inf):
    fused, steps = np.empty(n, np.float32), np.empty(n, np.float32)
    total = acl.aclsimVectorExpShiftSumF32(fused.ctypes.data, x.ctypes.data, shift, n)
    acl.aclsimVectorScalarF32(ADD, steps.ctypes.data, x.ctypes.data, -shift, n)
    acl.aclsimVectorExpF32(steps.ctypes.data, steps.ctypes.data, n)
    out[f"exp_{shift}"], out[f"exp_steps_{shift}"] = fused, steps
    out[f"sum_{shift}"] = np.float32([total, acl.aclsimVectorReduceSumF32(steps.ctypes.data, n)])
np.savez(sys.argv[1], **out)
"""



def test_normalization_row_instructions_give_the_bits_of_the_steps_they_fuse(tmp_path):
    # layer norm's (x - mean) * rstd * gamma + beta and softmax's exp(x - shift) with its sum in one
    # pass each: the bits of Adds/Muls/Mul/Add and Adds/Exp/ReduceSum, the same on every SIMD level.
    results = _run_on_every_simd_level(_NORM_ROWS_SCRIPT, tmp_path)
    got = results["baseline"]
    for name in got.files:
        if "steps" in name:
            fused = name.replace("steps_", "")
            np.testing.assert_array_equal(got[fused].view(np.uint32), got[name].view(np.uint32), err_msg=name)
        if name.startswith("sum_"):
            np.testing.assert_array_equal(got[name][0:1].view(np.uint32), got[name][1:2].view(np.uint32), err_msg=name)
    for level in ("avx2", "avx512"):
        for name in got.files:
            np.testing.assert_array_equal(results[level][name].view(np.uint8), got[name].view(np.uint8),
                                          err_msg=f"{name} {level}")


_TWO_BYTE_BINARY_SCRIPT = """
import ctypes
import sys
import numpy as np
import ascendc_kernels_testing as sim
acl = sim.load().acl
p = ctypes.c_void_p
acl.aclsimVectorBinaryB16.argtypes = [ctypes.c_int, ctypes.c_int, p, p, p, ctypes.c_uint32]
acl.aclsimVectorBinaryF32.argtypes = [ctypes.c_int, p, p, p, ctypes.c_uint32]
acl.aclsimVectorCastToF32.argtypes = [ctypes.c_int, p, p, ctypes.c_uint32]
acl.aclsimVectorCastFromF32.argtypes = [ctypes.c_int, p, p, ctypes.c_uint32]
acl.aclsimVectorClampB16.argtypes = [ctypes.c_int, p, p, ctypes.c_float, ctypes.c_float, ctypes.c_uint32]
acl.aclsimVectorUnaryF32.argtypes = [ctypes.c_int, p, p, ctypes.c_float, ctypes.c_uint32]
acl.aclsimVectorRoundB16.argtypes = [ctypes.c_int, ctypes.c_int, p, p, ctypes.c_uint32]
rng = np.random.default_rng(2)
every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
a = np.concatenate([every] * 3)
b = np.concatenate([rng.permutation(every) for _ in range(3)])
n = a.size - 5  # a tail shorter than one register
out = {"a": a[:n], "b": b[:n]}
for name, dtype in (("f16", sim.ACL_FLOAT16), ("bf16", sim.ACL_BF16)):
    for op in range(6):  # add, sub, mul, div, max, min
        fused = np.zeros(n, np.uint16)
        acl.aclsimVectorBinaryB16(dtype, op, fused.ctypes.data, a.ctypes.data, b.ctypes.data, n)
        in_place = a[:n].copy()
        acl.aclsimVectorBinaryB16(dtype, op, in_place.ctypes.data, in_place.ctypes.data, b.ctypes.data, n)
        fa, fb = np.zeros(n, np.float32), np.zeros(n, np.float32)
        acl.aclsimVectorCastToF32(dtype, fa.ctypes.data, a.ctypes.data, n)
        acl.aclsimVectorCastToF32(dtype, fb.ctypes.data, b.ctypes.data, n)
        acl.aclsimVectorBinaryF32(op, fa.ctypes.data, fa.ctypes.data, fb.ctypes.data, n)
        steps = np.zeros(n, np.uint16)
        acl.aclsimVectorCastFromF32(dtype, steps.ctypes.data, fa.ctypes.data, n)
        out.update({f"{name}_{op}": fused, f"{name}_{op}_in_place": in_place, f"{name}_{op}_steps": steps})
    for k, (lo, hi) in enumerate(((-1.0, 1.0), (-0.3333333, 0.7777777), (0.5, -0.5), (-0.0, 0.0), (1e-8, 7e4))):
        clamped = np.zeros(n, np.uint16)
        acl.aclsimVectorClampB16(dtype, clamped.ctypes.data, a.ctypes.data, lo, hi, n)
        fa = np.zeros(n, np.float32)
        acl.aclsimVectorCastToF32(dtype, fa.ctypes.data, a.ctypes.data, n)
        bounded = fa.copy()
        acl.aclsimVectorUnaryF32(0, bounded.ctypes.data, bounded.ctypes.data, lo, n)  # Maxs
        acl.aclsimVectorUnaryF32(1, bounded.ctypes.data, bounded.ctypes.data, hi, n)  # Mins
        bounded = np.where(np.isnan(fa), fa, bounded)
        steps = np.zeros(n, np.uint16)
        acl.aclsimVectorCastFromF32(dtype, steps.ctypes.data, bounded.ctypes.data, n)
        out.update({f"{name}_clamp{k}": clamped, f"{name}_clamp{k}_steps": steps})
    for op in range(3, 7):  # ceil, floor, round, trunc
        rounded = np.zeros(n, np.uint16)
        acl.aclsimVectorRoundB16(dtype, op, rounded.ctypes.data, a.ctypes.data, n)
        fa = np.zeros(n, np.float32)
        acl.aclsimVectorCastToF32(dtype, fa.ctypes.data, a.ctypes.data, n)
        acl.aclsimVectorUnaryF32(op, fa.ctypes.data, fa.ctypes.data, 0.0, n)
        steps = np.zeros(n, np.uint16)
        acl.aclsimVectorCastFromF32(dtype, steps.ctypes.data, fa.ctypes.data, n)
        out.update({f"{name}_round{op}": rounded, f"{name}_round{op}_steps": steps})
np.savez(sys.argv[1], **out)
"""


def test_float16_and_bfloat16_arithmetic_rounds_the_float32_result_once_on_every_simd_level(tmp_path):
    # Add/Sub/Mul/Div/Max/Min, clamp and Ceil/Floor/Round/Trunc on 2-byte floats (every bit pattern,
    # specials and subnormals included, in place too): the bits of the float32 instructions between the
    # casts they replace, on every level, and numpy's correctly rounded float16 results for + - * /.
    results = _run_on_every_simd_level(_TWO_BYTE_BINARY_SCRIPT, tmp_path)
    got = results["baseline"]

    def is_nan(v, kind):
        exponent = 0x7C00 if kind == "f16" else 0x7F80
        return ((v & exponent) == exponent) & ((v & (0x7FFF ^ exponent)) != 0)

    def same(actual, desired, name, message):
        # Of two NaN operands IEEE 754 leaves open which one a sum or product returns, and compilers may
        # swap the commutative operands (an instrumented build did): any NaN there; every other bit equal.
        kind, op = (name.split("_") + [""])[:2]
        if kind not in ("f16", "bf16") or op not in ("0", "2") or actual.size != got["a"].size:
            np.testing.assert_array_equal(actual, desired, err_msg=message)
            return
        free = is_nan(got["a"], kind) & is_nan(got["b"], kind)
        np.testing.assert_array_equal(actual[~free], desired[~free], err_msg=message)
        assert (is_nan(actual[free], kind) & is_nan(desired[free], kind)).all(), message

    for level in ("avx2", "avx512"):
        for name in results["baseline"].files:
            same(results[level][name], results["baseline"][name], name, f"{name} {level}")
    for name in ("f16", "bf16"):
        for op in range(6):
            same(got[f"{name}_{op}"], got[f"{name}_{op}_steps"], f"{name}_{op}", f"{name} {op}")
            same(got[f"{name}_{op}_in_place"], got[f"{name}_{op}"], f"{name}_{op}", f"{name} {op}")
        for k in range(5):
            np.testing.assert_array_equal(got[f"{name}_clamp{k}"], got[f"{name}_clamp{k}_steps"], err_msg=f"{name} {k}")
        for op in range(3, 7):
            np.testing.assert_array_equal(got[f"{name}_round{op}"], got[f"{name}_round{op}_steps"],
                                          err_msg=f"{name} {op}")
    a, b = got["a"].view(np.float16), got["b"].view(np.float16)
    with np.errstate(all="ignore"):
        for op, fn in enumerate((np.add, np.subtract, np.multiply, np.divide)):
            expected = fn(a, b)
            numbers = ~np.isnan(expected)
            np.testing.assert_array_equal(got[f"f16_{op}"].view(np.float16)[numbers], expected[numbers],
                                          err_msg=str(op))
            assert np.isnan(got[f"f16_{op}"].view(np.float16)[~numbers]).all()
