"""Cross-package tests run against the installed wheels of one label.

The backend is imported before anything from torch.testing._internal, or
PyTorch's device-type test machinery generates no npu tests.
"""

import os
import sys
from pathlib import Path

import opplugin_runtime  # noqa: F401
import pytest

REPO = Path(__file__).resolve().parent.parent
# examples/npu_models.py (the models, data and training loop the examples share) imports as `npu_models`.
sys.path.insert(0, str(REPO / "examples"))


def _label() -> str:
    return os.environ.get("NPU_TEST_LABEL", "v2.13")


@pytest.fixture(scope="session")
def label() -> str:
    return _label()


@pytest.fixture(scope="session")
def generated_dir(label: str) -> Path:
    path = Path(os.environ.get("NPU_GENERATED_DIR", REPO / "build" / "generated" / label))
    if not path.is_dir():
        pytest.fail(f"{path} does not exist: run `nox -s generate -- {label}`")
    return path


@pytest.fixture(scope="session")
def compile_syntax_only():
    """compile_syntax_only(sources, include_dirs) -> one "--- name\\n<stderr>" per source that
    does not compile cleanly: g++ -fsyntax-only -Wall -Wextra against the installed torch's
    headers and `include_dirs`, where any diagnostic counts (several compilers at a time)."""
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    from torchnpugen.compat import cxx_std_flag, torch_include_dirs

    def run(sources: list[Path], include_dirs: list[Path]) -> list[str]:
        command = [os.environ.get("CXX", "g++"), cxx_std_flag(), "-fsyntax-only", "-Wall", "-Wextra"]
        for include in torch_include_dirs():
            command += ["-isystem", str(include)]
        for include in include_dirs:
            command += ["-I", str(include)]

        def one(source: Path) -> tuple[Path, subprocess.CompletedProcess]:
            return source, subprocess.run([*command, str(source)], capture_output=True, text=True, timeout=900)

        with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
            results = list(pool.map(one, sources))
        return [f"--- {s.name}\n{r.stderr[-4000:]}" for s, r in results if r.returncode != 0 or r.stderr]

    return run


@pytest.fixture(scope="session")
def npu_meta_check_library(generated_dir: Path, label: str) -> Path:
    """The test-only npu_meta_check operators of the generated tree (test_only/MetaCheckFunctions_<k>.cpp,
    which no wheel ships) built against the installed runtime and loaded; returns the library.
    Built into a cache directory per torch release, label and generated tree (ninja: a later run
    rebuilds only what changed; another checkout's tree does not rebuild this one's)."""
    import hashlib

    import torch
    from opplugin_runtime import cpp_extension as npu_extension
    from torch.utils import cpp_extension

    sources = sorted((generated_dir / "test_only").glob("MetaCheckFunctions_*.cpp"))
    if not sources:
        pytest.fail(f"{generated_dir}/test_only has no MetaCheckFunctions_*.cpp: run `nox -s generate -- {label}`")
    tree = hashlib.sha256(str(generated_dir.resolve()).encode()).hexdigest()[:12]
    build = (Path.home() / ".cache" / "npu-sim" / "test-extensions" / f"torch-{torch.__version__}"
             / f"npu_meta_check-{label}-{tree}")
    build.mkdir(parents=True, exist_ok=True)
    runtime = npu_extension.runtime_library()
    library = cpp_extension.load(
        name="npu_meta_check",
        sources=[str(p) for p in sources],
        extra_include_paths=[*npu_extension.include_paths(), str(generated_dir)],
        extra_cflags=["-O0", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function"],
        extra_ldflags=[str(runtime), f"-Wl,-rpath,{runtime.parent}"],
        build_directory=str(build),
        is_python_module=False,
        verbose=False,
    )
    # torch 2.1's load returns None for a plain library (it loads it); later ones return its path
    return Path(library) if library is not None else build / "npu_meta_check.so"


# --- test support modules shared by several test files ---
def _load_support_module(name: str, path: Path) -> None:
    """`path` as module `name` (pytest's importlib mode puts no test directory on sys.path)."""
    import importlib.util
    import sys

    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


# The OpInfo suite and A/B path tests: shared by test_opinfo.py and test_path_ab.py.
_load_support_module("npu_opinfo", Path(__file__).with_name("npu_opinfo.py"))
# How much of op_db runs natively on npu: test_opinfo_coverage.py.
_load_support_module("npu_coverage", Path(__file__).with_name("npu_coverage.py"))
# The project's noxfile as a module (it registers its sessions on import): test_version_registry.py,
# test_label_proofs.py.
_load_support_module("project_noxfile", REPO / "noxfile.py")
# Forcing the dual-path choice and checking the path taken: test_data_dependent_shapes.py,
# test_index_update_paths.py.
_load_support_module("forced_path", Path(__file__).with_name("forced_path.py"))
# Upstream's torch-npu wheel (downloaded and cached): test_upstream_backend_yaml.py, test_cann_abi_conformance.py.
_load_support_module("upstream_wheel", Path(__file__).with_name("upstream_wheel.py"))
# The checks of generated Meta functions (test_opplugin_meta.py, test_opplugin_dispatch.py) are
# opplugin-codegen's test support (they import torch, so they are not in its wheel); loaded from
# its tests/ by path, not by putting that directory on sys.path, so nothing else of it is seen.
_load_support_module("opplugin_meta_check", REPO / "packages" / "opplugin-codegen" / "tests" / "opplugin_meta_check.py")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ARG001
    """How many OpInfo samples ran and passed, per kind of check."""
    import sys

    module = sys.modules.get("npu_opinfo")
    lines = module.summary_lines() if module is not None else []
    if lines:
        terminalreporter.write_sep("-", "npu OpInfo samples")
        for line in lines:
            terminalreporter.write_line(line)
