"""The Python package: version, include and library directories, library metadata."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import ascendc_kernels
import pytest


def test_version():
    assert ascendc_kernels.__version__ == "0.1.0"


def test_include_dir_has_the_abi_headers():
    include = Path(ascendc_kernels.get_include())
    for header in ("acl/acl.h", "acl/acl_rt.h", "acl/acl_op.h", "aclnn/acl_meta.h", "aclnnop/aclnn_add.h",
                   "ascendc_sim/launch.h", "ascendc_sim/launch_kernel.h", "kernel_operator.h"):
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
