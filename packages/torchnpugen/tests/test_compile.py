"""Every generated C++ file compiles (-fsyntax-only, -Wall -Wextra -Werror) against the venv's torch.

The runtime headers are tiny stubs spelling the names of contracts.md section 5;
``op_plugin/OpInterface.h`` is written by hand from contracts.md section 2 (not by
torchnpugen; the op family headers the sources include stand for it), so the test checks
both sides of the naming contract independently.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from torchnpugen_testlib import HAS_AOTI_C_SHIM, generate, make_workspace, mark_op_api

STUBS = {
    "npu/observe/OpHook.h": """\
#pragma once
namespace at_npu::native {
class OpHook {
 public:
  static OpHook& GetInstance();
  template <typename... Args>
  void PreHook(const char* op, const Args&... args);
  template <typename Result>
  void PostHook(const Result& result);
};
}  // namespace at_npu::native
""",
    "npu/dispatch/EnvVariables.h": """\
#pragma once
namespace at_npu::native::env {
bool CheckOpHookEnable();
}  // namespace at_npu::native::env
""",
    "npu/observe/NPURecordFunction.h": """\
#pragma once
namespace at_npu::native {
class NPURecordFunctionGuard {
 public:
  explicit NPURecordFunctionGuard(const char* op);
  ~NPURecordFunctionGuard();
};
}  // namespace at_npu::native
""",
    "npu/op_common/MemoryOverlap.h": """\
#pragma once
#include <ATen/core/Tensor.h>
#include <c10/util/ArrayRef.h>
namespace at_npu::native {
void check_memory_overlaps(c10::ArrayRef<at::Tensor> inputs, c10::ArrayRef<at::Tensor> outputs);
}  // namespace at_npu::native
""",
    "npu/op_common/OpErrors.h": """\
#pragma once
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/util/Optional.h>
namespace at_npu::native {
void check_npu_device(c10::optional<c10::Device>& common_device, const at::Tensor& tensor, const char* method_name,
                      const char* arg_name);
void check_npu_device(c10::optional<c10::Device>& common_device, const c10::optional<at::Tensor>& tensor,
                      const char* method_name, const char* arg_name);
void check_npu_device(c10::optional<c10::Device>& common_device, at::ITensorListRef tensors, const char* method_name,
                      const char* arg_name);
void check_npu_device(c10::optional<c10::Device>& common_device, const c10::List<c10::optional<at::Tensor>>& tensors,
                      const char* method_name, const char* arg_name);
[[noreturn]] void rethrow_naming_op(const char* op);
}  // namespace at_npu::native
""",
    "npu/dispatch/PathDecision.h": """\
#pragma once
namespace at_npu::native {
bool NpuDecideForceAclnn(const char* op);
bool NpuDecideJitDisabled(const char* op);
template <typename T>
bool NpuDecideBaseFormat(const char* op, const char* arg, const T& value);
}  // namespace at_npu::native
""",
    "npu/dispatch/PathLedger.h": """\
#pragma once
namespace at_npu::native {
void stub_path_taken(const char* op, const char* path);
}  // namespace at_npu::native
#define NPU_PATH_TAKEN(op, path) ::at_npu::native::stub_path_taken(op, #path)
""",
    "op_plugin/OpInterface.h": """\
#pragma once
#include <ATen/core/Tensor.h>
#include <ATen/core/List.h>
namespace op_plugin {
at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha = 1);
at::Tensor& add_(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha = 1);
at::Tensor& abs_(at::Tensor& self);
at::Tensor& cat_out(const at::ITensorListRef& tensors, int64_t dim, at::Tensor& out);
at::Tensor& index_put_(at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices, const at::Tensor& values, bool accumulate = false);
void _foreach_add_(at::TensorList self, at::TensorList other, const at::Scalar& alpha = 1);
::std::tuple<at::Tensor&, at::Tensor&> max_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& max, at::Tensor& max_values);
at::Tensor& arange_out(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::Tensor& out);
at::Tensor addmm(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta = 1, const at::Scalar& alpha = 1);
at::Tensor embedding(const at::Tensor& weight, const at::Tensor& indices, int64_t padding_idx = -1, bool scale_grad_by_freq = false, bool sparse = false);
at::Tensor& clamp_min_out(const at::Tensor& self, const at::Scalar& min, at::Tensor& out);
at::Tensor& clamp_min_(at::Tensor& self, const at::Scalar& min);
at::Tensor& mul_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out);
at::Tensor npu_add_relu(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha = 1);
at::Tensor& npu_add_relu_(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha = 1);
at::Tensor& npu_add_relu_out(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha, at::Tensor& out);
at::Tensor npu_scatter_sum(at::TensorList inputs, at::IntArrayRef size, int64_t dim = 0);
at::Tensor& npu_scale_(at::Tensor& self, double factor);
::std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm(const at::Tensor& input, const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& running_mean, const c10::optional<at::Tensor>& running_var, bool training, double momentum, double eps);
at::Tensor zeros_symint(c10::SymIntArrayRef size, c10::optional<at::ScalarType> dtype = c10::nullopt, c10::optional<at::Layout> layout = c10::nullopt, c10::optional<at::Device> device = c10::nullopt, c10::optional<bool> pin_memory = c10::nullopt);
}  // namespace op_plugin
""",
    "npu/core/NPUGuard.h": """\
