"""Test setup: use the installed ascendc_kernels, or build the source tree's.

In a source checkout (package not installed) the C++ libraries are built
incrementally into src/ascendc_kernels/lib first (setup.py build_native; a
no-op build takes well under a second) and src/ is put on sys.path. Set
ASCENDC_KERNELS_SKIP_BUILD=1 to test whatever is there without building.
Either way this directory goes on sys.path for ascendc_kernels_testing (the ctypes
bindings of the ABI, test support that the wheel does not ship).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
SRC = PACKAGE_ROOT / "src"
TESTS = PACKAGE_ROOT / "tests"


def _use_source_tree() -> bool:
    spec = importlib.util.find_spec("ascendc_kernels")
    return spec is None or Path(spec.origin).resolve().is_relative_to(SRC)


def _put_on_path(path: Path) -> None:
    """`path` importable here and in the interpreters tests start."""
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
    entries = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(path) not in entries:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path), *entries]))


if _use_source_tree():
    if os.environ.get("ASCENDC_KERNELS_SKIP_BUILD") != "1":
        subprocess.run([sys.executable, "setup.py", "-q", "build_native"], cwd=PACKAGE_ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    _put_on_path(SRC)
# The ctypes bindings the tests use live here, next to the tests, not in the wheel.
_put_on_path(TESTS)

import ascendc_kernels_testing as sim  # noqa: E402


@pytest.fixture(scope="session")
def acl():
    libs = sim.load()
    sim.check(libs.aclInit(None))
    return libs


@pytest.fixture
def stream(acl):
    """A fresh stream on device 0 (destroyed after the test)."""
    handle = sim.ctypes.c_void_p()
    sim.check(acl.aclrtSetDevice(0))
    sim.check(acl.aclrtCreateStream(sim.ctypes.byref(handle)))
    yield handle.value
    acl.aclrtDestroyStream(handle.value)


@pytest.fixture(autouse=True)
def _clean_device(acl):
    """Every test starts on device 0 with no pending errors."""
    acl.aclrtSetDevice(0)
    yield
    acl.aclrtSetDevice(0)
    for device in range(2):
        acl.aclrtSetDevice(device)
        acl.aclrtSynchronizeDevice()
    acl.aclrtSetDevice(0)


def _build_test_kernels(out_dir: Path) -> Path:
    """Compiles tests/kernels/test_kernels.cpp as a user would: against the headers and
    libascendcl of the ascendc_kernels package under test (installed or source tree)."""
    import ascendc_kernels

    lib_dir = ascendc_kernels.get_library_dir()
    out = out_dir / "libascendc_sim_test_kernels.so"
    command = [
        os.environ.get("CXX", "g++"), "-std=c++17", "-O2", "-Wall", "-Wextra", "-shared", "-fPIC",
        "-I", ascendc_kernels.get_include(), str(PACKAGE_ROOT / "tests" / "kernels" / "test_kernels.cpp"),
        "-L", lib_dir, "-lascendcl", f"-Wl,-rpath,{lib_dir}", "-o", str(out),
    ]
    subprocess.run(command, check=True)
    return out


@pytest.fixture(scope="session")
def test_kernels(acl, tmp_path_factory):
    """The user-kernel library of tests/kernels, built against the package under test."""
    path = _build_test_kernels(tmp_path_factory.mktemp("user_kernels"))
    lib = sim.ctypes.CDLL(str(path))
    vp, u32 = sim.ctypes.c_void_p, sim.ctypes.c_uint32
    for name, args in {
        "test_launch_user_add": [vp, vp, vp, u32, u32, vp],
        "test_launch_over_ub": [vp],
        "test_launch_report_error": [vp, u32, vp],
        "test_launch_block_ids": [vp, u32, vp],
        "test_launch_misaligned_copy": [vp, vp],
        "test_launch_vector_ops": [vp, vp, vp, vp],
        "test_launch_compare_reduce": [vp, vp, vp, u32, vp],
        "test_launch_mmad_tile": [vp, vp, vp, u32, u32, u32, vp],
        "test_launch_over_l0a": [vp],
        "test_profiled_register": [u32],
        "test_profiled_launch_add": [sim.ctypes.c_char_p, vp, vp, vp, u32, u32, vp],
    }.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = sim.ctypes.c_int
    for name in ("test_profiled_command", "test_profiled_devices", "test_profiled_calls"):
        getattr(lib, name).restype = u32
    lib.test_profiled_switch.restype = sim.ctypes.c_uint64
    return lib
