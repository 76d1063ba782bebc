"""``npu/version.h``: the version macros of one label (op-plugin's ``Version.h``).

C++ that differs between torch releases asks ``#if VERSION_BETWEEN(V2R1, V2R4)``
instead of testing torch version numbers itself. Every label of the registry gets an
ordinal macro (``V2R1`` = 1, ... in registry order), so adding a label to
``yaml/versions.yaml`` adds its macro and moves ``VERSION_NEWEST`` with no other edit.
The header also refuses, at compile time, a build against a torch whose major.minor is
not the label's pin (generated code is tied to its torch release).
"""

from __future__ import annotations

from .cppfile import banner
from .versions import VersionRegistry

VERSION_H = "npu/version.h"


def version_macro(label: str) -> str:
    """``v2.13`` -> ``V2R13`` (op-plugin's spelling)."""
    major, minor = label[1:].split(".")
    return f"V{major}R{minor}"


def render_version_h(registry: VersionRegistry, label: str, source: str) -> str:
    major, minor = registry.torch_version(label)
    pin = registry.torch_pin(label)
    what = (
        f"Version macros of {label}: one ordinal per label of {source} (registry order), the "
        f"label this tree was generated for, and VERSION_BETWEEN(a, b): whether the current "
        f"label lies between a and b inclusive (VERSION_NEWEST for an open end)."
    )
    width = max(len(version_macro(lb)) for lb in registry.labels)
    ordinals = "".join(
        f"#define {version_macro(lb):<{width}} {registry.ordinal(lb)}\n" for lb in registry.labels
    )
    newest = version_macro(registry.labels[-1])
    current = version_macro(label)
    rebuild = f"nox -s generate build -- {label}"
    return (
        banner(source, label, pin, what)
        + "#pragma once\n\n"
        + "#include <torch/version.h>\n\n"
        + f'#define NPU_VERSION_LABEL "{label}"\n'
        + f'#define NPU_VERSION_TORCH "{pin}"\n'
        + f"#define NPU_VERSION_TORCH_MAJOR {major}\n"
        + f"#define NPU_VERSION_TORCH_MINOR {minor}\n\n"
        + ordinals
        + "\n"
        + f"#define VERSION_NEWEST {newest}\n"
        + f"#define CURRENT_VERSION {current}\n"
        + "#define VERSION_BETWEEN(a, b) ((CURRENT_VERSION >= (a)) && (CURRENT_VERSION <= (b)))\n\n"
        + "// Generated code is tied to its torch release: compiling it against another one\n"
        + "// fails here, naming both, instead of with an error deep inside ATen.\n"
        + "#if TORCH_VERSION_MAJOR != NPU_VERSION_TORCH_MAJOR || "
        + "TORCH_VERSION_MINOR != NPU_VERSION_TORCH_MINOR\n"
        + f'#error "this tree was generated for {label} (torch {pin}) but is compiled against '
        + f"another torch release: build it in the {label} environment (`{rebuild}`), or generate "
        + 'and build the label of the torch at hand"\n'
        + "#endif\n"
    )
