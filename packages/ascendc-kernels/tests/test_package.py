"""The Python package: version, include and library directories, library metadata."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ascendc_kernels
import pytest


def test_version():
    assert ascendc_kernels.__version__ == "0.1.0"


def test_include_dir_has_the_abi_headers():
    include = Path(ascendc_kernels.get_include())
    for header in ("acl/acl.h", "acl/acl_rt.h", "acl/acl_op.h", "aclnn/acl_meta.h", "aclnnop/aclnn_add.h",
                   "hccl/hccl.h", "ascendc_sim/launch.h", "ascendc_sim/launch_kernel.h", "kernel_operator.h"):
        assert (include / header).is_file(), header


def test_library_paths():
    lib_dir = Path(ascendc_kernels.get_library_dir())
    assert Path(ascendc_kernels.library_path("ascendcl")) == lib_dir / "libascendcl.so"
    assert Path(ascendc_kernels.library_path("libopapi.so")) == lib_dir / "libopapi.so"
    with pytest.raises(FileNotFoundError):
        ascendc_kernels.library_path("nonexistent")


def _dynamic_section(path: str) -> str:
    return subprocess.run(["readelf", "-d", path], check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf not available")
def test_sonames_and_rpath():
    acl = _dynamic_section(ascendc_kernels.library_path("ascendcl"))
    opapi = _dynamic_section(ascendc_kernels.library_path("opapi"))
    assert "Library soname: [libascendcl.so]" in acl
    assert "Library soname: [libopapi.so]" in opapi
    assert "Shared library: [libascendcl.so]" in opapi
    assert "[$ORIGIN]" in opapi  # RUNPATH/RPATH: finds libascendcl next to itself


PACKAGE_ROOT = Path(__file__).resolve().parent.parent
UNDER_SANITIZER = "libasan" in os.environ.get("LD_PRELOAD", "")


@pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf not available")
def test_sanitized_and_plain_builds_stay_apart():
    """The libraries in use link the sanitizer runtime exactly when the process runs under it
    (`nox -s sanitize`), and the source tree's own libraries (build_native) never do: a
    sanitized build written there broke every later plain process that loaded them."""
    for name in ("ascendcl", "opapi"):
        linked = "libasan" in _dynamic_section(ascendc_kernels.library_path(name))
        assert linked == UNDER_SANITIZER, (name, ascendc_kernels.get_library_dir())
    for library in sorted((PACKAGE_ROOT / "src" / "ascendc_kernels" / "lib").glob("*.so")):
        assert "libasan" not in _dynamic_section(str(library)), library


def test_build_native_refuses_a_sanitized_build_into_the_source_tree():
    result = subprocess.run([sys.executable, "setup.py", "-q", "build_native"], cwd=PACKAGE_ROOT,
                            env={**os.environ, "SANITIZE": "1"}, capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "source tree" in result.stderr and "nox -s sanitize" in result.stderr


def _setup_functions(*names: str) -> dict:
    """Top-level definitions of setup.py (which calls setup() when imported), compiled alone."""
    import ast

    tree = ast.parse((PACKAGE_ROOT / "setup.py").read_text())
    wanted = [node for node in tree.body
              if (isinstance(node, ast.FunctionDef) and node.name in names)
              or (isinstance(node, ast.Assign) and any(getattr(t, "id", "") in names for t in node.targets))]
    namespace: dict = {"Path": Path}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "setup.py", "exec"), namespace)
    return namespace


def test_a_build_tree_configured_by_a_removed_environment_is_configured_again(tmp_path: Path):
    """The C++ tree is shared by every label's build; when the environment whose cmake, ninja and
    python configured it is removed (`nox -s prove --prune`), the next build configures it again."""
    gone = _setup_functions("CONFIGURED_TOOLS", "configured_tools_gone")["configured_tools_gone"]
    assert gone(tmp_path) == []  # not configured yet
    ninja = tmp_path / "venv" / "bin" / "ninja"
    ninja.parent.mkdir(parents=True)
    ninja.touch()
    cache = tmp_path / "CMakeCache.txt"
    cache.write_text(f"CMAKE_MAKE_PROGRAM:FILEPATH={ninja}\nCMAKE_COMMAND:INTERNAL={sys.executable}\n"
                     "CMAKE_BUILD_TYPE:STRING=Release\n")
    assert gone(tmp_path) == []
    shutil.rmtree(ninja.parent.parent)
    assert gone(tmp_path) == [str(ninja)]
