"""opplugin-codegen: versioned op-plugin YAML -> per-label projection and the op_plugin
interface layer (OpInterface.h/.cpp, OpApiInterface.h, AclOpsInterface.h,
StructKernelNpuOpApi.cpp, derivatives.yaml) for the npu backend."""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

# The names below load their modules when first used: `python -m opplugin_codegen generate`
# of a tree rendered before needs none of the generator (see rendered.py).
_EXPORTS = {
    "check": "api",
    "generate": "api",
    "generate_all": "api",
    "render_label": "api",
    "CodegenError": "errors",
    "Diagnostic": "errors",
    "Location": "errors",
    "load_model": "loader",
    "VersionRange": "versions",
    "VersionRegistry": "versions",
    "parse_range": "versions",
}

if TYPE_CHECKING:
    from .api import check, generate, generate_all, render_label
    from .errors import CodegenError, Diagnostic, Location
    from .loader import load_model
    from .versions import VersionRange, VersionRegistry, parse_range


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


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
