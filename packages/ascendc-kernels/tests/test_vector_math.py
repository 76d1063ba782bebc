"""The vector unit's float32 math functions through the elementwise kernel: error in ulps against
the float64 value over wide ranges, libm's special values (signed zeros, infinities, NaN,
subnormals, huge arguments) and the same bits on every SIMD level."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import ascendc_kernels_testing as sim
import numpy as np
import pytest

MAX_ULPS = 1.0  # the double computation rounds to the correctly rounded float or its neighbour
TINY = np.float32(1.4e-45)


def unary(api: str, a: np.ndarray) -> np.ndarray:
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty(a.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn(api, x.tensor(), out.tensor()))
    return out.to_numpy()


def power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    b, e = sim.DeviceArray.from_numpy(base), sim.DeviceArray.from_numpy(exponent)
    out = sim.DeviceArray.empty(base.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnPowTensorTensor", b.tensor(), e.tensor(), out.tensor()))
    return out.to_numpy()


def ulp_error(got: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """|got - exact| in units of the float32 spacing at the exact value (finite results only)."""
    rounded = np.abs(exact).astype(np.float32)
    spacing = np.spacing(rounded).astype(np.float64)
    return np.abs(got.astype(np.float64) - exact) / spacing


def magnitudes(rng: np.random.Generator, low: float, high: float, n: int) -> np.ndarray:
    """n values log-uniform in [low, high] with random signs, as float32."""
    v = np.exp(rng.uniform(math.log(low), math.log(high), n)) * rng.choice([-1.0, 1.0], n)
    return v.astype(np.float32)


def _erf(x: np.ndarray) -> np.ndarray:
    return np.array([math.erf(v) for v in x.astype(np.float64)])


def _erfc(x: np.ndarray) -> np.ndarray:
    return np.array([math.erfc(v) for v in x.astype(np.float64)])


def _gelu(x: np.ndarray) -> np.ndarray:
    return x * 0.5 * _erfc(-x / math.sqrt(2.0))


# api, float64 reference, domain of the random arguments (low, high magnitude; or an interval)
FUNCTIONS = [
    ("aclnnSin", np.sin, (1e-30, 3e38)),
    ("aclnnCos", np.cos, (1e-30, 3e38)),
    ("aclnnTan", np.tan, (1e-30, 3e38)),
    ("aclnnLog", np.log, (1e-45, 3.4e38)),
    ("aclnnLog2", np.log2, (1e-45, 3.4e38)),
    ("aclnnLog10", np.log10, (1e-45, 3.4e38)),
    ("aclnnLog1p", np.log1p, (1e-45, 3.4e38)),
    ("aclnnExp2", np.exp2, (1e-30, 160.0)),
    ("aclnnExpm1", np.expm1, (1e-30, 110.0)),
    ("aclnnTanh", np.tanh, (1e-30, 30.0)),
    ("aclnnErf", _erf, (1e-30, 12.0)),
    ("aclnnErfc", _erfc, (1e-30, 12.0)),
    ("aclnnGelu", _gelu, (1e-30, 30.0)),
    ("aclnnSinh", np.sinh, (1e-30, 100.0)),
    ("aclnnCosh", np.cosh, (1e-30, 100.0)),
    ("aclnnAsinh", np.arcsinh, (1e-45, 3.4e38)),
    ("aclnnAcosh", np.arccosh, (1e-30, 3.4e38)),
    ("aclnnAtanh", np.arctanh, (1e-30, 1.0)),
    ("aclnnAtan", np.arctan, (1e-45, 3.4e38)),
    ("aclnnAsin", np.arcsin, (1e-45, 1.0)),
    ("aclnnAcos", np.arccos, (1e-45, 1.0)),
]
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, TINY, -TINY, 1e-40, -1e-40, 1.0, -1.0, 0.5, -0.5, 2.0,
                    -2.0, 1e-8, -1e-8, 3e38, -3e38, 1048575.9, 1048576.0, -1048577.0, 1e30, -1e30],
                   dtype=np.float32)


def _arguments(api: str, domain: tuple, rng: np.random.Generator) -> np.ndarray:
    low, high = domain
    wide = magnitudes(rng, low, high, 40000)
    near = rng.uniform(-8, 8, 40000).astype(np.float32)
    x = np.concatenate([wide, near, SPECIAL])
    if api in ("aclnnLog", "aclnnLog2", "aclnnLog10"):
        x = np.concatenate([x, np.abs(wide), rng.uniform(0.5, 2.0, 20000).astype(np.float32)])
    if api in ("aclnnLog1p", "aclnnAtanh", "aclnnAsin", "aclnnAcos"):
        x = np.concatenate([x, np.abs(wide), rng.uniform(-1, 1, 20000).astype(np.float32)])
    if api == "aclnnAcosh":
        x = np.concatenate([x, 1 + np.abs(wide), rng.uniform(1, 1.001, 20000).astype(np.float32)])
    return x


@pytest.mark.parametrize("api, reference, domain", FUNCTIONS, ids=[f[0] for f in FUNCTIONS])
def test_math_function_within_two_ulps_with_libm_special_values(acl, api, reference, domain):
    rng = np.random.default_rng(7)
    x = _arguments(api, domain, rng)
    got = unary(api, x)
    with np.errstate(all="ignore"):
        exact = reference(x.astype(np.float64))
        expected = exact.astype(np.float32)
    finite = np.isfinite(expected) & (np.abs(exact) < 3.4e38)
    errors = ulp_error(got[finite], exact[finite])
    worst = int(np.argmax(errors))
    arg, value, want = x[finite][worst], got[finite][worst], exact[finite][worst]
    assert errors[worst] <= MAX_ULPS, f"{api}({arg!r}) = {value!r}, exact {want!r}"
    # special results exactly: infinities, NaN, and the sign of zeros (not of NaN)
    special = ~finite | (expected == 0)
    np.testing.assert_array_equal(got[special], expected[special], err_msg=api)
    zero = expected == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(expected[zero]), err_msg=api)


def test_power_within_two_ulps_with_pow_special_values(acl):
    rng = np.random.default_rng(11)
    n = 60000
    base = np.abs(magnitudes(rng, 1e-45, 3.4e38, n))
    exponent = rng.uniform(-40, 40, n).astype(np.float32)
    small = rng.uniform(0, 4, n).astype(np.float32)
    small_exponent = rng.uniform(-10, 10, n).astype(np.float32)
    specials = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, np.inf, -np.inf, np.nan, TINY, -3.0], dtype=np.float32)
    sb, se = np.meshgrid(specials, np.concatenate([specials, np.float32([3.0, -3.0, 0.5, 1e30, 2.5])]))
    b = np.concatenate([base, small, sb.ravel()]).astype(np.float32)
    e = np.concatenate([exponent, small_exponent, se.ravel()]).astype(np.float32)
    got = power(b, e)
    with np.errstate(all="ignore"):
        exact = np.power(b.astype(np.float64), e.astype(np.float64))
        expected = exact.astype(np.float32)
    finite = np.isfinite(expected) & (np.abs(exact) < 3.4e38)
    errors = ulp_error(got[finite], exact[finite])
    worst = int(np.argmax(errors))
    assert errors[worst] <= MAX_ULPS, f"pow({b[finite][worst]!r}, {e[finite][worst]!r}) = {got[finite][worst]!r}"
    special = ~finite | (expected == 0)
    np.testing.assert_array_equal(got[special], expected[special])
    zero = expected == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(expected[zero]))


_SIMD_SCRIPT = """
import sys
import numpy as np
import ascendc_kernels_testing as sim
libs = sim.load()
sim.check(libs.aclInit(None))
sim.check(libs.aclrtSetDevice(0))
rng = np.random.default_rng(3)
x = np.concatenate([rng.uniform(-30, 30, 5000), np.exp(rng.uniform(-100, 88, 5000))]).astype(np.float32)
results = {}
for api in sys.argv[2:]:
    dx, dy = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn(api, dx.tensor(), dy.tensor()))
    results[api] = dy.to_numpy()
dx, de, dy = (sim.DeviceArray.from_numpy(np.abs(x)), sim.DeviceArray.from_numpy(x[::-1].copy() / 7),
              sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT))
sim.check(sim.run_aclnn("aclnnPowTensorTensor", dx.tensor(), de.tensor(), dy.tensor()))
results["pow"] = dy.to_numpy()
np.savez(sys.argv[1], **results)
"""


def test_math_functions_give_the_same_bits_on_every_simd_level(tmp_path):
    apis = [f[0] for f in FUNCTIONS]
    results = {}
    for level in ("baseline", "avx2", "avx512"):
        out = tmp_path / f"{level}.npz"
        env = dict(os.environ, ASCEND_SIM_SIMD=level)
        subprocess.run([sys.executable, "-c", _SIMD_SCRIPT, str(out), *apis], check=True, env=env)
        results[level] = np.load(out)
    for level in ("avx2", "avx512"):
        for name in [*apis, "pow"]:
            np.testing.assert_array_equal(results[level][name], results["baseline"][name], err_msg=f"{name} {level}")
