"""The generated C++ parses against the installed torch's headers, cleanly at -Wall -Wextra.

Headers are checked on their own (they must not depend on the runtime). The .cpp shards
are checked with tiny stub headers for the runtime names of contracts.md section 5 (the
runtime package is written separately); the stubs make EXEC_NPU_CMD & co. use their
arguments so that unused-variable warnings stay meaningful.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from opplugin_codegen import load_model, render_label
from opplugin_codegen_testing import (
    PROJECT_YAML,
    REPO,
    RICH_YAML,
    cxx_std_flag,
    installed_torch_label,
    torch_include_dirs,
)

INCLUDES = torch_include_dirs()
pytestmark = pytest.mark.skipif(
    shutil.which("g++") is None or INCLUDES is None, reason="needs g++ and torch headers"
)

STUBS = {
    "npu/op_api/op_api_common.h": """
#pragma once
#include <ATen/core/Tensor.h>
namespace stub {
template <typename... A> void exec(const char*, const A&...) {}
bool missing(const char*);
}
#define EXEC_NPU_CMD(api, ...) ::stub::exec(#api, __VA_ARGS__)
#define DO_COMPATIBILITY(api, fallback) \\
  do { if (::stub::missing(#api)) { return fallback; } } while (0)
""",
    "npu/op_common/OpPreparation.h": """
#pragma once
#include <ATen/core/Tensor.h>
#include <initializer_list>
namespace at_npu { namespace native { struct OpPreparation {
  static at::Tensor apply_tensor_without_format(at::IntArrayRef sizes,
                                                const c10::TensorOptions& options);
  static void check_tensor(const std::initializer_list<at::Tensor>& inputs, at::Tensor& out,
                           at::ScalarType dtype, at::IntArrayRef sizes);
  static bool IsCPUScalar(const at::Tensor& tensor);
  static at::Tensor copy_scalar_to_device(const c10::Scalar& value, at::ScalarType dtype);
  static at::Tensor copy_scalar_to_device(const c10::Scalar& value, at::ScalarType dtype,
                                          c10::Device device);
}; } }
""",
    "npu/op_infer/InferSize.h": """
#pragma once
#include <ATen/core/Tensor.h>
#include <ATen/ExpandUtils.h>
#include <ATen/ops/result_type.h>
#include <c10/util/SmallVector.h>
namespace op_infer {
c10::SmallVector<int64_t, 8> broadcast_ops_npu_output_size(const at::Tensor&, const at::Tensor&);
c10::SmallVector<int64_t, 8> broadcast_ops_npu_output_size(c10::IntArrayRef, c10::IntArrayRef);
c10::SmallVector<int64_t, 8> input_same_output_size(const at::Tensor&);
// the dtype helpers of npu/op_infer/InferDtype.h that dtype: expressions call
at::ScalarType abs_out_dtype(const at::Tensor&);
at::ScalarType angle_out_dtype(const at::Tensor&);
at::ScalarType polar_out_dtype(const at::Tensor&, const at::Tensor&);
at::ScalarType clamp_out_dtype(const at::Tensor&, const c10::optional<at::Tensor>&,
                               const c10::optional<at::Tensor>&);
at::ScalarType clamp_scalar_out_dtype(const at::Tensor&, const c10::optional<at::Scalar>&,
                                      const c10::optional<at::Scalar>&);
}
namespace op_plugin { namespace utils {} }
""",
    "npu/format/FormatHelper.h": """
#pragma once
#include <ATen/core/Tensor.h>
#include <ATen/core/List.h>
namespace at_npu { namespace native { struct FormatHelper {
  static bool IsOpInputBaseFormat(const at::Tensor&);
  static bool IsOpInputBaseFormat(const c10::optional<at::Tensor>&);
  static bool IsOpInputBaseFormat(const at::TensorList&);
  static bool IsOpInputBaseFormat(const c10::List<c10::optional<at::Tensor>>&);
}; } }
""",
    "npu/dispatch/EnvVariables.h": """
#pragma once
namespace at_npu { namespace native { namespace env { bool CheckJitDisable(); } } }
""",
    "npu/dispatch/ForceAclnn.h": """
#pragma once
namespace at_npu { namespace native { struct ForceAclnn {
  static ForceAclnn& GetInstance();
  bool IsForceAclnnOp(const char* op) const;
}; } }
""",
    "npu/dispatch/PathLedger.h": """
#pragma once
namespace at_npu { namespace native {
enum class ExecPath { OpApi, AclOp, Compat, CpuFallback, Dvm };
void RecordPath(const char* op, ExecPath path);
} }
#define NPU_PATH_TAKEN(op, path) ::at_npu::native::RecordPath(op, ::at_npu::native::ExecPath::path)
""",
    "npu/dispatch/PathDecision.h": """
#pragma once
#include <ATen/core/Tensor.h>
#include <ATen/core/List.h>
namespace at_npu { namespace native {
bool NpuDecideForceAclnn(const char* op);
bool NpuDecideJitDisabled(const char* op);
bool NpuDecideAclnnOnly(const char* op);
bool NpuDecideBaseFormat(const char* op, const char* arg, const at::Tensor&);
bool NpuDecideBaseFormat(const char* op, const char* arg, const c10::optional<at::Tensor>&);
bool NpuDecideBaseFormat(const char* op, const char* arg, const at::TensorList&);
bool NpuDecideBaseFormat(const char* op, const char* arg,
                         const c10::List<c10::optional<at::Tensor>>&);
} }
""",
    "npu/core/NpuVariables.h": """
#pragma once
namespace c10_npu { bool IsAclnnOnly(); }
""",
    "npu/dispatch/LazyFusion.h": """
#pragma once
namespace lazy_fusion { bool IsEnabled(); }
""",
}
#: The runtime's own headers (contracts.md 5), when the monorepo has them.
RUNTIME_CSRC = REPO / "packages" / "opplugin-runtime" / "csrc"
ACL_INCLUDE = REPO / "packages" / "ascendc-kernels" / "include"

FLAGS = [cxx_std_flag(), "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _compile(tu: Path, include_dirs: list[Path]) -> subprocess.Popen[str]:
    assert INCLUDES is not None
    cmd = ["g++", *FLAGS]
    cmd += [f"-I{d}" for d in include_dirs]
    cmd += [f"-isystem{d}" for d in INCLUDES]
    return subprocess.Popen(
        [*cmd, str(tu)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def test_generated_cpp_parses(tmp_path: Path) -> None:
    stubs = tmp_path / "stubs"
    _write(stubs, STUBS)
    jobs = []
    for name, yaml_dir in (("project", PROJECT_YAML), ("rich", RICH_YAML)):
        gen = tmp_path / name
        # For the label of the torch whose headers it compiles against (npu/version.h checks).
        files = render_label(load_model(yaml_dir), installed_torch_label())
        _write(gen, files)
        headers = tmp_path / f"{name}_headers.cpp"
        headers.write_text(
            "".join(f'#include "{rel}"\n' for rel in sorted(files) if rel.endswith(".h"))
        )
        jobs.append((f"{name} headers", _compile(headers, [gen])))
        # All shards in one translation unit: one compile instead of eight.
        shards = tmp_path / f"{name}_shards.cpp"
        shards.write_text(
            "".join(f'#include "{rel}"\n' for rel in sorted(files) if rel.endswith(".cpp"))
        )
        jobs.append((f"{name} shards", _compile(shards, [stubs, gen])))
    if (RUNTIME_CSRC / "npu" / "op_common" / "OpPreparation.h").is_file():
        # The project's own YAML, and the fixture that uses every key, against the real
        # runtime headers.
        for name in ("project", "rich"):
            dirs = [tmp_path / name, RUNTIME_CSRC, ACL_INCLUDE]
            jobs.append(
                (
                    f"{name} shards (runtime headers)",
                    _compile(tmp_path / f"{name}_shards.cpp", dirs),
                )
            )
    failures = []
    for what, proc in jobs:
        output, _ = proc.communicate(timeout=300)
        if proc.returncode != 0:
            failures.append(f"--- {what}\n{output[-4000:]}")
    assert not failures, "\n".join(failures)
