"""Import-time check that the installed torch is the one this build was compiled against."""

from __future__ import annotations

import torch


def _major_minor(version: str) -> tuple[int, int]:
    parts = version.split("+")[0].split(".")
    return int(parts[0]), int(parts[1])


def check_build() -> None:
    try:
        from . import _build_info
    except ImportError as error:  # a source checkout that was never built
        raise ImportError(
            "opplugin_runtime is not built (no _build_info.py): install the wheel, or build in place with "
            "NPU_GENERATED_DIR=... python setup.py build_ext --inplace"
        ) from error
    built = tuple(_build_info.TORCH_MAJOR_MINOR)
    running = _major_minor(torch.__version__)
    if built != running:
        raise ImportError(
            f"opplugin_runtime was built for label {_build_info.LABEL} against torch {_build_info.TORCH_VERSION}, "
            f"but torch {torch.__version__} is installed; install the opplugin-runtime wheel built for this torch"
        )
