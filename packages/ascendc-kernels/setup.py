"""Builds libascendcl.so and libopapi.so with CMake + Ninja and packages them.

The C++ build directory is persistent (ASCENDC_KERNELS_BUILD_DIR, default
packages/ascendc-kernels/build/cmake), so rebuilds are incremental; ccache is
used when found. A wheel build puts the libraries and the headers of include/
straight into the wheel's staging directory (under the build directory), so a
sanitized build (SANITIZE=1) never reaches the source tree. `build_native`
installs a plain build into src/ascendc_kernels/{lib,include}, for a source
checkout whose tests put src/ on sys.path.

    python setup.py build_native       # just the C++ build into the package dir
    pip wheel --no-build-isolation --no-deps -w dist packages/ascendc-kernels
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Command, setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

ROOT = Path(__file__).resolve().parent
PACKAGE_DIR = ROOT / "src" / "ascendc_kernels"
# The simulator's two libraries, then the toolkit's other libraries CANN clients link (each loads libascendcl).
LIBRARIES = ("libascendcl.so", "libopapi.so", "libhccl.so", "libacl_op_compiler.so", "libge_runner.so", "libgraph.so",
             "libacl_tdt_channel.so", "libmsprofiler.so", "libascend_hal.so")


def build_dir() -> Path:
    return Path(os.environ.get("ASCENDC_KERNELS_BUILD_DIR", ROOT / "build" / "cmake")).resolve()


def find_tool(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    if name == "ninja":
        try:
            import ninja  # the PyPI package ships the binary

            return str(Path(ninja.BIN_DIR) / "ninja")
        except ImportError:
            pass
    raise RuntimeError(f"{name} is required to build ascendc-kernels but was not found on PATH")


def copy_if_changed(src: Path, dst: Path) -> None:
    """Copies keeping mtimes stable when the content did not change."""
    if dst.exists() and filecmp.cmp(src, dst, shallow=False):
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".tmp")
    shutil.copy2(src, tmp)
    os.replace(tmp, dst)


# Tools a configured tree runs by absolute path (its regeneration rule and the ABI generator).
CONFIGURED_TOOLS = ("CMAKE_COMMAND:", "CMAKE_MAKE_PROGRAM:", "Python3_EXECUTABLE:")


def configured_tools_gone(out: Path) -> list[str]:
    """The tools the build tree was configured with that no longer exist: the tree is shared by
    every label's build, and the label environment that configured it may have been removed."""
    cache = out / "CMakeCache.txt"
    if not cache.exists():
        return []
    gone = []
    for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(CONFIGURED_TOOLS) and "=" in line:
            path = line.split("=", 1)[1].strip()
            if path and not Path(path).exists():
                gone.append(path)
    return gone


def build_native_libraries(package_dir: Path) -> None:
    """Configures (once) and builds the C++ libraries; installs them and the headers into `package_dir`."""
    out = build_dir()
    out.mkdir(parents=True, exist_ok=True)
    gone = configured_tools_gone(out)
    if gone:  # configure again with this environment's tools; the objects stay and are reused
        print(f"ascendc-kernels: {out} was configured with tools that are gone ({', '.join(gone)}); configuring again")
        (out / "CMakeCache.txt").unlink()
        (out / "build.ninja").unlink(missing_ok=True)
    if not (out / "build.ninja").exists():
        configure = [
            find_tool("cmake"),
            "-S", str(ROOT),
            "-B", str(out),
            "-G", "Ninja",
            f"-DCMAKE_MAKE_PROGRAM={find_tool('ninja')}",
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython3_EXECUTABLE={sys.executable}",  # runs abi/aclnn_abi.py (standard library only)
        ]
        ccache = shutil.which("ccache")
        if ccache:
            configure.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={ccache}")
        if os.environ.get("ASCENDC_KERNELS_NATIVE") == "1":
            configure.append("-DASCENDC_KERNELS_NATIVE=ON")
        if os.environ.get("SANITIZE") == "1":  # AddressSanitizer + UBSan (nox -s sanitize)
            configure.append("-DASCENDC_KERNELS_SANITIZE=ON")
        subprocess.check_call(configure)
    jobs = os.environ.get("ASCENDC_KERNELS_BUILD_JOBS", str(os.cpu_count() or 2))
    subprocess.check_call([find_tool("cmake"), "--build", str(out), "--", "-j", jobs])

    for name in LIBRARIES:
        copy_if_changed(out / name, package_dir / "lib" / name)
    # The headers: the hand-written ones of include/ and those generated from abi/aclnn/*.decl.
    include_dst = package_dir / "include"
    headers = {}
    for include_src in (ROOT / "include", out / "generated" / "include"):
        for header in include_src.rglob("*.h"):
            headers[header.relative_to(include_src)] = header
    for relative, header in headers.items():
        copy_if_changed(header, include_dst / relative)
    for stale in include_dst.rglob("*.h"):  # headers removed from include/ or from the declarations
        if stale.relative_to(include_dst) not in headers:
            stale.unlink()

class BuildNative(Command):
    description = "build libascendcl.so/libopapi.so into src/ascendc_kernels/lib (and copy the headers)"
    user_options: list = []

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        if os.environ.get("SANITIZE") == "1":
            raise SystemExit("build_native installs into the source tree, which takes no sanitized build; "
                             "`nox -s sanitize` builds those wheels in their own directories")
        build_native_libraries(PACKAGE_DIR)


class BuildPy(build_py):
    """Puts the freshly built libraries and headers into the wheel's staging directory
    (not the source tree, which may hold another build's libraries)."""

    def run(self) -> None:
        super().run()
        staged = Path(self.build_lib) / "ascendc_kernels"
        for stale in [*staged.glob("lib/*.so"), *staged.glob("include/**/*.h")]:
            stale.unlink()  # copied from the source tree's own build by build_py
        for module in staged.rglob("*.py"):  # the staging directory outlives modules removed from src/
            if not (PACKAGE_DIR / module.relative_to(staged)).is_file():
                module.unlink()
        build_native_libraries(staged)


class BinaryDistribution(Distribution):
    """The wheel carries native libraries: a platform wheel, not py3-none-any."""

    def has_ext_modules(self) -> bool:
        return True


class BdistWheel(bdist_wheel):
    """The libraries do not use the Python C API: one wheel per platform, any CPython 3."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self) -> tuple:
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(
    distclass=BinaryDistribution,
    # One setuptools staging tree per C++ build directory: a sanitized and a plain wheel never share files.
    options={"build": {"build_base": str(build_dir() / "setuptools")}},
    cmdclass={"build_native": BuildNative, "build_py": BuildPy, "bdist_wheel": BdistWheel},
)
