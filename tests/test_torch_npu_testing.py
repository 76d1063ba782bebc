"""torch_npu.testing: operator test files written in upstream torch_npu's idioms (tests/torch_npu_style/)
run here as they are, as scripts with the CPU fallback forbidden: each instantiated test passes, the
tests a decorator skips are skipped for the right reason, and comparisons that are wrong on purpose
fail. Then the assertions and helpers themselves, in process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unittest
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
import torch_npu
from torch_npu.testing.common_utils import check_operators_in_prof, create_common_tensor, create_dtype_tensor
from torch_npu.testing.decorator import Dtypes, Formats, instantiate_tests
from torch_npu.testing.testcase import TestCase

STYLE = Path(__file__).resolve().parent / "torch_npu_style"

# unittest -v: "test_x (__main__.TestY.test_x) ... ok" (3.11+) or "test_x (__main__.TestY) ... ok".
OUTCOME = re.compile(r"""^(test\w+) \(__main__\.(\w+)(?:\.\w+)?\) \.\.\. (ok|FAIL|ERROR|skipped ['"](.*)['"])$""", re.M)

# What kineto logs around a profile, one line each: "USDT:<date> <pid>:<tid> <file>:<line>] profiler_start"
# (2.13), "STAGE:...] Completed Stage: Warm Up" (2.1), "ERROR:...] gpuGetDeviceCount failed ..." (a CUDA
# build of 2.14 on a machine without a GPU).
PROFILER_NOTICE = re.compile(r"(?:USDT|STAGE|ERROR|WARNING|INFO):\d{4}-\d\d-\d\d [\d:]+ \d+:\d+ [\w.]+:\d+\] [^\n]*\n")


def run_style_file(name: str, *selection: str, **env: str) -> tuple[int, dict[str, str], str]:
    """Runs tests/torch_npu_style/<name> as upstream runs its tests; returns the exit status, each
    test's outcome ("TestAdd.test_add_dtype_float32" -> "ok", "FAIL", "ERROR" or "skipped: <reason>")
    and unittest's report."""
    result = subprocess.run(
        [sys.executable, str(STYLE / name), "-v", *selection], cwd=STYLE, capture_output=True, text=True,
        timeout=300, env={**os.environ, "NPU_FALLBACK": "error", **env},
    )
    report = PROFILER_NOTICE.sub("", result.stderr)  # kineto's lines may split a test's line
    outcomes = {f"{cls}.{test}": (f"skipped: {reason}" if status.startswith("skipped") else status)
                for test, cls, status, reason in OUTCOME.findall(report)}
    return result.returncode, outcomes, result.stdout + result.stderr


PASSING = [
    "TestAdd.test_add_shape_format", "TestAdd.test_add_broadcast", "TestAdd.test_add_alpha_scalar",
    *(f"TestAdd.test_add_dtype_{d}" for d in ("float32", "float16", "int32", "bfloat16")),
    *(f"TestMulAbs.test_mul_format_{d}_{f}" for d in ("float32", "float16") for f in (2, 29)),
    "TestMulAbs.test_abs_float32", "TestMulAbs.test_abs_int32", "TestMulAbs.test_sum_with_precision",
    "TestMulAbs.test_neg_on_910b_float32", "TestMulAbs.test_neg_on_910b_float16",
    "TestDevicesAndVersions.test_sub_on_910b", "TestDevicesAndVersions.test_div_on_any_reporting_cann",
    "TestProfiledOperators.test_add_shows_in_the_profile",
]


def test_an_upstream_style_operator_test_file_runs_as_it_is() -> None:
    status, outcomes, report = run_style_file("test_elementwise_ops.py")
    assert status == 0, report
    expected = {name: "ok" for name in PASSING}
    expected["TestDevicesAndVersions.test_only_on_other_socs"] = (
        "skipped: runs only on ['Ascend310P', 'Ascend910_93']; this device is Ascend910B")
    expected["TestDevicesAndVersions.test_maximum_on_cann_9"] = (
        "skipped: needs CANN 9.0.0 or newer; this toolkit has 8.5.0")
    assert outcomes == expected, report  # every dtype/format instance, and no uninstantiated method


@pytest.mark.parametrize(("cann", "maximum", "div"), [
    ("9.0.0", "ok", "ok"),
    ("8.5.0.alpha2", "skipped: needs CANN 9.0.0 or newer; this toolkit has 8.5.0.alpha2", "ok"),
    ("8.1.RC1", "skipped: needs CANN 9.0.0 or newer; this toolkit has 8.1.RC1", "ok"),
])
def test_cann_version_decides_what_runs(cann: str, maximum: str, div: str) -> None:
    status, outcomes, report = run_style_file("test_elementwise_ops.py", "TestDevicesAndVersions",
                                              NPU_SIM_CANN_VERSION=cann)
    assert status == 0, report
    assert outcomes["TestDevicesAndVersions.test_maximum_on_cann_9"] == maximum, report
    assert outcomes["TestDevicesAndVersions.test_div_on_any_reporting_cann"] == div, report


def test_the_test_device_comes_from_set_npu_device() -> None:
    status, outcomes, report = run_style_file("test_elementwise_ops.py", "TestAdd.test_add_alpha_scalar",
                                              SET_NPU_DEVICE="1")
    assert status == 0 and outcomes == {"TestAdd.test_add_alpha_scalar": "ok"}, report


def test_wrong_comparisons_fail() -> None:
    status, outcomes, report = run_style_file("test_wrong_results.py")
    assert status == 1, report
    wrong = [*(f"TestWrongResults.test_add_compared_with_sub_{d}" for d in ("float32", "float16", "bfloat16", "int32")),
             "TestWrongResults.test_one_element_off_in_a_small_tensor", "TestWrongResults.test_dtype_differs",
             "TestWrongResults.test_shape_differs", "TestWrongResults.test_nan_where_cpu_has_none",
             "TestWrongResults.test_assert_equal_beyond_prec",
             "TestWrongResults.test_expects_an_operator_that_did_not_run"]
    assert outcomes == dict.fromkeys(wrong, "FAIL"), report  # FAIL, not ERROR: the assertion itself caught it


# ---- the assertions and helpers, in process ----

class _Probe(TestCase):
    def runTest(self) -> None:  # noqa: N802  (unittest's name)
        pass


@pytest.fixture
def case() -> TestCase:
    return _Probe()


def test_assert_rtol_equal_allows_a_fraction_prec_of_outliers(case: TestCase) -> None:
    expected = np.ones(20000, dtype=np.float32)
    actual = expected.copy()
    actual[:2] = 2.0  # 2 outliers: exactly 20000 * 1e-4
    case.assertRtolEqual(expected, actual)
    actual[2] = 2.0
    with pytest.raises(AssertionError, match="3 of 20000 elements differ by more than 0.0001"):
        case.assertRtolEqual(expected, actual)


def test_assert_rtol_equal_tolerances(case: TestCase) -> None:
    x = torch.tensor([1000.0, 1.0, 0.0])
    case.assertRtolEqual(x, x * (1 + 5e-5))  # relative error within prec
    case.assertRtolEqual(x, x + 5e-5)  # absolute error within prec
    with pytest.raises(AssertionError):
        case.assertRtolEqual(x, x * (1 + 5e-4))
    case.assertRtolEqual(x.half(), (x * (1 + 5e-4)).half())  # float16 compares at prec16
    case.assertRtolEqual(x, x * (1 + 5e-4), prec=1e-3)
    special = torch.tensor([float("inf"), float("-inf"), float("nan"), 1.0])
    case.assertRtolEqual(special, special.clone())
    with pytest.raises(AssertionError, match="NaNs at different places"):
        case.assertRtolEqual(special, special.nan_to_num())
    case.assertRtolEqual(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1, 2], dtype=torch.float32),
                         auto_trans_dtype=True)
    case.assertRtolEqual([torch.ones(2), 3.0], [torch.ones(2), 3.0])
    with pytest.raises(AssertionError, match="bools differ"):
        case.assertRtolEqual(torch.tensor([True, False]), torch.tensor([True, True]))
    with pytest.raises(AssertionError, match="custom message"):
        case.assertRtolEqual(torch.ones(2), torch.zeros(2), message="custom message")


