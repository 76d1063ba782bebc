"""The simulated Ascend NPU device side: libascendcl.so, libopapi.so and their headers.

The package ships the simulator's C libraries and the C ABI headers that the torch-side
runtime builds against:

- ``libascendcl.so``: devices, memory, streams, events, kernel launch on
  simulated AI cores, the aclnn object model, the acl_op executor and the
  simulator's Ascend C kernels;
- ``libopapi.so``: the aclnn two-phase entry points (``aclnnAdd`` ...);
- ``libhccl.so`` and the toolkit's other libraries CANN clients link;
- ``include/``: ``acl/``, ``aclnn/``, ``aclnnop/``, ``hccl/``, ``ascendc_sim/`` and
  ``kernel_operator.h`` (the Ascend C API subset for user kernels).
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

__all__ = ["__version__", "get_include", "get_library_dir", "library_path"]

_PACKAGE_DIR = Path(__file__).resolve().parent
# In a source checkout the headers live in packages/ascendc-kernels/include
# until a build copies them into the package.
_SOURCE_INCLUDE = _PACKAGE_DIR.parent.parent / "include"


def get_include() -> str:
    """Directory holding acl/acl.h, aclnn/, aclnnop/ (generated from abi/aclnn/*.decl), hccl/,
    ascendc_sim/ and kernel_operator.h."""
    packaged = _PACKAGE_DIR / "include"
    if (packaged / "acl" / "acl.h").is_file():
        return str(packaged)
    if (_SOURCE_INCLUDE / "acl" / "acl.h").is_file():
        return str(_SOURCE_INCLUDE)
    raise FileNotFoundError(f"ascendc_kernels headers not found in {packaged} or {_SOURCE_INCLUDE}")


def get_library_dir() -> str:
    """Directory holding libascendcl.so and libopapi.so."""
    return str(_PACKAGE_DIR / "lib")


def library_path(name: str) -> str:
    """Full path of one of the package's libraries: "ascendcl", "opapi" or a file name."""
    file_name = name if name.endswith(".so") else f"lib{name.removeprefix('lib')}.so"
    path = _PACKAGE_DIR / "lib" / file_name
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} does not exist; build the package (pip wheel/install, or "
            f"`python setup.py build_native` in packages/ascendc-kernels)"
        )
    return str(path)
