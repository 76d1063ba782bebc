"""EXEC_NPU_CMD is checked at compile time against the simulator's aclnn declarations
(ascendc-kernels' abi/aclnn/*.decl, installed as ascendc_sim/aclnn_declarations.h): a call of a
declared api with an argument its parameter does not take, or with another number of
arguments, fails the build at the call's line, naming the api and the parameter; an api the
toolkit does not declare still compiles (it is looked up at run time, as on a real toolkit)."""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="needs g++")

PROLOGUE = """#include "npu/op_api/op_api_common.h"
void call(const at::Tensor& self, const at::Tensor& other, const c10::Scalar& alpha, at::Tensor& out) {
  (void)self, (void)other, (void)alpha, (void)out;
"""

CALLS = {
    "declared_and_right": "  EXEC_NPU_CMD(aclnnAdd, self, other, alpha, out);\n",
    "int_for_double": (
        "  EXEC_NPU_CMD(aclnnLayerNorm, self, at::IntArrayRef{2}, other, other, int64_t{1}, out, out, out);\n"
    ),
    "not_declared": "  EXEC_NPU_CMD(aclnnNotInThisToolkit, self, 1.5, out);\n",
    "tensor_for_scalar": "  EXEC_NPU_CMD(aclnnAdd, self, other, other, out);\n",
    "argument_missing": "  EXEC_NPU_CMD(aclnnAdd, self, other, out);\n",
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess]:
    import ascendc_kernels
    from torchnpugen.compat import cxx_std_flag, torch_include_dirs

    include = Path(ascendc_kernels.get_include())
    if not (include / "ascendc_sim" / "aclnn_declarations.h").is_file():
        pytest.fail(f"{include} has no ascendc_sim/aclnn_declarations.h: the ascendc-kernels build writes it")
    directory = tmp_path_factory.mktemp("aclnn_calls")
    command = [os.environ.get("CXX", "g++"), cxx_std_flag(), "-fsyntax-only", "-Wall", "-Wextra"]
    for path in torch_include_dirs():
        command += ["-isystem", str(path)]
    command += ["-I", str(REPO / "packages" / "opplugin-runtime" / "csrc"), "-I", str(include)]

    def one(name: str) -> tuple[str, subprocess.CompletedProcess]:
        source = directory / f"{name}.cpp"
        source.write_text(PROLOGUE + CALLS[name] + "}\n")
        return name, subprocess.run([*command, str(source)], capture_output=True, text=True, timeout=900)

    with ThreadPoolExecutor(max_workers=max(1, min(3, os.cpu_count() or 1))) as pool:
        return dict(pool.map(one, CALLS))


@pytest.mark.parametrize("name", ["declared_and_right", "int_for_double", "not_declared"])
def test_a_call_the_declarations_allow_compiles_cleanly(compiled, name):
    result = compiled[name]
    assert result.returncode == 0 and not result.stderr, result.stderr[-3000:]


def test_an_argument_of_the_wrong_kind_fails_naming_call_api_and_parameter(compiled):
    result = compiled["tensor_for_scalar"]
    assert result.returncode != 0
    assert "tensor_for_scalar.cpp:4:" in result.stderr  # the EXEC_NPU_CMD line
    assert "aclnn_declared::aclnnAdd::alpha" in result.stderr
    assert "does not convert to the aclnn parameter declared for it" in result.stderr


def test_a_missing_argument_fails_naming_call_and_api(compiled):
    result = compiled["argument_missing"]
    assert result.returncode != 0
    assert "argument_missing.cpp:4:" in result.stderr
    assert "aclnn_declared::aclnnAdd" in result.stderr
    assert "the number of arguments differs from the aclnn declaration" in result.stderr