#pragma once
#include <c10/core/Device.h>
#include <c10/util/Optional.h>
namespace c10_npu {
struct OptionalNPUGuard {
  explicit OptionalNPUGuard();
  ~OptionalNPUGuard();
  void reset_device(c10::Device device);
  c10::optional<c10::Device> current_device() const;
};
}  // namespace c10_npu
""",
}


def _compiler() -> str:
    for name in ("g++", "c++"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no C++ compiler")


# Translation units and whether compiling them takes long enough to be a slow test
# (autograd and the shim pull in torch's autograd / AOTI headers).
SOURCES = {
    "aten/RegisterNPU_0.cpp": False,
    "aten/NPUStructuredNativeFunctions.cpp": False,
    "aten/CustomRegisterSchema.cpp": False,
    "aten/CustomFunctions.cpp": False,
    "aten/RegisterFunctionalization.cpp": True,
    "aten/RegisterAutogradNPU.cpp": True,
    # only where this torchgen generates the AOTI C shim (compat "no-aoti-c-shim": not on 2.1)
    **({"inductor/c_shim_npu.cpp": True} if HAS_AOTI_C_SHIM else {}),
}


@pytest.fixture(scope="module")
def shapes_tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One shard with the project's runtime ops and every shape of the shapes fixture
    (structured groups, custom ops with lists and SymInts), plus the stub headers."""
    tmp = tmp_path_factory.mktemp("compile")
    ws = make_workspace(tmp, "op_plugin_functions.shapes.yaml")
    mark_op_api(ws)
    generate(ws, shards=1)
    stubs = tmp / "stubs"
    for relpath, text in STUBS.items():
        (stubs / relpath).parent.mkdir(parents=True, exist_ok=True)
        (stubs / relpath).write_text(text)
    # Generated sources include the op family headers of opplugin-codegen (op_plugin/ops/<family>.h);
    # here each one stands for the hand-written declarations above.
    included = r'#include "(op_plugin/ops/\w+\.h)"'
    families = {m for source in ws["npu"].rglob("*.cpp") for m in re.findall(included, source.read_text())}
    for relpath in families:
        (stubs / relpath).parent.mkdir(parents=True, exist_ok=True)
        (stubs / relpath).write_text('#pragma once\n#include "op_plugin/OpInterface.h"\n')
    return {**ws, "stubs": stubs}


def test_the_list_covers_every_generated_translation_unit(shapes_tree):
    found = sorted(p.relative_to(shapes_tree["npu"]).as_posix() for p in shapes_tree["npu"].rglob("*.cpp"))
    assert found == sorted(SOURCES)


@pytest.mark.parametrize(
    "relpath", [pytest.param(s, marks=[pytest.mark.slow] if slow else []) for s, slow in SOURCES.items()]
)
def test_generated_translation_unit_compiles_warning_free(shapes_tree, relpath: str):
    from torchnpugen.compat import cxx_std_flag, torch_include_dirs

    # The flags torch.utils.cpp_extension would use (read without importing torch).
    command = [_compiler(), cxx_std_flag(), "-fsyntax-only", "-Wall", "-Wextra", "-Werror"]
    for include in torch_include_dirs():
        command += ["-isystem", str(include)]  # torch's own warnings are not ours
    command += ["-I", str(shapes_tree["stubs"]), "-I", str(shapes_tree["out"]), str(shapes_tree["npu"] / relpath)]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, " ".join(command) + "\n" + result.stderr[-6000:]
    assert result.stderr == ""