def test_assert_rtol_equal_reads_npu_tensors(case: TestCase) -> None:
    cpu, npu = create_common_tensor([np.float32, 29, (5, 7)], -1, 1)
    case.assertRtolEqual(torch.add(cpu, cpu), torch.add(npu, npu))
    with pytest.raises(AssertionError):
        case.assertRtolEqual(torch.add(cpu, cpu), torch.mul(npu, npu))


def test_assert_equal_with_prec(case: TestCase) -> None:
    case.assertEqual(1.0, 1.0 + 5e-6)
    with pytest.raises(AssertionError):
        case.assertEqual(1.0, 1.0 + 5e-5)
    case.assertEqual(1.0, 1.0 + 5e-5, prec=1e-4)
    case.precision = 1e-4
    case.assertEqual(1.0, 1.0 + 5e-5)
    a = torch.tensor([1.0, float("nan"), 3.0])
    case.assertEqual(a, a.clone().npu())
    case.assertEqual(a, a + 1e-3, prec=1e-2)
    with pytest.raises(AssertionError, match="what differs"):
        case.assertEqual(a, a + 1e-3, "what differs")  # a string third argument is the message
    with pytest.raises(AssertionError):
        case.assertEqual(torch.ones(2, 3), torch.ones(3, 2))
    case.assertEqual(torch.ones(2, dtype=torch.int32), torch.ones(2))  # exact_dtype is False
    with pytest.raises(AssertionError):
        case.assertEqual(torch.ones(2, dtype=torch.int32), torch.ones(2), exact_dtype=True)
    inf = torch.tensor([float("inf"), 1.0])
    case.assertEqual(inf, inf.clone(), allow_inf=True)
    with pytest.raises(AssertionError, match="expected finite values"):
        case.assertEqual(float("inf"), float("-inf"))
    case.assertEqual({"a": 1.0, "b": [torch.ones(1)]}, {"b": [torch.ones(1)], "a": 1.0})
    case.assertEqual("text", "text")
    case.assertNotEqual(torch.ones(2), torch.zeros(2))
    with pytest.raises(AssertionError):
        case.assertNotEqual(torch.ones(2), torch.ones(2))
    case.assertAlmostEqual(1.0, 1.004, places=2)


