"""opplugin-codegen: versioned op-plugin YAML -> per-label projection and the op_plugin
interface layer (OpInterface.h/.cpp, OpApiInterface.h, AclOpsInterface.h,
StructKernelNpuOpApi.cpp, derivatives.yaml) for the npu backend."""

from __future__ import annotations

__version__ = "0.1.0"

from .api import check, generate, generate_all, render_label
from .errors import CodegenError, Diagnostic, Location
from .loader import load_model
from .versions import VersionRange, VersionRegistry, parse_range

__all__ = [
    "CodegenError",
    "Diagnostic",
    "Location",
    "VersionRange",
    "VersionRegistry",
    "__version__",
    "check",
    "generate",
    "generate_all",
    "load_model",
    "parse_range",
    "render_label",
]
