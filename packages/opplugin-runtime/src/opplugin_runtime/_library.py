"""Loading of the C++ extension and the simulator libraries it links."""

from __future__ import annotations

import ctypes
import importlib
import os
from types import ModuleType


def _preload_ascendcl() -> None:
    # The wheel finds libascendcl through its rpath ($ORIGIN/../ascendc_kernels/lib);
    # loading it from ascendc_kernels first also covers in-place builds.
    try:
        import ascendc_kernels
    except ImportError as error:
        raise ImportError(
            "opplugin_runtime needs the ascendc-kernels package (the simulated device); install its wheel"
        ) from error
    library = os.path.join(ascendc_kernels.get_library_dir(), "libascendcl.so")
    if os.path.isfile(library):
        ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)


def load_extension() -> ModuleType:
    _preload_ascendcl()
    return importlib.import_module("opplugin_runtime._C")