def test_instantiate_tests_names_and_arguments() -> None:
    seen = []

    @instantiate_tests
    class Cases(unittest.TestCase):
        @Dtypes(torch.float, torch.int8)
        @Formats(2, 29)
        def test_op(self, device, dtype, npu_format):
            seen.append((device, dtype, npu_format))

        def test_plain(self):
            seen.append("plain")

    names = sorted(n for n in dir(Cases) if n.startswith("test_"))
    assert names == ["test_op_float32_2", "test_op_float32_29", "test_op_int8_2", "test_op_int8_29", "test_plain"]
    result = unittest.TextTestRunner(stream=open(os.devnull, "w")).run(  # noqa: SIM115
        unittest.defaultTestLoader.loadTestsFromTestCase(Cases))
    assert result.wasSuccessful() and result.testsRun == 5
    assert sorted(map(str, seen)) == sorted(map(str, [("npu", torch.float32, 2), ("npu", torch.float32, 29),
                                                      ("npu", torch.int8, 2), ("npu", torch.int8, 29), "plain"]))
    with pytest.raises(RuntimeError, match="one parameter whose name contains 'dtype', several"):
        instantiate_tests(type("Ambiguous", (), {"test_x": Dtypes(torch.float)(lambda self, dtype, in_dtype: None)}))
    with pytest.raises(RuntimeError, match="Unknown dtype|expected torch dtypes"):
        Dtypes("float32")


def test_create_common_tensor_casts_to_the_format() -> None:
    Format = torch_npu.Format
    for fmt, shape, stored in ((-1, (4, 5), Format.ND), (0, (2, 16, 3, 3), Format.NCHW),
                               (3, (2, 16, 3, 3), Format.NC1HWC0), (29, (17, 33), Format.FRACTAL_NZ)):
        cpu, npu = create_common_tensor([np.float16, fmt, shape], -2, 2)
        assert (cpu.dtype, cpu.device.type, tuple(cpu.shape)) == (torch.float16, "cpu", shape)
        assert (npu.dtype, npu.device, torch_npu.get_npu_format(npu)) == (torch.float16, torch.device("npu:0"), stored)
        assert torch.equal(npu.cpu(), cpu) and cpu.min() >= -2 and cpu.max() < 2


@pytest.mark.parametrize("dtype", [torch.float, torch.half, torch.bfloat16, torch.int32, torch.int64, torch.bool])
def test_create_dtype_tensor(dtype: torch.dtype) -> None:
    cpu, npu = create_dtype_tensor((64, 16), dtype, no_zero=True, min_value=-3, max_value=3)
    assert cpu.dtype == npu.dtype == dtype and npu.device.type == "npu"
    assert torch.equal(npu.cpu(), cpu)
    if dtype != torch.bool:
        assert not (cpu == 0).any() and cpu.min() >= -3 and cpu.max() <= 3
    nz = create_dtype_tensor((16, 16), dtype, npu_format=29)[1]
    assert torch_npu.get_npu_format(nz) == (29 if dtype.is_floating_point else 2)


def test_check_operators_in_prof_reads_the_profile() -> None:
    x = torch.randn(4).npu()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        torch.mul(x, x)
    assert check_operators_in_prof(["mul.Tensor"], prof)
    assert check_operators_in_prof(["npu::mul.Tensor", "aten::mul"], prof)
    assert not check_operators_in_prof(["add.Tensor"], prof)
    assert not check_operators_in_prof(["mul.Tensor"], prof, unexpected_operators=["aten::mul"])
    expected = ["mul.Tensor"]
    check_operators_in_prof(expected, prof)
    assert expected == ["mul.Tensor"]  # the caller's list is left as it was
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as empty:
        pass
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert not check_operators_in_prof([], empty)
    assert "the profile is empty" in str(caught[0].message)
