"""Shared test setup. The backend is imported before anything from
torch.testing._internal (see privateuse1.md E20).

The tests run against an importable opplugin_runtime: the installed wheel, or
an in-place build on PYTHONPATH (see README.md). Helpers are fixtures, so the
suite works in pytest's importlib import mode (the repository's pytest.ini).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

import opplugin_runtime  # noqa: F401  (registers torch.npu)

# examples/npu_models.py (the models, data and training loop the examples share) imports as `npu_models`.
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))


@pytest.fixture(autouse=True)
def _default_modes():
    """Every test starts on the default path (jit_compile=False) with a silent CPU
    fallback (tests compare with CPU; fallback warnings are tested in subprocesses);
    the previous modes are restored afterwards."""
    jit_was_disabled = torch.npu.is_jit_compile_false()
    fallback_mode = torch.npu.get_fallback_mode()
    torch.npu.set_compile_mode(jit_compile=False)
    torch.npu.set_fallback_mode("silent")
    yield
    torch.npu.set_compile_mode(jit_compile=not jit_was_disabled)
    torch.npu.set_fallback_mode(fallback_mode)


@pytest.fixture
def ledger():
    """A fresh path ledger; returns a function reading it."""
    torch.npu.reset_path_ledger()
    return torch.npu.path_ledger


def _run_python(code: str, env: dict[str, str] | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter that sees the same opplugin_runtime."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _assert_same(npu_result: torch.Tensor, cpu_result: torch.Tensor, **kwargs) -> None:
    """npu and CPU results agree in device type, dtype, shape and values."""
    assert npu_result.device.type == "npu", npu_result.device
    assert npu_result.dtype == cpu_result.dtype, (npu_result.dtype, cpu_result.dtype)
    assert npu_result.shape == cpu_result.shape, (npu_result.shape, cpu_result.shape)
    torch.testing.assert_close(npu_result.cpu(), cpu_result, **kwargs)


@pytest.fixture
def run_python():
    """run_python(code, env=None) -> CompletedProcess: `code` in a fresh interpreter."""
    return _run_python


@pytest.fixture
def assert_same():
    """assert_same(npu_result, cpu_result, **assert_close_kwargs)."""
    return _assert_same


@pytest.fixture
def expect_paths():
    """expect_paths(mapping, strict=False): a context in which an op that records a path
    outside `mapping` raises (torch.npu.expect_paths); the ledger starts empty."""
    torch.npu.reset_path_ledger()
    return torch.npu.expect_paths


@pytest.fixture(scope="session")
def infer_helpers():
    """The runtime's shape/dtype helpers (npu/op_infer/InferSize.h) as a Python module,
    built once per torch release from tests/infer_helpers/ against the installed runtime
    (ninja: a later run rebuilds only what changed; another checkout's runtime does not share
    this one's build, which links it)."""
    import hashlib
    from pathlib import Path

    from torch.utils import cpp_extension

    from opplugin_runtime import cpp_extension as npu_extension

    here = Path(__file__).resolve().parent / "infer_helpers"
    runtime = npu_extension.runtime_library()
    owner = hashlib.sha256(str(runtime.resolve()).encode()).hexdigest()[:12]
    build = (Path.home() / ".cache" / "npu-sim" / "test-extensions" / f"torch-{torch.__version__}"
             / f"infer_helpers-{owner}")
    build.mkdir(parents=True, exist_ok=True)
    return cpp_extension.load(
        name="npu_infer_helpers",
        sources=[str(p) for p in sorted(here.glob("*.cpp"))],
        extra_include_paths=npu_extension.include_paths(),
        extra_cflags=["-O0", "-Wall", "-Wextra", "-Werror"],
        extra_ldflags=[str(runtime), f"-Wl,-rpath,{runtime.parent}"],
        build_directory=str(build),
        verbose=False,
    )
