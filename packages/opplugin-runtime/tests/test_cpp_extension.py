"""A user extension (Ascend C kernel + op_api call) builds against the installed
runtime with opplugin_runtime.cpp_extension.NpuExtension and runs on npu.
The build takes ~15-40 s, so it is marked slow."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def built_extension(tmp_path_factory):
    work = tmp_path_factory.mktemp("user_ext")
    for name in ("setup.py", "scale_ops.cpp"):
        shutil.copy(HERE / "user_extension" / name, work / name)
    result = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    libraries = list(work.glob("user_npu_ops*.so"))
    assert libraries, "no extension built"
    return libraries[0]


@pytest.mark.slow
def test_user_extension_runs_on_npu(built_extension, run_python):
    result = run_python(
        f"""
        import torch, opplugin_runtime
        torch.ops.load_library({str(built_extension)!r})
        x = torch.arange(256, dtype=torch.float32)
        y = torch.ops.user_npu_ops.scale(x.npu(), 2.5)
        torch.testing.assert_close(y.cpu(), x * 2.5)
        z = torch.ops.user_npu_ops.axpy(x.npu(), torch.ones(256).npu(), 3.0)
        torch.testing.assert_close(z.cpu(), 1 + 3 * x)
        print("ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ok")


def test_include_and_library_paths():
    from opplugin_runtime import cpp_extension

    include = Path(cpp_extension.include_paths()[0])
    assert (include / "npu" / "core" / "NPUStream.h").is_file()
    assert (include / "npu" / "op_api" / "op_api_common.h").is_file()
    assert cpp_extension.runtime_library().is_file()
    assert torch.npu.is_available()
