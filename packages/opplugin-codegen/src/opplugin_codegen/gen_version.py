"""``npu/version.h``: the version macros of one label (op-plugin's ``Version.h``).

C++ that differs between torch releases asks ``#if VERSION_BETWEEN(V2R1, V2R4)``
instead of testing torch version numbers itself. Every label of the registry gets an
ordinal macro (``V2R1`` = 1, ... in registry order), so adding a label to
``yaml/versions.yaml`` adds its macro and moves ``VERSION_NEWEST`` with no other edit.
The header also refuses, at compile time, a build against a torch whose major.minor is
not the label's pin (generated code is tied to its torch release).
"""

from __future__ import annotations

from . import templating
from .versions import VersionRegistry

VERSION_H = "npu/version.h"


def version_macro(label: str) -> str:
    """``v2.13`` -> ``V2R13`` (op-plugin's spelling)."""
    major, minor = label[1:].split(".")
    return f"V{major}R{minor}"


def render_version_h(registry: VersionRegistry, label: str, source: str) -> str:
    """``npu/version.h`` (templates/version.h.j2) of ``label``; ``source`` names versions.yaml."""
    major, minor = registry.torch_version(label)
    macros = [version_macro(lb) for lb in registry.labels]
    return templating.render(
        "version.h.j2",
        source=source,
        label=label,
        torch=registry.torch_pin(label),
        major=major,
        minor=minor,
        ordinals=[(macro, registry.ordinal(lb)) for macro, lb in zip(macros, registry.labels)],
        width=max(len(macro) for macro in macros),
        newest=macros[-1],
        current=version_macro(label),
    )
