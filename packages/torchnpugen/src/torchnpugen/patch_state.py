"""Whether the patch table is applied, in a module of its own.

``patch.py`` applies the table and imports the generator classes of ``register.py`` as
replacements; those classes ask, while generating, whether the table is applied. Keeping
that state here lets both import it without importing each other.
"""

from __future__ import annotations

_applied_depth = 0  # nested torchgen_patched() contexts currently open


def enter_patched() -> None:
    """Called by ``patch.apply_torchgen_patch`` once the table is applied."""
    global _applied_depth
    _applied_depth += 1


def leave_patched() -> None:
    """Called by the revert function of ``patch.apply_torchgen_patch``."""
    global _applied_depth
    _applied_depth -= 1


def is_patched() -> bool:
    return _applied_depth > 0


def require_patched() -> None:
    if not is_patched():
        raise RuntimeError(
            "torchnpugen generators must run inside torchnpugen.patch.torchgen_patched() "
            "(the device check comes from the patched torchgen)"
        )
