"""Text helpers shared by the C++ generators: include order, wrapping, sharding."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from .cpp import CppSignature

LINE_WIDTH = 100

# Project headers first, then torch, then the standard library (each group sorted).
_GROUPS = ('"op_plugin/', '"npu/', '"', "<ATen/", "<c10/", "<")


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (a longer word alone on its line);
    words are separated by any whitespace, so a template may write the text over several
    lines."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if len(candidate) > width and current:
            lines.append(current)
            current = word
        else:
            current = candidate
    return [*lines, current]


def ordered_includes(includes: Iterable[str]) -> list[str]:
    """Quoted ("npu/...") or angled (<ATen/...>) header names, once each, in ``#include``
    order: project headers first, then torch, then the standard library (each group sorted)."""

    def group(name: str) -> int:
        return next(i for i, prefix in enumerate(_GROUPS) if name.startswith(prefix))

    return sorted(set(includes), key=lambda n: (group(n), n))


def shard_of(key: str, shards: int) -> int:
    """Stable shard index (independent of PYTHONHASHSEED and of the other ops)."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % shards


def function_head(sig: CppSignature, *, qualifier: str = "", with_defaults: bool = False) -> str:
    """``ret name(params)``, wrapped one parameter per line when it is too long."""
    prefix = f"{sig.returns.text} {qualifier}{sig.name}("
    params = [p.render(with_defaults) for p in sig.params]
    one_line = prefix + ", ".join(params) + ")"
    if len(one_line) <= LINE_WIDTH or len(params) <= 1:
        return one_line
    return prefix + "\n    " + ",\n    ".join(params) + ")"


def call(callee: str, args: Iterable[str]) -> str:
    return f"{callee}({', '.join(args)})"


def join_conditions(conditions: list[str], indent: int) -> str:
    """``a &&\\n<indent>b`` ..., one operand per line."""
    return (" &&\n" + " " * indent).join(conditions)


def c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def c_string_block(text: str, indent: int, width: int = 72) -> str:
    """A long message as adjacent string literals, one per line, broken at spaces."""
    words = text.split(" ")
    chunks: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if len(candidate) > width and current:
            chunks.append(current + " ")
            current = word
        else:
            current = candidate
    chunks.append(current)
    return ("\n" + " " * indent).join(c_string(c) for c in chunks)
