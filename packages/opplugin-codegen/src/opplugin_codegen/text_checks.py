"""What every YAML file of the project must be as text, before it is parsed: UTF-8, and free
of the control characters YAML forbids. Each check gives the line and column of the first
problem. Standard library only (the registry reader, which nox imports with nothing but nox
installed, uses it too)."""

from __future__ import annotations

import re

# controls other than NEL, surrogates and the two non-characters (YAML 1.1 section 5.1).
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


def decode(data: bytes) -> tuple[str | None, tuple[int, str] | None]:
    """``(text, None)``, or ``(None, (line, message))`` naming the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        message = (
            f"not UTF-8: byte 0x{data[e.start]:02x} at column {column} (byte {e.start} of the file)"
        )
        return None, (line, message)


def forbidden_character(text: str) -> tuple[int, str] | None:
    """``(line, message)`` of the first character YAML forbids, or None."""
    bad = _FORBIDDEN.search(text)
    if bad is None:
        return None
    line = text.count("\n", 0, bad.start()) + 1
    column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
    return line, (
        f"control character U+{ord(bad.group()):04X} at column {column}: YAML allows only tabs "
        "and line breaks among the control characters"
    )
