"""Building user extensions (e.g. an Ascend C kernel plus its torch binding)
against the installed runtime, in the spirit of torch_npu's ``NpuExtension``::

    from opplugin_runtime.cpp_extension import NpuExtension
    setup(ext_modules=[NpuExtension("ascendc_ops", ["add_custom.cpp"])],
          cmdclass={"build_ext": BuildExtension})

CMake builds use ``find_package(torch_npu)`` with :func:`cmake_prefix_path` instead.

The extension sees the runtime headers (``#include "npu/core/NPUStream.h"``),
the device ABI and Ascend C headers of ascendc-kernels, and links the runtime
(``opplugin_runtime._C``) and libascendcl with rpaths to both. Import
``opplugin_runtime`` (or use ``torch.npu``) before loading the extension.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from torch.utils import cpp_extension

__all__ = ["NpuExtension", "cmake_prefix_path", "include_paths", "library_paths", "runtime_library"]


def _package_dir() -> Path:
    spec = importlib.util.find_spec("opplugin_runtime")
    if spec is None or spec.origin is None:
        raise RuntimeError("opplugin_runtime is not installed")
    return Path(spec.origin).resolve().parent


def runtime_library() -> Path:
    """The runtime's shared library (the ``_C`` extension module)."""
    candidates = sorted(_package_dir().glob("_C*.so"))
    if not candidates:
        raise RuntimeError(f"no _C extension found in {_package_dir()}; is opplugin_runtime built?")
    return candidates[0]


def _ascendc_kernels() -> Any:
    import ascendc_kernels

    return ascendc_kernels


def include_paths() -> list[str]:
    """The runtime's public headers, then the device ABI / Ascend C headers."""
    return [str(_package_dir() / "include"), str(_ascendc_kernels().get_include())]


def library_paths() -> list[str]:
    return [str(_package_dir()), str(_ascendc_kernels().get_library_dir())]


def cmake_prefix_path() -> str:
    """The directory to add to ``CMAKE_PREFIX_PATH`` for ``find_package(torch_npu)`` (a
    ``torch_npu`` target to link, ``TORCH_NPU_INCLUDE_DIRS``), as ``torch.utils.cmake_prefix_path``
    is for ``find_package(Torch)``."""
    path = _package_dir() / "share" / "cmake"
    if not (path / "torch_npu" / "torch_npuConfig.cmake").is_file():
        raise RuntimeError(f"{path} holds no torch_npu CMake package; is opplugin_runtime built?")
    return str(path)


def NpuExtension(name: str, sources: list[str], *args: Any, **kwargs: Any) -> Any:
    """A ``CppExtension`` preconfigured for the npu runtime and the simulated device."""
    kwargs["include_dirs"] = list(kwargs.get("include_dirs", [])) + include_paths()
    kwargs["library_dirs"] = list(kwargs.get("library_dirs", [])) + library_paths()
    kwargs["libraries"] = [*list(kwargs.get("libraries", [])), "ascendcl"]
    rpaths = [f"-Wl,-rpath,{path}" for path in library_paths()]
    kwargs["extra_link_args"] = [*list(kwargs.get("extra_link_args", [])), f"-l:{runtime_library().name}", *rpaths]
    return cpp_extension.CppExtension(name, sources, *args, **kwargs)
